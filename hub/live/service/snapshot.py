"""The API snapshot (decisions D1): everything a console or a result screen needs to draw
the room now. The stored parts (held results, TD calls, penalties) are read in a worker
thread; the rest is the loop's own state.

``Snapshots`` belongs to the hub's asyncio loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from hub.event.movement.model import Layout
from hub.event.pair_labels import PairLabels
from hub.live.desk.desk_lists import BoardDue, desk_lists, finished_boards
from hub.live.desk.pair_news import players_of, section_directory
from hub.live.oversight.alerts import Alerts
from hub.live.results.suspicious_scores import SuspiciousScores
from hub.live.rounds.clock_state import section_clock
from hub.live.rounds.publication import Publication
from hub.live.rounds.section_rounds import Rounds, SectionRounds
from hub.live.rounds.slow_play import minutes_off_pace
from hub.live.tables.silent_tables import SilentTables
from hub.live.teams.team_matches import round_matches
from hub.live.teams.team_tables import rankings_hidden
from hub.live.views import LiveViews
from hub.standings.rows import label_rows
from hub.store.store import Store


def waits_for_draw(state: SectionRounds) -> bool:
    """The room waits for a draw: its round is not drawn, or it is over and the next is
    not (D19); not while a round is played."""
    ctrl = state.controller
    over = ctrl.is_complete(state.round) and ctrl.waits_for_draw()
    return state.movement.layout.undrawn(state.round) or over


def draw_state(layout: Layout, waiting: bool) -> dict[str, Any] | None:
    """A section drawn while it runs (D19): its method, the rounds drawn, and whether the
    room waits for the next draw; None for a fixed movement."""
    if not layout.draw:
        return None
    return {"method": layout.draw, "drawn": layout.drawn, "waiting": waiting}


class Snapshots:
    """Builds the API snapshot on the hub's loop; the stored parts are read in a worker
    thread."""

    def __init__(
        self,
        store: Store,
        event_id: int,
        event_name: str,
        rounds: Rounds,
        views: LiveViews,
        publication: Publication,
        suspicious: SuspiciousScores,
        alerts: Alerts,
        clock: Callable[[], float],
        silent: SilentTables | None = None,
    ) -> None:
        self.store = store
        self.event_id = event_id
        self.event_name = event_name
        self.rounds = rounds
        self.views = views
        self.publication = publication
        self.suspicious = suspicious
        self.alerts = alerts
        self.clock = clock
        self.silent = silent
        # a knockout section's bracket (``Knockouts.shown``), once the knockouts are built
        self.knockout: Callable[[str], dict[str, Any] | None] | None = None

    async def build(self) -> dict[str, Any]:
        due = finished_boards(self.rounds)  # the boards of rounds that are over
        (held, not_played), calls, penalties = await asyncio.to_thread(self._stored, due)
        players = await asyncio.to_thread(self.store.contestants, self.event_id)  # numbers too
        return {
            "event": self.event_name,
            "sections": {letter: self.section(letter, players) for letter in self.rounds.sections},
            "held": held,
            "not_played": not_played,
            "suspicious": [f.as_dict() for f in self.suspicious.all_flags()],
            "withheld": dict(self.publication.withheld),
            "td_calls": calls,
            "alerts": self.alerts.recent(),
            "penalties": penalties,
        }

    def _stored(self, due: list[BoardDue]) -> tuple[Any, list[dict[str, Any]], Any]:
        movements = {letter: s.movement for letter, s in self.rounds.sections.items()}
        desk = desk_lists(self.store, self.event_id, movements, due)
        return desk, self.store.td_calls(self.event_id), self.store.penalties(self.event_id)

    def section(
        self, letter: str, contestants: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        now = self.clock()
        state = self.rounds.sections[letter]
        behind = self.behind(letter, now)
        tables = [
            {**t, "minutes_behind": behind.get(t["table"], 0.0), "silent": self._silent(letter, t)}
            for t in self.rounds.tables(letter)
        ]
        labels = PairLabels.of(state.movement, letter)  # the room's numbers (NS 3, EW 3)
        return {
            "round": state.round,
            "rounds": state.movement.rounds,
            "predicted_finish": state.clock.predicted_finish(now, state.movement.rounds),
            **section_clock(self.rounds, letter, now),  # clock, between_rounds, final
            "tables": tables,
            "standings": label_rows(self.views.rows(letter), labels),
            "pairs": section_directory(  # one label per pair, with the member numbers (G8)
                labels, self.views.names.get(letter, {}), players_of(contestants or [], letter)
            ),
            "unit": self.views.unit(letter),
            "kind": "teams" if self.views.unit(letter) == "VP" else "pairs",
            "published": self.publication.snapshot(letter),
            # a teams section's matches of the round ([] at pairs): the console's Matches tab
            "matches": round_matches(
                self.views.sections.get(letter), state.movement, letter, state.round
            ),
            "matches_hidden": rankings_hidden(self.publication.event, state.movement, state.round),
            "draw": draw_state(state.movement.layout, waits_for_draw(state)),
            "knockout": self.knockout(letter) if self.knockout is not None else None,
        }

    def _silent(self, letter: str, t: dict[str, Any]) -> str | None:
        """What a silent table waits for ([LIVENESS]); None while it makes progress."""
        found = self.silent.of(letter, t["table"]) if self.silent is not None else None
        return found.waiting_for() if found is not None else None

    def behind(self, letter: str, now: float) -> dict[int, float]:
        """Minutes behind (+) or ahead (−) of an even pace of each table in the current
        round (tenths)."""
        state = self.rounds.sections[letter]
        per_board = state.clock.timing.minutes_per_board * 60
        start = state.clock.official_start(state.round) or now
        room = state.clock.room_time(state.round)  # F20: the clock the room sees
        out = {}
        for row in state.movement.round_rows(state.round, letter):
            tr = state.controller.table_round(row.table, state.round)
            out[row.table] = (
                0.0 if tr is None else round(minutes_off_pace(tr, start, per_board, now, room), 1)
            )
        return out
