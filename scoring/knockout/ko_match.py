"""A knockout match (issue [KNOCKOUT]): IMPs over all its segments plus the carry-over, never
converted to VPs (seed 003 §12.3), and the event's tie rule applied as soon as the last
board is in; the carry-over rules; seed 000's three-way matches.

Segments 1…``regular_segments`` are the match. When they end level the tie rules are
walked in the event's order: ``total_points``, ``boards_won``, ``lot`` and
``higher_placed`` decide at once when they can; ``extra_set`` and ``sudden_death`` mean
"play more": each later segment is one extension (an extra set of 4 boards, seed 003
§12.5; a sudden-death match of 1 board, seed 001's final, or 2 boards, seed 000's final),
repeated until a winner emerges. Our reading: an extension is decided by the match's IMPs
alone (the regular part was level, so these are the extension's own IMPs); the rules before
it in the chain (seed 000: total points, boards won) are not applied to the extension
again. No rule can follow a "play more" rule, a lot or ``higher_placed``: they always
decide, so the chain ends there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from scoring.errors import ScoringInputError
from scoring.lot import draw_lots
from scoring.team_match import MatchResult, TeamBoard, score_match
from scoring.vp_scale import VPScale


class TieRule(Enum):
    """An event's tie rule, one step of its chain (the CLI's ``--tie`` words)."""

    EXTRA_SET = "extra_set"
    SUDDEN_DEATH = "sudden_death"
    TOTAL_POINTS = "total_points"
    BOARDS_WON = "boards_won"  # a 10-point difference wins a board (seed 000)
    LOT = "lot"
    HIGHER_PLACED = "higher_placed"  # placed higher in the qualifier (seed 002)


PLAY_MORE = (TieRule.EXTRA_SET, TieRule.SUDDEN_DEATH)
ALWAYS_DECIDES = (*PLAY_MORE, TieRule.LOT, TieRule.HIGHER_PLACED)  # nothing after them


class Side(Enum):
    HOME = "home"  # NS in the open room
    AWAY = "away"

    @property
    def other(self) -> Side:
        return Side.AWAY if self is Side.HOME else Side.HOME


class Decider(Enum):
    """What decided the match."""

    IMPS = "imps"
    TOTAL_POINTS = "total_points"
    BOARDS_WON = "boards_won"
    LOT = "lot"
    HIGHER_PLACED = "higher_placed"
    EXTRA_SET = "extra_set"
    SUDDEN_DEATH = "sudden_death"
    WALK_OVER = "walk_over"


class Next(Enum):
    """What must be played now: the match is level after its last complete segment."""

    EXTRA_SET = "extra_set"
    SUDDEN_DEATH = "sudden_death"


class SegmentError(ScoringInputError):
    """A problem of one segment of the match (a reader can point at its first board)."""

    def __init__(self, segment: int, message: str) -> None:
        super().__init__("segment", message)
        self.segment = segment


@dataclass(frozen=True, slots=True)
class KoBoard:
    """One board of a segment: the NS scores in the open and the closed room."""

    segment: int
    board: int
    open_ns: int
    closed_ns: int

    def __post_init__(self) -> None:
        for name in ("segment", "board"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ScoringInputError(name, f"{name} {value!r} must be a whole number ≥ 1")
        for name in ("open_ns", "closed_ns"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value % 10:
                raise ScoringInputError(
                    name, f"{name} {value!r} must be a score: a whole multiple of 10"
                )


@dataclass(frozen=True, slots=True)
class KoSegment:
    """One segment's IMPs (carry-over not included); ``boards`` played in it."""

    segment: int
    home_imps: Fraction
    away_imps: Fraction
    boards: int


@dataclass(frozen=True, slots=True)
class KoOutcome:
    """A match's result so far. ``home``/``away``: IMPs over every board played plus the
    carry-over. ``winner`` None: not decided yet; then ``next`` says what must be played
    now, or ``under_way`` that a segment is not complete; neither: level with the event's
    rule exhausted (the TD decides). The tie-break figures (net total points and boards
    won, each side) are over the regular segments; ``lot_seed`` is the seed a lot used."""

    segments: tuple[KoSegment, ...]
    home: Fraction
    away: Fraction
    winner: Side | None
    decided_by: Decider | None
    next: Next | None
    under_way: bool
    home_points: int
    away_points: int
    home_boards_won: int
    away_boards_won: int
    lot_seed: int | None = None


def check_chain(tie: Sequence[TieRule]) -> None:
    for k, rule in enumerate(tie):
        if rule in tie[:k]:
            raise ScoringInputError("tie", f"tie rule {rule.value} is named twice")
        if rule in ALWAYS_DECIDES and k != len(tie) - 1:
            raise ScoringInputError(
                "tie", f"{rule.value} always decides: it must be the last tie rule"
            )


def _score(boards: Sequence[KoBoard]) -> MatchResult:
    return score_match([TeamBoard(b.board, b.open_ns, b.closed_ns) for b in boards])


def decide(
    boards: Sequence[KoBoard],
    *,
    regular_segments: int,
    home_carry_over: Fraction | int = 0,
    away_carry_over: Fraction | int = 0,
    tie: Sequence[TieRule] = (),
    lot_seed: int | None = None,
    higher: Side | None = None,
    walk_over: Side | None = None,
    boards_per_segment: int | None = None,
    extra_set_boards: int = 4,
    sudden_death_boards: int = 1,
) -> KoOutcome:
    """The match's outcome from the boards played so far.

    ``walk_over``: the side that did not come (seed 003 §15): the other side wins, no
    boards needed. ``boards_per_segment`` None: a regular segment is complete once it has
    a board. ``higher_placed`` needs ``higher``; ``lot`` needs ``lot_seed`` when it is drawn.
    """
    tie = tuple(tie)
    check_chain(tie)
    if regular_segments < 1:
        raise ScoringInputError("regular_segments", "a match has at least 1 segment")
    if sudden_death_boards not in (1, 2):
        raise ScoringInputError("sudden_death_boards", "sudden death is of 1 or 2 boards")
    hco, aco = Fraction(home_carry_over), Fraction(away_carry_over)
    if hco < 0 or aco < 0:
        raise ScoringInputError("carry_over", "a carry-over is IMPs given to a side: ≥ 0")
    if TieRule.HIGHER_PLACED in tie and higher is None:
        raise ScoringInputError("higher", "higher_placed needs the higher-placed side")
    seen: set[tuple[int, int]] = set()
    by_segment: dict[int, list[KoBoard]] = {}
    for b in boards:
        if (b.segment, b.board) in seen:
            raise SegmentError(b.segment, f"segment {b.segment}: board {b.board} twice")
        seen.add((b.segment, b.board))
        by_segment.setdefault(b.segment, []).append(b)
    results = {s: _score(bs) for s, bs in sorted(by_segment.items())}
    segments = tuple(
        KoSegment(s, r.home_imps, r.away_imps, r.boards_scored) for s, r in results.items()
    )
    regular = _score([b for b in boards if b.segment <= regular_segments])
    home = hco + sum((s.home_imps for s in segments), Fraction(0))
    away = aco + sum((s.away_imps for s in segments), Fraction(0))

    def outcome(
        winner: Side | None, by: Decider | None, nxt: Next | None = None, busy: bool = False
    ) -> KoOutcome:
        return KoOutcome(
            segments, home, away, winner, by, nxt, busy,
            regular.home_points, regular.away_points,
            regular.home_boards_won, regular.away_boards_won,
            lot_seed if by is Decider.LOT else None,
        )  # fmt: skip

    if walk_over is not None:
        return outcome(walk_over.other, Decider.WALK_OVER)
    play_more = next((r for r in tie if r in PLAY_MORE), None)
    later = [s for s in results if s > regular_segments]
    if later and play_more is None:
        raise SegmentError(
            later[0],
            f"segment {later[0]} is beyond the match's {regular_segments} segment(s) and "
            "the tie rule plays no extra set or sudden death",
        )
    size = boards_per_segment
    for s in range(1, regular_segments + 1):
        played = len(by_segment.get(s, ()))
        if played == 0 or (size is not None and played < size):
            return _no_later(outcome(None, None, busy=True), later, s)
    margin = (regular.home_imps + hco) - (regular.away_imps + aco)
    if margin:
        return _no_later(outcome(_ahead(margin), Decider.IMPS), later, regular_segments)
    for rule in tie:
        if rule is TieRule.TOTAL_POINTS and regular.total_point_margin:
            winner = _ahead(regular.total_point_margin)
            return _no_later(outcome(winner, Decider.TOTAL_POINTS), later, regular_segments)
        if rule is TieRule.BOARDS_WON and regular.home_boards_won != regular.away_boards_won:
            winner = _ahead(regular.home_boards_won - regular.away_boards_won)
            return _no_later(outcome(winner, Decider.BOARDS_WON), later, regular_segments)
        if rule is TieRule.LOT:
            if lot_seed is None:
                raise ScoringInputError(
                    "lot_seed", "the lot is drawn with a recorded seed: give it"
                )
            drawn = draw_lots([Side.HOME, Side.AWAY], lot_seed, key=lambda s: s.value)[0]
            return _no_later(outcome(drawn, Decider.LOT), later, regular_segments)
        if rule is TieRule.HIGHER_PLACED:
            return _no_later(outcome(higher, Decider.HIGHER_PLACED), later, regular_segments)
    if play_more is None:
        return outcome(None, None)
    extension = extra_set_boards if play_more is TieRule.EXTRA_SET else sudden_death_boards
    kind, decider = Next(play_more.value), Decider(play_more.value)
    s = regular_segments
    while True:
        s += 1
        played = len(by_segment.get(s, ()))
        if played == 0:
            return _no_later(outcome(None, None, kind), later, s)
        if played > extension:
            raise SegmentError(
                s, f"segment {s} is a {play_more.value} of {extension} board(s); {played} given"
            )
        if played < extension:
            return _no_later(outcome(None, None, busy=True), later, s)
        r = results[s]
        if r.home_imps != r.away_imps:
            return _no_later(outcome(_ahead(r.home_imps - r.away_imps), decider), later, s)


def _ahead(margin: Fraction | int) -> Side:
    return Side.HOME if margin > 0 else Side.AWAY


def _no_later(result: KoOutcome, later: Sequence[int], last: int) -> KoOutcome:
    """Refuse boards of a segment after ``last``: nothing is played after that point."""
    beyond = [s for s in later if s > last]
    if beyond:
        why = (
            f"the match was decided by {result.decided_by.value}"
            if result.decided_by
            else f"segment {last} is not complete"
        )
        raise SegmentError(beyond[0], f"segment {beyond[0]} cannot have been played: {why}")
    return result


def share_carry_over(earlier_margin: Fraction | int, percent: Fraction | int) -> Fraction:
    """JFR's carry-over: ``percent`` % of an earlier result's IMP difference, rounded up to
    0.1 "unless whole", read as: a share that is already a whole number of tenths stays
    as it is (50 % of 9 = 4.5; 25 % of 12 = 3), any other goes up to the next tenth (25 %
    of 13 = 3.25 → 3.3). The sign follows ``earlier_margin``: it goes to the side that
    led the earlier result."""
    percent = Fraction(percent)
    if not 0 <= percent <= 100:
        raise ScoringInputError("percent", f"a share is 0 to 100 %, got {percent}")
    share = abs(Fraction(earlier_margin)) * percent / 100
    tenths = Fraction(math.ceil(share * 10), 10)
    return tenths if earlier_margin >= 0 else -tenths


def higher_placed_carry_over(
    amount: Fraction | int, home_rank: int, away_rank: int
) -> tuple[Fraction, Fraction]:
    """(home, away) carry-over: ``amount`` to the side placed higher in the qualifier (rank
    1 is the top; seed 001: 0.1 IMP)."""
    if home_rank == away_rank:
        raise ScoringInputError("rank", f"both sides are ranked {home_rank}: ranks must differ")
    amount = Fraction(amount)
    return (amount, Fraction(0)) if home_rank < away_rank else (Fraction(0), amount)


def fixed_carry_over(amount: Fraction | int, to: Side) -> tuple[Fraction, Fraction]:
    """(home, away) carry-over: fixed IMPs to a named side (seed 000: 6.5 IMP to the upper
    bracket's unbeaten team in the final)."""
    amount = Fraction(amount)
    return (amount, Fraction(0)) if to is Side.HOME else (Fraction(0), amount)


@dataclass(frozen=True, slots=True)
class PairResult:
    """One pairing of a three-way (seed 000): an ordinary IMP match, carry-over included
    in the IMPs, converted to VPs on the event's scale."""

    home: str
    away: str
    home_imps: Fraction
    away_imps: Fraction
    home_vp: Fraction
    away_vp: Fraction


def pair_result(
    home: str,
    away: str,
    boards: Sequence[KoBoard],
    scale: VPScale,
    *,
    home_carry_over: Fraction | int = 0,
    away_carry_over: Fraction | int = 0,
) -> PairResult:
    """Score one pairing of a three-way over all its boards and convert it to VPs."""
    if len({(b.segment, b.board) for b in boards}) != len(boards):
        raise ScoringInputError("board", f"{home} v {away}: a board is given twice")
    r = score_match(
        [TeamBoard(k, b.open_ns, b.closed_ns) for k, b in enumerate(boards, start=1)],
        scale=scale,
        home_carry_over=home_carry_over,
        away_carry_over=away_carry_over,
    )
    if r.home_vp is None or r.away_vp is None:
        raise ScoringInputError("boards", f"{home} v {away}: no boards played")
    h, a = r.home_imps + r.home_carry_over, r.away_imps + r.away_carry_over
    return PairResult(home, away, h, a, r.home_vp, r.away_vp)


def three_way_order(
    teams: Sequence[str], results: Sequence[PairResult], *, lot_seed: int | None = None
) -> tuple[str, ...]:
    """A three-way's finishing order (seed 000: "the team winning both their matches will
    be declared winner. Otherwise, total VPs will decide the winner").

    A match is won by an IMP margin > 0, carry-over included. A team that won both is
    first, the other two follow by their total VPs; with no such team all three go by
    total VPs. Level on VPs: IMP difference over the team's two matches, then a lot drawn
    with ``lot_seed`` (these two steps are ours: the seed is silent).
    """
    if len(teams) != 3 or len(set(teams)) != 3:
        raise ScoringInputError("teams", f"a three-way has three different teams: {teams}")
    pairings = {frozenset((r.home, r.away)) for r in results}
    wanted = {frozenset((a, b)) for k, a in enumerate(teams) for b in teams[k + 1 :]}
    if len(results) != 3 or pairings != wanted:
        raise ScoringInputError(
            "results", f"a three-way has one result for each pairing of {', '.join(teams)}"
        )
    vps = {t: Fraction(0) for t in teams}
    imps = {t: Fraction(0) for t in teams}
    wins = dict.fromkeys(teams, 0)
    for r in results:
        vps[r.home] += r.home_vp
        vps[r.away] += r.away_vp
        margin = r.home_imps - r.away_imps
        imps[r.home] += margin
        imps[r.away] -= margin
        if margin:
            wins[r.home if margin > 0 else r.away] += 1
    first = [t for t in teams if wins[t] == 2]
    rest = sorted((t for t in teams if t not in first), key=lambda t: (-vps[t], -imps[t]))
    order: list[str] = list(first)
    while rest:
        level = [t for t in rest if (vps[t], imps[t]) == (vps[rest[0]], imps[rest[0]])]
        if len(level) > 1:
            if lot_seed is None:
                raise ScoringInputError(
                    "lot_seed",
                    f"{', '.join(level)} are level on VPs and IMPs: a lot decides, give its seed",
                )
            level = list(draw_lots(level, lot_seed))
        order += level
        rest = [t for t in rest if t not in level]
    return tuple(order)
