"""Tables that have fallen silent (issue [LIVENESS]): a table whose terminal is online and
seated in a running round, with boards still to play, that has made no progress (no result,
no board started, nothing said but its battery reports) for longer than the event's time per
board. The
director is told once per silence, with what the table is waiting for (an alert naming it;
the Room view and the devices read show it while it lasts), and a table whose assignment
went unanswered is sent it again now, not only at its terminal's next contact, which a
terminal waiting for its assignment may never make (docs/protocol.md §3).

``SilentTables`` belongs to the hub's asyncio loop; ``run`` is a supervised task.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from drivers.clock.show import Phase
from hub.api.feed import Feed
from hub.live.oversight.alerts import Alerts
from hub.live.port.gateway import Seat, TerminalGateway
from hub.live.rounds.section_rounds import Rounds, SectionRounds

log = logging.getLogger(__name__)
CHECK_S = 5.0  # how often the room is looked at (hub clock seconds pass meanwhile)
RUNNING = (Phase.PLAY, Phase.LAST_BOARD, Phase.NO_NEW_BOARD)


@dataclass(frozen=True, slots=True)
class SilentTable:
    """A silent table: where, which round, what is left to play, since when nothing."""

    section: str
    table: int
    round: int
    serial: str
    to_play: tuple[int, ...]  # boards of the round not finished at the table
    boards: int  # boards of the round at the table
    silent_s: float  # seconds since its last progress
    assignment_lost: bool  # the hub's assignment went unanswered (sent again)

    def waiting_for(self) -> str:
        """What the table is waiting for, as the director reads it."""
        if self.assignment_lost:
            return "its assignment (the terminal never acknowledged it: sent again)"
        left = ", ".join(map(str, self.to_play))
        return f"results of boards {left} ({len(self.to_play)} of {self.boards} to play)"

    def text(self) -> str:
        minutes = self.silent_s / 60
        return (
            f"table {self.section}{self.table} silent for {minutes:.0f} min in round "
            f"{self.round}: nothing from {self.serial}; waiting for {self.waiting_for()}"
        )

    def row(self) -> dict[str, object]:
        """The devices read's and the snapshot's entry."""
        return {
            "section": self.section,
            "table": self.table,
            "round": self.round,
            "serial": self.serial,
            "silent_s": round(self.silent_s, 1),
            "to_play": list(self.to_play),
            "waiting_for": self.waiting_for(),
        }


class SilentTables:
    """Watches the room for silent tables; on the hub's loop."""

    def __init__(
        self,
        rounds: Rounds,
        gateway: TerminalGateway,
        feed: Feed,
        alerts: Alerts,
        clock: Callable[[], float],
        check_s: float = CHECK_S,
    ) -> None:
        self.rounds = rounds
        self.gateway = gateway
        self.feed = feed
        self.alerts = alerts
        self.clock = clock
        self.check_s = check_s
        self.silent: dict[tuple[str, int], SilentTable] = {}  # told, and silent still

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.check_s)
            self.check()

    def check(self) -> list[SilentTable]:
        """Resend lost assignments; tell the director of each table newly silent; forget
        the ones that moved again. The tables silent now."""
        now = self.clock()
        found: dict[tuple[str, int], SilentTable] = {}
        for seat in list(self.gateway.in_section()):
            silent = self._silent(seat, now)  # (before the resend: it says so)
            if seat.assignment_lost and seat.online:
                assign_again(self.rounds, seat)
            if silent is not None:
                found[(silent.section, silent.table)] = silent
        for key, table in found.items():
            if key not in self.silent:
                log.warning("%s", table.text())
                self.alerts.raise_(
                    table.text(), section=table.section, table=table.table, round=table.round
                )
                self._tell(key, table.waiting_for())
        for key in self.silent.keys() - found.keys():
            self._tell(key, None)  # it moved again
        self.silent = found
        return list(found.values())

    def of(self, section: str, table: int) -> SilentTable | None:
        return self.silent.get((section, table))

    def rows(self) -> list[dict[str, object]]:
        return [t.row() for t in self.silent.values()]

    def _tell(self, key: tuple[str, int], waiting_for: str | None) -> None:
        """The Room view's mark: what the table waits for, or None once it moves again."""
        self.feed.publish("table_silent", section=key[0], table=key[1], silent=waiting_for)

    def _silent(self, seat: Seat, now: float) -> SilentTable | None:
        """The seat's table, if it is silent past the event's time per board."""
        if not seat.online or seat.section is None or seat.table is None:
            return None
        state = self.rounds.sections.get(seat.section)
        if state is None or seat.section in self.rounds.final or not _running(state, now):
            return None
        rnd = state.round
        played = state.controller.table_round(seat.table, rnd)
        if played is None:  # a sit-out, or not in this round
            return None
        to_play = tuple(b for b in played.boards if b not in played.finished_at)
        start = state.clock.official_start(rnd)
        if not to_play or start is None:
            return None
        marks = (seat.progress_at, start, played.first_action_at, *played.finished_at.values())
        heard = [t for t in marks if t is not None]
        since = now - max(heard)
        if since <= state.clock.timing.minutes_per_board * 60:
            return None
        return SilentTable(
            seat.section,
            seat.table,
            rnd,
            seat.serial,
            to_play,
            len(played.boards),
            since,
            seat.assignment_lost,
        )


def assign_again(rounds: Rounds, seat: Seat) -> None:
    """Send a seat the assignment its terminal did not acknowledge (at its next contact, or
    by the watch); a failure is logged, whoever asked goes on."""
    seat.assignment_lost = False
    try:
        rounds.assign(seat)
    except Exception:
        log.exception("sending %s its assignment again", seat.serial)


def _running(state: SectionRounds, now: float) -> bool:
    """The section's round is being played: its clock runs (not paused, no break, not
    waiting for the director's start)."""
    if state.waiting:
        return False
    show = state.clock.show(now)
    return show is not None and show.phase in RUNNING and show.round == state.round
