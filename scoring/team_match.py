"""Team matches: board IMPs from the two rooms, carry-over, VPs, boards won, total points.

The home team sits NS in the open room and EW in the closed room, so on each board the
home team's net is open-room NS score − closed-room NS score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.errors import ScoringInputError
from scoring.imps import imps
from scoring.vp_scale import VPScale, match_vps


@dataclass(frozen=True, slots=True)
class TeamBoard:
    """One board of a match.

    ``open_ns``/``closed_ns`` are the NS scores in the two rooms. When a room has no real
    result, ``assigned_imps`` gives the home team's IMPs on the board instead (Law 86:
    e.g. +3 for average-plus; ``Fraction`` allowed for a Law 86B average of two scores).
    ``fouled`` removes the board: the match is scored as one of fewer boards (seed 002).
    """

    board: int
    open_ns: int | None = None
    closed_ns: int | None = None
    assigned_imps: Fraction | None = None
    fouled: bool = False

    def __post_init__(self) -> None:
        played = self.open_ns is not None and self.closed_ns is not None
        if not self.fouled and played == (self.assigned_imps is not None):
            raise ScoringInputError(
                "board", f"board {self.board}: give both rooms' scores or assigned IMPs"
            )

    @property
    def net(self) -> int | None:
        """Home team's points difference; None when the board was not played in both rooms."""
        if self.fouled or self.open_ns is None or self.closed_ns is None:
            return None
        return self.open_ns - self.closed_ns

    @property
    def home_imps(self) -> Fraction:
        if self.fouled:
            return Fraction(0)
        if self.assigned_imps is not None:
            return Fraction(self.assigned_imps)
        assert self.net is not None
        return Fraction(imps(self.net))


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A scored match from both teams' sides (home first).

    ``*_carry_over`` are the IMPs each side's match total starts from: its carry-over less
    its IMP penalties (``*_penalty``, the part of it that is a penalty), so the VPs, the
    IMP totals and the tie-breaks all see the penalty."""

    boards_scored: int
    home_imps: Fraction
    away_imps: Fraction
    home_carry_over: Fraction
    away_carry_over: Fraction
    home_vp: Fraction | None
    away_vp: Fraction | None
    home_boards_won: int
    away_boards_won: int
    home_points: int
    away_points: int
    home_penalty: Fraction = Fraction(0)
    away_penalty: Fraction = Fraction(0)

    def swapped(self) -> MatchResult:
        """The same match seen from the away team's side (away first)."""
        return MatchResult(
            self.boards_scored,
            self.away_imps,
            self.home_imps,
            self.away_carry_over,
            self.home_carry_over,
            self.away_vp,
            self.home_vp,
            self.away_boards_won,
            self.home_boards_won,
            self.away_points,
            self.home_points,
            self.away_penalty,
            self.home_penalty,
        )

    @property
    def margin(self) -> Fraction:
        """Home IMPs minus away IMPs, carry-over included."""
        return (self.home_imps + self.home_carry_over) - (self.away_imps + self.away_carry_over)

    @property
    def total_point_margin(self) -> int:
        """Home total points minus away: seed 000's first KO tie-break."""
        return self.home_points - self.away_points


def score_match(
    boards: Sequence[TeamBoard],
    *,
    scale: VPScale | None = None,
    home_carry_over: Fraction | int = 0,
    away_carry_over: Fraction | int = 0,
    interpolate: bool = False,
    home_penalty: Fraction | int = 0,
    away_penalty: Fraction | int = 0,
) -> MatchResult:
    """Score a match; VPs use the scale for the number of boards actually scored.

    ``*_penalty``: IMPs a team's total loses before the VPs are worked out (the TD's IMP
    penalties: seed 000 KO slow play 3 IMP, seed 002 KO 1 IMP per started minute).

    A board counts as won by the side whose net points are positive (seed 000: a
    difference of 10 points wins a board even with no IMP). Fractional IMP margins go to
    VPs by decisions D5, halves to the team ahead on total points.
    """
    scored = [b for b in boards if not b.fouled]
    seen: set[int] = set()
    for b in boards:
        if b.board in seen:
            raise ScoringInputError("board", f"board {b.board} appears twice in the match")
        seen.add(b.board)
    home = sum((max(b.home_imps, Fraction(0)) for b in scored), Fraction(0))
    away = sum((max(-b.home_imps, Fraction(0)) for b in scored), Fraction(0))
    nets = [b.net for b in scored if b.net is not None]
    home_pts = sum(n for n in nets if n > 0)
    away_pts = sum(-n for n in nets if n < 0)
    hpen, apen = Fraction(home_penalty), Fraction(away_penalty)
    hco, aco = Fraction(home_carry_over) - hpen, Fraction(away_carry_over) - apen
    vp_h = vp_a = None
    if scale is not None and scored:
        margin = (home + hco) - (away + aco)
        tp = home_pts - away_pts
        vp_h, vp_a = match_vps(
            scale,
            len(scored),
            margin,
            a_won_total_points=None if tp == 0 else tp > 0,
            interpolate=interpolate,
        )
    return MatchResult(
        boards_scored=len(scored),
        home_imps=home,
        away_imps=away,
        home_carry_over=hco,
        away_carry_over=aco,
        home_vp=vp_h,
        away_vp=vp_a,
        home_boards_won=sum(1 for n in nets if n > 0),
        away_boards_won=sum(1 for n in nets if n < 0),
        home_points=home_pts,
        away_points=away_pts,
        home_penalty=hpen,
        away_penalty=apen,
    )


def carry_over_share(previous_margin: Fraction | int, share: Fraction) -> Fraction:
    """Carry-over as a share of an earlier result (seed 001: one third of the earlier
    match), given to the side that won it."""
    return Fraction(previous_margin) * share
