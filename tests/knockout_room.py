"""A running hub with a knockout section for the tests (issue [KNOCKOUT]): the whole hub
behind a recording terminal port (tests/team_room.py's), each table's terminal entering
its own results, round after round as the bracket is appended.

``ko_event``: a single-elimination knockout of ``teams`` teams seeded by their numbers,
one segment of two boards a match, an extra set of two boards on a tie. ``Room.play``
plays every match of the round at the tables: ``home`` wins by 10 IMPs on board 1 (+420
in the open room, −50 in the closed: 470 → 10 IMPs), ``away`` by the same the other way,
``level`` pushes every board (same contract, same tricks in both rooms)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from hub_stub import wait_until
from team_room import RecordingPort, Room

from hub.live.port import terminal_port as tp
from hub.live.service.hub_service import HubService
from hub.store.store import Store


def ko_event(teams: int = 8, *lines: str) -> str:
    named = ", ".join(f'{{ number = {n}, name = "Team {n}" }}' for n in range(1, teams + 1))
    extra = "\n".join(lines)
    return f"""schema_version = 1
[event]
name = "Knockout"
[rules]
scoring = "teams"
lot_seed = 11
[rules.display]
verification = "none"
[[sessions]]
name = "KO"
[[sessions.sections]]
letter = "A"
teams = [{named}]
[sessions.sections.movement]
knockout = "single_elimination"
teams = {teams}
segments = 1
final_segments = 1
boards_per_segment = 2
extra_set_boards = 2
{extra}
"""


class KoRoom(Room):
    """The room as its terminals see it, on the hub's loop (``say``: team_room's)."""

    async def seat(self, tables: int) -> None:
        for table in range(1, tables + 1):
            verdict = await self.say(tp.LogonRequest, table, f"T{table}", "A", table, "")
            assert verdict.outcome is tp.Outcome.OK, verdict

    @property
    def round(self) -> int:
        return self.hub.rounds.current("A")

    def matches(self) -> list[tuple[int, int, int]]:
        """(open table, home, away) of the two-team matches at the tables this round."""
        movement = self.hub.sections["A"].movement
        rows = movement.round_rows(self.round, "A")
        opens = {o for o, _ in movement.layout.matches}
        return [
            (r.table, r.ns_pair, r.ew_pair)
            for r in rows
            if r.table in opens and r.ns_pair and not movement.layout.three_way_at(r.table, r.round)
        ]

    async def play(self, results: dict[int, str]) -> None:
        """Every match of the round: ``results`` by home team, "home", "away" or "level"
        (home wins when not given)."""
        favoured = set()
        for _, home, away in self.matches():
            how = results.get(home, "home")
            favoured |= {home} if how == "home" else {away} if how == "away" else set()
        await self.favour(favoured)

    async def favour(self, teams: set[int]) -> None:
        """Every table of the round: on its first board a favoured team gains 470 points
        over an unfavoured one (NS makes 4S, +420, or goes one down, −50), every other
        board is the same in both rooms: a team favoured against the other wins its
        match (and both its matches of a three-way) by 10 IMPs; two teams both favoured,
        or neither, push."""
        movement = self.hub.sections["A"].movement
        rnd = self.round
        seen = self.hub.knockouts.rounds_seen
        for row in movement.round_rows(rnd, "A"):
            if not (row.ns_pair and row.ew_pair):
                continue
            ns_up = row.ns_pair in teams and row.ew_pair not in teams
            ew_up = row.ew_pair in teams and row.ns_pair not in teams
            for i, board in enumerate(row.boards):
                tricks = 9 if i == 0 and ew_up else 10
                assert not (ns_up and ew_up)
                verdict = await self.say(
                    tp.ResultSubmission, row.table, "A", row.table, rnd, board,
                    row.ns_pair, row.ew_pair, "4S", "N", "", tricks, 1,
                )  # fmt: skip
                assert verdict.outcome is tp.Outcome.ACCEPTED, verdict
        await wait_until(
            lambda: self.hub.knockouts.rounds_seen > seen,
            10,
            f"round {rnd}'s end to be decided by the knockout",
        )
        await asyncio.sleep(0)  # the feed's bracket, due on the next tick

    async def command(self, name: str, **args: Any) -> dict[str, Any]:
        return await self.hub.commands.dispatch(name, {"section": "A", **args}, "TD")


Scenario = Callable[[KoRoom], Awaitable[None]]


def run_ko_room(
    tmp_path: Path, text: str, *scenarios: Scenario, files: dict[str, str] | None = None
) -> None:
    """Each scenario played in a hub on one SQLite store of the event ``text`` (a new hub
    for each: the second scenario after a restart), every table seated; each hub stopped
    and the store closed after them, whatever happened. ``files``: written beside the
    event file first (a bracket file)."""

    async def main() -> None:
        for name, body in (files or {}).items():
            (tmp_path / name).write_text(body, encoding="utf-8")
        store = Store.open(f"sqlite:///{tmp_path / 'ko.db'}")
        eid = store.create_event(text, base_dir=tmp_path)
        try:
            for scenario in scenarios:
                hub = HubService(store, eid, [], clock=lambda: 1_000_000.0)
                port = RecordingPort()
                hub.ports = [port]  # type: ignore[list-item]
                await hub.start()
                try:
                    room = KoRoom(hub, port)
                    await room.seat(len(hub.sections["A"].movement.tables("A")))
                    await scenario(room)
                finally:
                    await hub.stop()
        finally:
            store.close()

    asyncio.run(main())
