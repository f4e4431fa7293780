"""The opponents' verification of a board (decisions D10: a board is finished when its
result is entered and verified). The hub answers a verification only when it cannot lose
it: once the board's result is stored (or held for the director), since a stored result
counts as played after a restart. A verification that comes while the result is still on
its way to the store (the writer's group commit, or a store that is down) is answered BUSY,
and the terminal sends it again after the pause: acknowledged and then forgotten by a hub
killed before the commit, it would leave the board unfinished and the section waiting for
ever (found by the fault campaign on PostgreSQL, issue 12 [FAULTS]). A verification of a
board whose last result was refused (never stored: no BUSY can end) gets a final refusal,
NAK 20 naming the refusal: the table enters the result again, then verifies (issue 25
[MENDS]: it was answered BUSY every 2 s for ever)."""

from __future__ import annotations

from collections.abc import Callable

from hub.live.oversight.alerts import Alerts
from hub.live.port import terminal_port as tp
from hub.live.rounds import round_controller as rc
from hub.live.rounds.section_rounds import Rounds

NOT_YET = "the result of board {board} is not stored yet: the verification goes again"
REFUSED = "board {board} has no result to verify: its result was refused ({why}); enter it again"


class Verifications:
    """Takes the tables' verifications; on the hub's loop."""

    def __init__(self, rounds: Rounds, alerts: Alerts, clock: Callable[[], float]) -> None:
        self.rounds = rounds
        self.alerts = alerts
        self.clock = clock
        # boards whose result is stored (answered by the writer): the answer can reach the
        # terminal, and its verification come back, before the round controller is told
        self._stored: set[tuple[str, int, int, int]] = set()
        # boards whose last result was refused, with why (until a result of it is stored)
        self._refused: dict[tuple[str, int, int, int], str] = {}

    def result_answered(self, s: tp.ResultSubmission, stored: bool, verdict: tp.Verdict) -> None:
        """The writer answered the board's result: stored, or refused (its VERIFY too)."""
        if stored:
            self.result_stored(s)
        elif verdict.outcome is tp.Outcome.REFUSED:
            self.result_refused(s, verdict)

    def result_submitted(self, s: tp.ResultSubmission) -> None:
        """A result of the board is on its way to the store: its VERIFY waits (BUSY) again."""
        self._refused.pop((s.section, s.table, s.round, s.board), None)

    def result_stored(self, s: tp.ResultSubmission) -> None:
        """The writer's commit holds a result of the board (accepted, held or a duplicate)."""
        self._stored.add((s.section, s.table, s.round, s.board))
        self._refused.pop((s.section, s.table, s.round, s.board), None)

    def result_refused(self, s: tp.ResultSubmission, verdict: tp.Verdict) -> None:
        """The board's result was refused for good (not BUSY: that one comes again)."""
        if verdict.reason is not tp.Reason.BUSY:
            self._refused[(s.section, s.table, s.round, s.board)] = verdict.text

    def result_erased(self, e: tp.EraseRequest) -> None:
        """The table erased its result of the board: the next one must be stored again."""
        self._stored.discard((e.section, e.table, e.round, e.board))

    async def take(self, m: tp.VerifyNotice) -> tp.Verdict:
        """OK once the verification is kept for good; BUSY while the board's result is not
        stored yet, a final refusal when it was refused. A rejection goes to the director."""
        if not m.agreed:
            text = (
                f"the opponents rejected the result of board {m.board} at table "
                f"{m.section}{m.table}"
            )
            self.alerts.raise_(text, section=m.section, table=m.table, round=m.round, board=m.board)
            return tp.Verdict.ok()
        state = self.rounds.sections.get(m.section)
        controller = state.controller if state is not None else None
        key = (m.section, m.table, m.round, m.board)
        stored = key in self._stored
        if (
            controller
            and controller.needs_verification
            and key in self._refused
            and not stored
            and controller.waits_for_result(m.table, m.round, m.board)
        ):  # refused, and no result since (the director's, or one on its way to the store)
            why = self._refused[key] or "see its answer"
            return tp.Verdict.refused(tp.Reason.NOT_ALLOWED, REFUSED.format(board=m.board, why=why))
        if (
            controller
            and controller.needs_verification
            and not stored
            and controller.waits_for_result(m.table, m.round, m.board)
        ):
            return tp.Verdict.refused(tp.Reason.BUSY, NOT_YET.format(board=m.board))
        await self.rounds.handle(m.section, rc.Verified(m.table, m.round, m.board, self.clock()))
        return tp.Verdict.ok()
