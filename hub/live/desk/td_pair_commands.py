"""The director's commands on the pairs during a session (issue 13, TD trial F17): a late
pair in the sit-out's place, a pair withdrawing, a substitute player, names and member
numbers, another movement from a round on (decisions D19: earlier rounds stay as played).

Each is audited (the dispatcher records the command; the store records the players before
and after, and the movement change), and the room follows: the live round state, the
tables' assignments, the names at the tables, the standings' names, a ``pairs_changed``
feed event. ``PairCommands`` belongs to the hub's asyncio loop; store work runs in worker
threads.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from hub.api import pair_models as pm
from hub.api.server import CommandError
from hub.event.event_file import GeneratedMovement
from hub.event.late_pairs import (
    changed_table_rounds,
    results_in_the_way,
    sit_out_number,
    with_late_pair,
    without_pair,
)
from hub.event.movement.build import build_movement
from hub.event.movement.csv_format import parse_movement
from hub.event.movement.model import Movement, MovementError
from hub.event.pair_labels import PairLabels, numbering
from hub.live.desk.member_names import MemberName, named_players
from hub.live.desk.pair_news import tell_pairs_changed, tell_table
from hub.live.results.stored import Stored
from hub.live.rounds.section_rounds import Rounds
from hub.live.views import LiveViews
from hub.live.views.pairs import PairsLive
from hub.standings.rows import names_of
from hub.store.store import Store, StoreError

Args = dict[str, Any]


class PairCommands:
    """Late pairs, withdrawals, substitutes, names, movement changes; on the hub's loop.

    ``stored.movements`` is the hub's one map of section to movement (the intake and
    publication read it too): a change replaces the section's entry."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        stored: Stored,
        rounds: Rounds,
        views: LiveViews,
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.event = stored.event
        self.movements = stored.movements
        self.rounds = rounds
        self.views = views
        self.gateway, self.feed = rounds.gateway, rounds.feed
        self.member_name: MemberName | None = None  # a member number's name (the roster's)

    # -- the commands ------------------------------------------------------------------------
    def _pairs_section(self, section: str) -> None:
        """Pairs come and go in a pairs movement; a teams section's movement stays."""
        if self.movements[section].layout.matches:
            drawn = self.movements[section].layout.draw
            raise CommandError(
                f"section {section} is a teams section: its movement stays"
                + ("; a team that withdraws: withdraw_team" if drawn else "")
            )

    async def cmd_add_pair(self, args: pm.AddPair, actor: str) -> Args:
        section, first = args.section, args.from_round
        self._pairs_section(section)
        current = self._movement(section)
        pair = args.pair or sit_out_number(current, section)
        changed = self._changed(lambda: with_late_pair(current, section, first, pair))
        if await self._players(section, pair) is not None:
            raise CommandError(f"section {section} already has a pair {pair}")
        players = await self._named(args.players)
        await self._apply(section, first, changed, actor, "add_pair", pair, tell=False)
        await self._store(
            self.store.set_players,
            self.event_id,
            section,
            pair,
            players,
            action="pair_added",
            actor=actor,
            create=True,
            detail={"from_round": first},
        )
        players_now = await self._refresh_names(section)
        self._table_told(section, pair, players_now.get(pair, []))
        await self._tell(section, action="add_pair", pair=pair, from_round=first)  # named
        tables = [
            {"round": r.round, "table": r.table}
            for r in changed.rows
            if r.section == section and pair in (r.ns_pair, r.ew_pair)
        ]
        return {
            "pair": pair,
            "label": PairLabels.of(changed, section).label(pair),
            "tables": tables,
            "players": players_now.get(pair, []),
        }

    async def cmd_withdraw_pair(self, args: pm.WithdrawPair, actor: str) -> Args:
        section, first, pair = args.section, args.from_round, args.pair
        self._pairs_section(section)
        current = self._movement(section)
        changed = self._changed(lambda: without_pair(current, section, pair, first))
        await self._apply(section, first, changed, actor, "withdraw_pair", pair)
        return {"pair": pair, "from_round": first}

    async def cmd_change_movement(self, args: pm.ChangeMovement, actor: str) -> Args:
        section, first = args.section, args.from_round
        self._pairs_section(section)

        def build() -> Movement:
            if args.csv is not None:  # the file's rows, as this section's
                parsed = parse_movement(args.csv)
                return replace(parsed, rows=tuple(replace(r, section=section) for r in parsed.rows))
            assert args.movement is not None
            spec = GeneratedMovement.model_validate(args.movement.model_dump())
            return build_movement(spec, section)

        later = self._changed(build)
        changed = self._changed(lambda: self._movement(section).from_round(first, later))
        await self._apply(section, first, changed, actor, "change_movement", None)
        return {"rounds": changed.rounds, "tables": len(changed.tables(section))}

    async def cmd_substitute(self, args: pm.Substitute, actor: str) -> Args:
        section, pair = args.section, args.pair
        players = await self._players(section, pair)
        if players is None and pair not in self._movement(section).pairs(section):
            raise CommandError(f"section {section} has no pair {pair}")
        players = players or []
        while len(players) < args.seat:
            players.append({"name": ""})
        players[args.seat - 1] = {"name": args.name} | (
            {"number": args.number} if args.number else {}
        )
        detail = {"seat": args.seat, "round": self.rounds.current(section)}
        await self._names(section, pair, players, "substitute", actor, detail)
        return {"pair": pair, "players": players}

    async def cmd_edit_pair(self, args: pm.EditPair, actor: str) -> Args:
        players = await self._named(args.players)
        await self._names(args.section, args.pair, players, "pair_edited", actor, {})
        return {"pair": args.pair, "players": players}

    # -- the steps ----------------------------------------------------------------------------
    async def _named(self, given: list[pm.PlayerArg]) -> list[dict[str, Any]]:
        """The players, a member number alone named from the event or the club roster."""
        return await named_players(
            [p.model_dump(exclude_none=True) for p in given], self.member_name
        )

    def _movement(self, section: str) -> Movement:
        return self.movements[section]

    @staticmethod
    def _changed(make: Any) -> Movement:
        try:
            movement: Movement = make()
        except MovementError as e:
            raise CommandError(e.message) from None
        except ValidationError as e:  # a generated movement's sizes that do not go together
            raise CommandError(f"movement: {e.errors()[0]['msg']}") from None
        return movement

    async def _players(self, section: str, pair: int) -> list[dict[str, str]] | None:
        """The pair's players as the store has them now (numbers keyed at the tables
        included); None for a pair the section does not have."""
        rows = await asyncio.to_thread(self.store.contestants, self.event_id, section)
        found = [c for c in rows if c["kind"] == "pair" and int(c["number"]) == pair]
        return [dict(p) for p in found[0]["players"] or []] if found else None

    async def _store(self, call: Any, *args: Any, **kwargs: Any) -> None:
        try:
            await asyncio.to_thread(call, *args, **kwargs)
        except (StoreError, MovementError) as e:
            raise CommandError(str(e)) from None

    async def _apply(
        self,
        section: str,
        first: int,
        changed: Movement,
        actor: str,
        action: str,
        pair: int | None,
        tell: bool = True,
    ) -> None:
        """Store the section's movement from ``first`` on and make the room follow it.
        Refused for a round already over, or a changed table-round with a result."""
        current_round = self.rounds.current(section)
        if first < current_round:
            raise CommandError(
                f"round {first} of section {section} is over: a change can start at round "
                f"{current_round} at the earliest"
            )
        old = self._movement(section)
        touched = changed_table_rounds(old, changed, section, first)
        live = await asyncio.to_thread(self.store.live_results, self.event_id, section)
        clash = results_in_the_way(touched, ((r.table, r.round) for r in live))
        if clash is not None:
            raise CommandError(clash)
        try:
            stored = await asyncio.to_thread(
                self.store.replace_movement_from_round,
                self.event_id,
                section,
                first,
                changed,
                actor,
            )
        except (StoreError, MovementError) as e:
            raise CommandError(f"section {section} from round {first}: {e}") from None
        self.movements[section] = stored
        await self._rescore(section, stored)  # winners, labels and tops follow the movement
        for port in self.gateway.ports.values():  # the wire adapter's room numbers follow
            renumber = getattr(port, "set_numbering", None)
            if renumber is not None:
                renumber(numbering(self.movements))
        played = frozenset((r.table, r.round, r.board) for r in live)
        await self.rounds.change_movement(section, stored, played)
        if tell:
            await self._tell(section, action=action, pair=pair, from_round=first)

    async def _tell(self, section: str, **fields: Any) -> None:
        """``pairs_changed`` with the section's new directory (labels, names, numbers)."""
        movement, rnd = self._movement(section), self.rounds.current(section)
        await tell_pairs_changed(
            self.feed, self.store, self.event_id, movement, section, rnd, **fields
        )

    async def _rescore(self, section: str, movement: Movement) -> None:
        """The section's standings made again from the store under the new movement (one
        winner or two, its labels); its left-out lines still reach the director."""
        live = PairsLive(self.event, section, movement, self.views.names.get(section, {}))
        self.views.replace_section(section, live)
        lines = await asyncio.to_thread(self.store.live_lines, self.event_id, section)
        for board in sorted({line.board for line in lines}):
            live.reload_board(board, [line for line in lines if line.board == board])

    async def _names(
        self,
        section: str,
        pair: int,
        players: list[dict[str, str]],
        action: str,
        actor: str,
        detail: dict[str, Any],
    ) -> None:
        stored = await self._players(section, pair)
        if stored is None and pair not in self._movement(section).pairs(section):
            raise CommandError(f"section {section} has no pair {pair}")
        await self._store(
            self.store.set_players,
            self.event_id,
            section,
            pair,
            players,
            action=action,
            actor=actor,
            create=stored is None,  # a pair a new movement brought, not named yet
            detail=detail,
        )
        players_now = await self._refresh_names(section)
        self._table_told(section, pair, players_now.get(pair, []))
        await self._tell(section, action=action, pair=pair)

    async def _refresh_names(self, section: str) -> dict[int, list[dict[str, str]]]:
        """Names from the store to the standings; the section's players by pair."""
        rows = await asyncio.to_thread(self.store.contestants, self.event_id, section)
        self.views.set_names(section, names_of(rows))
        return {int(c["number"]): list(c["players"] or []) for c in rows}

    def _table_told(self, section: str, pair: int, players: list[dict[str, str]]) -> None:
        """The pair's players' names to the terminal of the table it plays at now."""
        rnd, movement = self.rounds.current(section), self._movement(section)
        tell_table(self.gateway, movement, rnd, section, pair, players)
