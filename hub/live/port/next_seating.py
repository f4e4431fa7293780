"""Where the pairs of a table go next (docs/protocol.md §4 NEXT_SEATING): read from the
movement when the table has finished a round, as a Bridgemate shows it before the next
round's assignment. Pure: no state, no I/O (any thread).
"""

from __future__ import annotations

from hub.event.movement.model import Movement, MovementRow
from hub.live.port.terminal_port import NextSeatingView


def next_seating(movement: Movement, section: str, table: int, rnd: int) -> list[NextSeatingView]:
    """Where each pair at ``table`` in round ``rnd`` plays round ``rnd + 1`` (NS pair
    first). A pair with no table then gets table 0 and no boards: it sits out, or, after
    the last round, the session is over. A team that plays at two tables keeps its
    direction (its NS pair goes to the row where the team sits NS)."""
    row = movement.row(section, table, rnd)
    if row is None:
        return []
    nxt = rnd + 1
    later = movement.round_rows(nxt, section)
    out = []
    for pair, ns in ((row.ns_pair, True), (row.ew_pair, False)):
        if not pair:
            continue
        rows = [r for r in later if pair in (r.ns_pair, r.ew_pair)]
        if not rows:
            out.append(NextSeatingView(section, nxt, pair, 0, ns, 0, ()))
            continue
        to = min(rows, key=lambda r: ((r.ns_pair == pair) != ns, r.table))
        out.append(_seated(section, nxt, pair, to))
    return out


def _seated(section: str, rnd: int, pair: int, row: MovementRow) -> NextSeatingView:
    at_ns = row.ns_pair == pair
    opponents = row.ew_pair if at_ns else row.ns_pair
    return NextSeatingView(section, rnd, pair, row.table, at_ns, opponents, row.boards)
