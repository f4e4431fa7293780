"""Team movements: each match uses two tables (open room: home NS; closed room: home EW)
playing the same boards; round robins by Berger tables; any draw (Swiss, Danish, KO) feeds
``team_round``."""

from __future__ import annotations

from collections.abc import Sequence

from hub.event.movement.model import Layout, Movement, MovementError, MovementKind, MovementRow


def berger_rounds(teams: int) -> list[list[tuple[int, int]]]:
    """Berger tables: (home, away) per round for an even number of teams.

    In round r team n meets p = ((r−1)·n/2 mod (n−1)) + 1 (at home in even rounds); the
    others pair as p+k (home) against p−k (mod n−1)."""
    n = teams
    out = []
    for r in range(1, n):
        p = ((r - 1) * n // 2) % (n - 1) + 1
        meet = [(n, p) if r % 2 == 0 else (p, n)]
        for k in range(1, n // 2):
            home = (p - 1 + k) % (n - 1) + 1
            away = (p - 1 - k) % (n - 1) + 1
            meet.append((home, away))
        out.append(meet)
    return out


def team_round(
    section: str,
    rnd: int,
    matches: Sequence[tuple[int, int]],
    boards: tuple[int, ...],
    first_table: int = 1,
    tables: Sequence[tuple[int, int]] = (),
) -> list[MovementRow]:
    """Rows of one team round: match m at tables 2m−1 (open) and 2m (closed), or at the
    m-th (open, closed) pair of ``tables`` when given (a draw around a three-way)."""
    rows = []
    for m, (home, away) in enumerate(matches):
        t, closed = tables[m] if tables else (first_table + 2 * m, first_table + 2 * m + 1)
        rows.append(MovementRow(section, t, rnd, home, away, boards))
        rows.append(MovementRow(section, closed, rnd, away, home, boards))
    return rows


def round_robin(
    teams: int,
    boards_per_round: int,
    *,
    double: bool = False,
    section: str = "A",
    segments: int = 1,
) -> Movement:
    """A complete round robin (a bye for an odd number of teams; its tables stay empty).

    All matches of a round play the same boards (duplicated sets), as seed 004 does. With
    ``segments`` S > 1 each match is S movement rounds of ``boards_per_round`` new boards
    each (seed 004: 24 boards in two halves of 12): match k is rounds (k−1)·S+1 … k·S at
    the same tables, and the seating switches between segments (seed 004 "halvtidsbyte"):
    in every second segment the away team sits NS in the open room and the home team NS
    in the closed room."""
    if teams < 2:
        raise MovementError("a round robin needs at least 2 teams", None, "size")
    if boards_per_round < 1:
        raise MovementError("boards per round must be at least 1", None, "size")
    if segments < 1:
        raise MovementError("a match needs at least 1 segment", None, "size")
    even = teams + teams % 2
    cycle = berger_rounds(even)
    schedule = cycle + ([[(a, h) for h, a in rnd] for rnd in cycle] if double else [])
    matches_per_round = even // 2
    rows: list[MovementRow] = []
    for k, meet in enumerate(schedule):
        ordered = sorted(meet, key=lambda m: min(m))
        real = [(h, a) if max(h, a) <= teams else (0, 0) for h, a in ordered]
        for s in range(segments):
            r = k * segments + s + 1
            boards = tuple(range((r - 1) * boards_per_round + 1, r * boards_per_round + 1))
            seated = real if s % 2 == 0 else [(a, h) for h, a in real]
            for row in team_round(section, r, seated, boards):
                empty = not (row.ns_pair or row.ew_pair)
                rows.append(MovementRow(section, row.table, r, 0, 0, ()) if empty else row)
    layout = Layout(
        kind=MovementKind.TEAMS,
        winners=1,
        copies=matches_per_round,
        matches=tuple((2 * m + 1, 2 * m + 2) for m in range(matches_per_round)),
        description=f"{'double ' if double else ''}round robin, {teams} teams, "
        f"{len(schedule)} rounds x {boards_per_round} boards"
        + (f" x {segments} segments" if segments > 1 else ""),
        segments=segments,
    )
    return Movement(tuple(rows), layout)
