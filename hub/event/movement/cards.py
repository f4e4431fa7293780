"""Guide cards: for each pair, round by round, where to sit, whom to meet, which boards."""

from __future__ import annotations

from hub.event.movement.model import Movement


def _boards(boards: tuple[int, ...]) -> str:
    if not boards:
        return "-"
    if list(boards) == list(range(boards[0], boards[-1] + 1)):
        return f"{boards[0]}-{boards[-1]}" if len(boards) > 1 else str(boards[0])
    return ",".join(map(str, boards))


def pair_card(movement: Movement, section: str, pair: int) -> str:
    """One pair's guide card as text."""
    lines = [f"Section {section}, pair {pair}", "  round  table  sits  against  boards"]
    for rnd in range(1, movement.rounds + 1):
        row = next((r for r in movement.round_rows(rnd, section) if pair in r.pairs()), None)
        if row is None:
            lines.append(f"  {rnd:>5}  sit out")
            continue
        ns = row.ns_pair == pair
        opp = row.ew_pair if ns else row.ns_pair
        if not opp:
            lines.append(f"  {rnd:>5}  {row.table:>5}  sit out (no opponents this round)")
            continue
        lines.append(
            f"  {rnd:>5}  {row.table:>5}  {'NS' if ns else 'EW':>4}  {opp:>7}  "
            f"{_boards(row.boards)}"
        )
    return "\n".join(lines)


def guide_cards(movement: Movement, pair: int | None = None) -> str:
    cards = [
        pair_card(movement, s, p)
        for s in movement.sections
        for p in movement.pairs(s)
        if pair in (None, p)
    ]
    return "\n\n".join(cards)


def grid(movement: Movement) -> str:
    """The movement as a round × table grid of ``NS-EW boards``."""
    out = []
    for s in movement.sections:
        tables = movement.tables(s)
        out.append(f"Section {s}: {movement.layout.description}")
        out.append("round " + "".join(f"{'table ' + str(t):>14}" for t in tables))
        for rnd in range(1, movement.rounds + 1):
            cells = []
            for t in tables:
                r = movement.row(s, t, rnd)
                cells.append("" if r is None else f"{r.ns_pair}-{r.ew_pair} {_boards(r.boards)}")
            out.append(f"{rnd:>5} " + "".join(f"{c:>14}" for c in cells))
    return "\n".join(out)
