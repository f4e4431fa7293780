"""The movement checker's rules for three-way team matches (``Layout.three_ways``; ASE
Scorer's three-way over two rounds, movements.md 5.5): each three-way's six table-rounds
seat its teams as ``ThreeWay.seats`` says, each of its matches plays the same boards in its
two rooms (a round apart, at different tables), its three sets are apart, and no table-round
holds two three-ways. Pure."""

from __future__ import annotations

from hub.event.movement.model import Movement, MovementRow, ThreeWay


def three_way_errors(movement: Movement, section: str) -> list[tuple[MovementRow | None, str]]:
    """(the row, or None when it is missing; what is wrong) for every broken rule."""
    out: list[tuple[MovementRow | None, str]] = []
    held: dict[tuple[int, int], ThreeWay] = {}
    for way in movement.layout.three_ways:
        name = f"the three-way of teams {'-'.join(map(str, way.teams))} from round {way.round}"
        if len(set(way.tables)) != 3 or len(set(way.teams)) != 3:
            out.append((None, f"{name} needs three different teams at three different tables"))
            continue
        if way.round < 1 or way.round + 1 > movement.rounds:
            out.append((None, f"{name} needs rounds {way.round} and {way.round + 1}"))
            continue
        sets: dict[int, tuple[int, ...]] = {}
        for table, rnd, ns, ew, k in way.seats():
            row = movement.row(section, table, rnd)
            if (table, rnd) in held and held[(table, rnd)] != way:
                out.append((row, f"{name} and another three-way both hold this table"))
            held[(table, rnd)] = way
            if row is None:
                out.append((None, f"{name} has no row at table {table} in round {rnd}"))
                continue
            if (row.ns_pair, row.ew_pair) != (ns, ew):
                out.append((row, f"{name} seats team {ns} NS and team {ew} EW here"))
            if not row.boards:
                out.append((row, f"{name} has no boards here"))
            if k in sets and sets[k] != row.boards:
                out.append((row, f"{name}: the two rooms of a match play different boards here"))
            sets.setdefault(k, row.boards)
        used = [b for boards in sets.values() for b in boards]
        if len(used) != len(set(used)):
            out.append((None, f"{name}: its three matches must play different boards"))
    return out
