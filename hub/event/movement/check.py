"""The movement checker: hard rules that make a movement unplayable, and a balance report.

Hard rules (decisions D3): nobody seated twice in a round; nobody plays a board twice; a
board set in one place per round unless the layout declares it shared (shares, team
matches, barometer copies); in a barometer every table of a round plays the same boards;
every table has a row for every round (Bridgemate RoundData); a team match of several
segments keeps its two teams at its tables in every segment; a three-way team match seats
its teams and boards as its layout says (``check_three_way``). Balance: meetings, boards
per pair, sit-outs, NS/EW counts, and Manning's amount of competition.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import numpy as np

from hub.event.movement.check_three_way import three_way_errors
from hub.event.movement.model import Movement, MovementError, MovementKind, MovementRow
from hub.event.problems import number_ranges


@dataclass
class Balance:
    """Figures per section; ``competition`` is (mean, sd, min, max) over pairs of pairs."""

    pairs: int = 0
    rounds: int = 0
    boards_in_play: int = 0
    boards_per_pair: tuple[int, int] = (0, 0)
    share_of_boards: float = 0.0
    meetings: dict[int, int] = field(default_factory=dict)
    sit_outs: tuple[int, int] = (0, 0)
    ns_counts: tuple[int, int] = (0, 0)
    competition: tuple[float, float, float, float] | None = None
    entrants: str = "pairs"
    missing_rounds: tuple[int, ...] = ()
    field_competition: tuple[float, float, float, float] | None = None


@dataclass
class CheckReport:
    errors: list[MovementError]
    balance: dict[str, Balance]
    copies: int = 1

    @property
    def ok(self) -> bool:
        return not self.errors


def _row_numbers(movement: Movement) -> dict[int, int]:
    """Data-row number (1-based, in file order) of each row, for messages."""
    return {id(r): i for i, r in enumerate(movement.rows, start=1)}


def _locations(
    movement: Movement, section: str, rows: list[MovementRow], rnd: int
) -> dict[int, int]:
    """Table → location id: shared tables and the two tables of a team match are one (a
    three-way's tables in round ``rnd`` are each their own: its boards move between them)."""
    lay = movement.layout
    parent = {r.table: r.table for r in rows}

    def find(t: int) -> int:
        while parent[t] != t:
            t = parent[t]
        return t

    pairs = [m for m in lay.matches if not any(lay.three_way_at(t, rnd) for t in m)]
    for group in (*lay.shares, *pairs):
        present = [t for t in group if t in parent]
        for t in present[1:]:
            parent[find(t)] = find(present[0])
    return {t: find(t) for t in parent}


def hard_errors(movement: Movement) -> list[MovementError]:
    lay = movement.layout
    number = _row_numbers(movement)
    errors: list[MovementError] = []

    def err(row: MovementRow, rule: str, text: str) -> None:
        n = number[id(row)]
        errors.append(
            MovementError(
                f"row {n} (section {row.section}, table {row.table}, round {row.round}): {text}",
                n,
                rule,
            )
        )

    teams = lay.kind is MovementKind.TEAMS
    for section in movement.sections:
        srows = [r for r in movement.rows if r.section == section]
        tables = sorted({r.table for r in srows})
        rounds = sorted({r.round for r in srows})
        have = {(r.table, r.round) for r in srows}
        for rnd in range(1, max(rounds) + 1):  # one report per round, naming its tables
            missing = [t for t in tables if (t, rnd) not in have]
            if not missing:
                continue
            what = (
                f"round {rnd} is missing (no table has a row for it)"
                if rnd not in rounds
                else f"table {missing[0]} has no row for round {rnd}"
                if len(missing) == 1
                else f"tables {number_ranges(missing)} have no row for round {rnd}"
            )
            errors.append(
                MovementError(
                    f"section {section}: {what} (every table needs a row in every round; "
                    "use 0 for empty seats)",
                    None,
                    "every-round",
                )
            )
        played: dict[tuple[int, str], dict[int, MovementRow]] = defaultdict(dict)
        for rnd in rounds:
            rrows = [r for r in srows if r.round == rnd]
            seats: dict[tuple[int, str], MovementRow] = {}
            for r in rrows:
                if r.ns_pair and r.ns_pair == r.ew_pair:
                    err(r, "seated-once", f"pair {r.ns_pair} cannot sit both NS and EW")
                    continue
                for pair, side in ((r.ns_pair, "NS"), (r.ew_pair, "EW")):
                    if not pair:
                        continue
                    key = (pair, side if teams else "")
                    if key in seats:
                        first = seats[key]
                        who = f"team {pair} ({side})" if teams else f"pair {pair}"
                        err(
                            r,
                            "seated-once",
                            f"{who} is already seated at table {first.table} in this round",
                        )
                    else:
                        seats[key] = r
                    for b in r.boards if r.ns_pair and r.ew_pair else ():
                        if b in played[key]:
                            prev = played[key][b]
                            who = f"team {pair} ({side})" if teams else f"pair {pair}"
                            err(
                                r,
                                "board-once",
                                f"{who} already played board {b} "
                                f"(table {prev.table}, round {prev.round})",
                            )
                        else:
                            played[key][b] = r
            if teams:
                for r in rrows:
                    if lay.three_way_at(r.table, rnd):
                        continue  # a three-way's rooms are a round apart (check_three_way)
                    for pair, side in ((r.ns_pair, "NS"), (r.ew_pair, "EW")):
                        other = seats.get((pair, "EW" if side == "NS" else "NS"))
                        if pair and other is not None and other.boards != r.boards:
                            err(
                                r,
                                "team-match",
                                f"team {pair} plays different boards at "
                                f"tables {r.table} and {other.table}",
                            )
            if lay.undrawn(rnd):
                continue  # its rows hold tables and boards only until the draw (D19)
            location = _locations(movement, section, rrows, rnd)
            if lay.kind is MovementKind.BAROMETER:
                sets = {r.boards for r in rrows if r.ns_pair and r.ew_pair}
                if len(sets) > 1:
                    r = next(r for r in rrows if r.boards != rrows[0].boards and r.ns_pair)
                    err(r, "barometer", "in a barometer every table plays the round's boards")
                continue
            where: dict[int, set[int]] = defaultdict(set)
            for r in rrows:
                for b in r.boards:
                    where[b].add(location[r.table])
            crowded: dict[int, list[int]] = defaultdict(list)
            for b, locs in sorted(where.items()):
                if len(locs) > lay.copies:
                    crowded[max(locs)].append(b)
            for loc, boards in crowded.items():
                r = next(x for x in rrows if location[x.table] == loc and boards[0] in x.boards)
                tabs = sorted(x.table for x in rrows if boards[0] in x.boards)
                err(
                    r,
                    "one-place",
                    f"board(s) {', '.join(map(str, boards))} are at tables "
                    f"{', '.join(map(str, tabs))} in one round without a declared share",
                )
        if teams and lay.segments > 1:
            for row, text in _segment_breaks(movement, section):
                err(row, "segments", text)
        for bad_row, text in three_way_errors(movement, section) if teams else ():
            if bad_row is not None:
                err(bad_row, "three-way", text)
            else:
                errors.append(MovementError(f"section {section}: {text}", None, "three-way"))
    return errors


def _segment_breaks(movement: Movement, section: str) -> list[tuple[MovementRow, str]]:
    """Rows where a match of ``segments`` S (rounds (k−1)·S+1 … k·S at one pair of tables)
    seats other teams than its first segment did."""
    s = movement.layout.segments
    out = []
    for open_t, closed_t in movement.layout.matches:
        first: dict[int, MovementRow] = {}
        for rnd in range(1, movement.rounds + 1):
            row = movement.row(section, open_t, rnd)
            if row is None or not (row.ns_pair and row.ew_pair):
                continue
            if movement.layout.three_way_at(open_t, rnd):
                continue
            k = (rnd - 1) // s + 1
            seen = first.setdefault(k, row)
            if {row.ns_pair, row.ew_pair} != {seen.ns_pair, seen.ew_pair}:
                out.append(
                    (
                        row,
                        f"tables {open_t} and {closed_t} play match {k} over rounds "
                        f"{(k - 1) * s + 1}-{k * s} (segments = {s}): teams {seen.ns_pair} "
                        f"and {seen.ew_pair} in round {seen.round}, "
                        f"{row.ns_pair} and {row.ew_pair} here",
                    )
                )
    return out


def competition(movement: Movement, section: str) -> np.ndarray:
    """Manning's amount of competition for every pair of pairs (matrix by pair index)."""
    pairs = movement.pairs(section)
    index = {p: i for i, p in enumerate(pairs)}
    total = np.zeros((len(pairs), len(pairs)))
    by_board: dict[int, list[MovementRow]] = defaultdict(list)
    for r in movement.rows:
        if r.section == section and r.ns_pair and r.ew_pair:
            for b in r.boards:
                by_board[b].append(r)
    for plays in by_board.values():
        t = len(plays)
        d = np.zeros(len(pairs))
        ns = np.array([index[r.ns_pair] for r in plays])
        ew = np.array([index[r.ew_pair] for r in plays])
        d[ns], d[ew] = 1.0, -1.0
        total += np.outer(d, d)
        total[ns, ew] += t
        total[ew, ns] += t
    return total


def _figures(vals: np.ndarray) -> tuple[float, float, float, float] | None:
    """(mean, sd, min, max) of ``vals``; None when there are none."""
    if not vals.size:
        return None
    return (float(vals.mean()), float(vals.std()), float(vals.min()), float(vals.max()))


def _within_fields(
    m: np.ndarray, pairs: list[int], ns: Counter[int], seated: dict[int, set[int]]
) -> np.ndarray:
    """A two-winner movement's competition between pairs of the same field only (a pair's
    field: the direction it sits in most rounds). NS and EW pairs are ranked apart, so
    their (negative) competition with each other means nothing to the TD (F22)."""
    field = [ns[p] * 2 >= len(seated[p]) for p in pairs]
    i, j = np.triu_indices(len(pairs), 1)
    same = np.array([field[a] == field[b] for a, b in zip(i, j, strict=True)], dtype=bool)
    return m[i, j][same] if same.size else np.zeros(0)


def balance(movement: Movement, section: str) -> Balance:
    srows = [r for r in movement.rows if r.section == section]
    pairs = movement.pairs(section)
    rounds = max((r.round for r in srows), default=0)
    boards_in_play = len({b for r in srows for b in r.boards})
    played: dict[int, set[int]] = defaultdict(set)  # distinct boards (teams play each twice)
    ns: Counter[int] = Counter()
    seated: dict[int, set[int]] = defaultdict(set)  # rounds in which the pair plays
    meet: dict[frozenset[int], set[int]] = defaultdict(set)
    for r in srows:
        if r.ns_pair and r.ew_pair:
            for p in (r.ns_pair, r.ew_pair):
                seated[p].add(r.round)
                played[p].update(r.boards)
            ns[r.ns_pair] += 1
            meet[frozenset((r.ns_pair, r.ew_pair))].add(r.round)
    bp = [len(played[p]) for p in pairs] or [0]
    hist: Counter[int] = Counter()
    for i, a in enumerate(pairs):
        for b in pairs[i + 1 :]:
            hist[len(meet[frozenset((a, b))])] += 1
    present = len({r.round for r in srows})  # a missing round is no one's sit-out (F22)
    sit = [present - len(seated[p]) for p in pairs] or [0]
    nsc = [ns[p] for p in pairs] or [0]
    comp = in_field = None
    if movement.layout.kind is not MovementKind.TEAMS and len(pairs) > 1:
        m = competition(movement, section)
        comp = _figures(m[np.triu_indices(len(pairs), 1)])
        if movement.layout.winners == 2:
            in_field = _figures(_within_fields(m, pairs, ns, seated))
    return Balance(
        pairs=len(pairs),
        rounds=rounds,
        boards_in_play=boards_in_play,
        boards_per_pair=(min(bp), max(bp)),
        share_of_boards=min(bp) / boards_in_play if boards_in_play else 0.0,
        meetings=dict(sorted(hist.items())),
        sit_outs=(min(sit), max(sit)),
        ns_counts=(min(nsc), max(nsc)),
        competition=comp,
        field_competition=in_field,
        entrants="teams" if movement.layout.kind is MovementKind.TEAMS else "pairs",
        missing_rounds=tuple(sorted(set(range(1, rounds + 1)) - {r.round for r in srows})),
    )


def check_movement(movement: Movement) -> CheckReport:
    errors = hard_errors(movement)
    return CheckReport(
        errors, {s: balance(movement, s) for s in movement.sections}, movement.layout.copies
    )


def format_report(report: CheckReport) -> str:
    lines = []
    if report.copies > 1:
        lines.append(f"board copies needed: {report.copies} of each board")
    for section, b in report.balance.items():
        unit = b.entrants[:-1]
        missing = f" (round {number_ranges(b.missing_rounds)} missing)" if b.missing_rounds else ""
        lines.append(
            f"section {section}: {b.pairs} {b.entrants}, {b.rounds} rounds{missing}, "
            f"{b.boards_in_play} boards in play"
        )
        lines.append(
            f"  boards per {unit} {b.boards_per_pair[0]}-{b.boards_per_pair[1]} "
            f"({math.floor(b.share_of_boards * 100)} % of the boards in play at least"
            "; EBU asks 70 %)"
        )
        meet = ", ".join(f"{k}×: {v}" for k, v in b.meetings.items())
        lines.append(f"  meetings per two {b.entrants}: {meet}")
        lines.append(
            f"  sit-out rounds per {unit} {b.sit_outs[0]}-{b.sit_outs[1]}"
            + ("" if unit == "team" else f"; rounds as NS {b.ns_counts[0]}-{b.ns_counts[1]}")
        )
        if b.field_competition:  # two winners: each field is ranked on its own
            mean, sd, lo, hi = b.field_competition
            lines.append(
                f"  competition within each field (Manning): mean {mean:.2f}, sd {sd:.2f}, "
                f"range {lo:g}..{hi:g}"
            )
        elif b.competition:
            mean, sd, lo, hi = b.competition
            lines.append(
                f"  competition (Manning): mean {mean:.2f}, sd {sd:.2f}, range {lo:g}..{hi:g}"
            )
    lines.extend(f"ERROR [{e.rule}] {e.message}" for e in report.errors)
    lines.append(
        "OK: no hard-rule violations"
        if report.ok
        else f"{len(report.errors)} hard-rule violation(s)"
    )
    return "\n".join(lines)
