"""A board not played at the table (a terminal's NO PLAY): the director assigns its score.

The NO PLAY is recorded in the store (an audit entry ``no_play``, written by the result
writer in a worker thread) before the terminal is told "accepted" (decisions D11), once
per submission: the terminal's resend is not recorded twice. After a restart, every
recorded NO PLAY whose board still has no live result raises the director's alert again
(D21: nothing a terminal was told is stored is lost), so no board waits without a reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hub.live.oversight.alerts import Alerts

ACTION = "no_play"  # the audit entry that records it


@dataclass(frozen=True, slots=True)
class NoPlay:
    """A terminal's NO PLAY for one board at its table (sans-I/O value). ``submission`` is
    the terminal's submission key: a resend carries the same one."""

    serial: str
    section: str
    table: int
    round: int
    board: int
    submission: str

    @property
    def key(self) -> tuple[str, int, int, int]:
        return (self.section, self.table, self.round, self.board)

    @property
    def alert(self) -> str:
        """What the director is told: the board needs a score."""
        return (
            f"board {self.board} not played at table {self.section}{self.table} in round "
            f"{self.round}"
        )

    def detail(self) -> dict[str, Any]:
        """The audit entry's detail (the actor is ``serial``)."""
        return {
            "section": self.section,
            "table": self.table,
            "round": self.round,
            "board": self.board,
            "submission": self.submission,
        }

    @classmethod
    def from_audit(cls, actor: str, detail: Any) -> NoPlay | None:
        """A recorded NO PLAY read back; None for an entry that does not name its board in
        full (one written before NO PLAYs were recorded this way)."""
        if not isinstance(detail, dict):
            return None
        try:
            return cls(
                actor,
                str(detail["section"]),
                int(detail["table"]),
                int(detail["round"]),
                int(detail["board"]),
                str(detail["submission"]),
            )
        except (KeyError, TypeError, ValueError):
            return None


def waiting(recorded: list[NoPlay], live: set[tuple[str, int, int, int]]) -> list[NoPlay]:
    """The recorded NO PLAYs whose board still has no live result at its table and round,
    one per board (the latest), in the order their boards were first recorded."""
    return list({n.key: n for n in recorded if n.key not in live}.values())


def tell_again(alerts: Alerts, no_plays: list[NoPlay]) -> None:
    """At start: the director's alert of each NO PLAY still waiting for its score, as the
    terminal's answer raised it before the restart."""
    for n in no_plays:
        alerts.raise_(n.alert, section=n.section, table=n.table, round=n.round, board=n.board)
