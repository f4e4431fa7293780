"""The hand record each table is shown once it has played a board (HAND_RECORD,
docs/protocol.md 0x28; issue 14): at once after the table's RESULT_VIEW when the board's
double dummy is known, else as soon as it is (issue 25 [MENDS]: a table whose board was
solved after its result never got its hand record).

``TableHands`` belongs to the hub's asyncio loop.
"""

from __future__ import annotations

from hub.event.double_dummy import DoubleDummy
from hub.live.port.gateway import TerminalGateway
from hub.live.port.port_views import HandView

Key = tuple[str, int]  # section, board


class TableHands:
    """Known hand records by (section, board), and the tables still owed one; on the hub's
    asyncio loop."""

    def __init__(self, gateway: TerminalGateway) -> None:
        self.gateway = gateway
        self.solutions: dict[Key, DoubleDummy] = {}
        self.views: dict[Key, HandView] = {}
        self.owed: dict[Key, set[int]] = {}  # tables shown the result, not yet the hands

    def played(self, section: str, board: int, table: int) -> None:
        """The table was shown its traveller of the board: its hand record now, or once
        the board's double dummy is known."""
        view = self.views.get((section, board))
        if view is not None:
            self.gateway.show_hand(section, table, view)
        else:
            self.owed.setdefault((section, board), set()).add(table)

    def known(self, section: str, dd: DoubleDummy) -> None:
        """The board's double dummy is known (the file's or solved): kept, and sent to
        every table that played the board before."""
        key = (section, dd.board)
        view = HandView.of(section, dd)
        self.solutions[key], self.views[key] = dd, view
        for table in sorted(self.owed.pop(key, ())):
            self.gateway.show_hand(section, table, view)

    def forget(self, sections: set[str]) -> None:
        """The director loaded new hand records for ``sections``: the old ones are not
        shown again (the tables owed one are owed the new one)."""
        for key in [k for k in self.views if k[0] in sections]:
            del self.views[key], self.solutions[key]
