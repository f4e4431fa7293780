"""The opponents' verification of a board (decisions D10: a board is finished when its
result is entered and verified). The hub answers a verification only when it cannot lose
it: once the board's result is stored (or held for the director), since a stored result
counts as played after a restart. A verification that comes while the result is still on
its way to the store (the writer's group commit, or a store that is down) is answered BUSY,
and the terminal sends it again after the pause: acknowledged and then forgotten by a hub
killed before the commit, it would leave the board unfinished and the section waiting for
ever (found by the fault campaign on PostgreSQL, issue 12 [FAULTS])."""

from __future__ import annotations

from collections.abc import Callable

from hub.live import round_controller as rc
from hub.live import terminal_port as tp
from hub.live.alerts import Alerts
from hub.live.rounds import Rounds

NOT_YET = "the result of board {board} is not stored yet: the verification goes again"


class Verifications:
    """Takes the tables' verifications; on the hub's loop."""

    def __init__(self, rounds: Rounds, alerts: Alerts, clock: Callable[[], float]) -> None:
        self.rounds = rounds
        self.alerts = alerts
        self.clock = clock
        # boards whose result is stored (answered by the writer): the answer can reach the
        # terminal, and its verification come back, before the round controller is told
        self._stored: set[tuple[str, int, int, int]] = set()

    def result_stored(self, s: tp.ResultSubmission) -> None:
        """The writer's commit holds a result of the board (accepted, held or a duplicate)."""
        self._stored.add((s.section, s.table, s.round, s.board))

    def result_erased(self, e: tp.EraseRequest) -> None:
        """The table erased its result of the board: the next one must be stored again."""
        self._stored.discard((e.section, e.table, e.round, e.board))

    async def take(self, m: tp.VerifyNotice) -> tp.Verdict:
        """OK once the verification is kept for good; BUSY while the board's result is not
        stored yet. A rejection goes to the director."""
        if not m.agreed:
            text = (
                f"the opponents rejected the result of board {m.board} at table "
                f"{m.section}{m.table}"
            )
            self.alerts.raise_(text, section=m.section, table=m.table, round=m.round, board=m.board)
            return tp.Verdict.ok()
        state = self.rounds.sections.get(m.section)
        controller = state.controller if state is not None else None
        stored = (m.section, m.table, m.round, m.board) in self._stored
        if (
            controller
            and controller.needs_verification
            and not stored
            and controller.waits_for_result(m.table, m.round, m.board)
        ):
            return tp.Verdict.refused(tp.Reason.BUSY, NOT_YET.format(board=m.board))
        await self.rounds.handle(m.section, rc.Verified(m.table, m.round, m.board, self.clock()))
        return tp.Verdict.ok()
