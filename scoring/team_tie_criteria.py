"""What a team tie-break compares: the criteria a TD names (decisions D2), over the matches
played.

A criterion looks at the teams still level and gives each a value (higher ranks first), or
None when it does not apply to that group: the head-to-head criteria apply only when every
two of the tied teams have met (seed 000: "should it have occurred"; the WBF procedures of
seed 001 are written for a round robin). A criterion whose data was not given (IMPs, total
points, boards won) raises ``MissingData``: the tie is then left open, never guessed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from scoring.team_match import MatchResult


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """One match of a team event (or a bye: ``away`` None), for standings and draws alike.

    VPs are None for a match drawn but not yet played (a Swiss one round delayed draws round
    N while round N-1 is at the tables): it counts as a meeting, not in the standings. IMPs
    are the match totals each team scored (carry-over included); ``*_points`` the total
    points each team won on the boards; ``*_boards_won`` the boards each won. Any of these may
    be unknown (None): criteria that need them then report the tie as open. ``three_way``:
    one of a three-way's three matches (an odd field's instead of a bye, movements.md 5.5).
    """

    round: int
    home: Hashable
    away: Hashable | None
    home_vp: Fraction | None = None
    away_vp: Fraction | None = None
    home_imps: Fraction | None = None
    away_imps: Fraction | None = None
    home_points: int | None = None
    away_points: int | None = None
    home_boards_won: int | None = None
    away_boards_won: int | None = None
    three_way: bool = False

    @property
    def is_bye(self) -> bool:
        return self.away is None

    @property
    def is_scored(self) -> bool:
        """Its VPs are known (a bye's in ``home_vp``)."""
        return self.home_vp is not None and (self.away is None or self.away_vp is not None)


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A match the hub scored board by board (``scoring.team_match``): the two teams and its
    result. ``scoring.team_standings`` re-exports it."""

    home: Hashable
    away: Hashable
    result: MatchResult


def from_played(m: PlayedMatch, round_: int = 0) -> TeamMatch:
    """A scored ``PlayedMatch`` as a ``TeamMatch`` (carry-over in IMPs)."""
    r = m.result
    return TeamMatch(
        round=round_,
        home=m.home,
        away=m.away,
        home_vp=r.home_vp or Fraction(0),
        away_vp=r.away_vp or Fraction(0),
        home_imps=r.home_imps + r.home_carry_over,
        away_imps=r.away_imps + r.away_carry_over,
        home_points=r.home_points,
        away_points=r.away_points,
        home_boards_won=r.home_boards_won,
        away_boards_won=r.away_boards_won,
    )


class MissingData(Exception):
    """A criterion needs data the matches do not carry (``what``: "IMPs", "total points" …)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


@dataclass(frozen=True, slots=True)
class Side:
    """One team's view of a match: what it scored and what its opponent scored."""

    team: Hashable
    opponent: Hashable
    vp: Fraction
    opponent_vp: Fraction
    imps: Fraction | None
    opponent_imps: Fraction | None
    points: int | None
    opponent_points: int | None
    boards_won: int | None


def _sides(m: TeamMatch) -> tuple[Side, Side]:
    assert m.away is not None and m.home_vp is not None and m.away_vp is not None
    home_vp, away_vp = m.home_vp, m.away_vp
    home = Side(
        m.home, m.away, home_vp, away_vp, m.home_imps, m.away_imps,
        m.home_points, m.away_points, m.home_boards_won,
    )  # fmt: skip
    away = Side(
        m.away, m.home, away_vp, home_vp, m.away_imps, m.home_imps,
        m.away_points, m.home_points, m.away_boards_won,
    )  # fmt: skip
    return home, away


class Field:
    """Every team's VP and matches, as the criteria read them."""

    def __init__(
        self,
        matches: Iterable[TeamMatch],
        vp_adjustments: Mapping[Hashable, Fraction] | None = None,
    ) -> None:
        self.vp: dict[Hashable, Fraction] = {}
        self.sides: dict[Hashable, list[Side]] = {}
        for m in matches:
            if m.home_vp is None or not m.is_scored:
                continue  # drawn, not yet played
            self.vp[m.home] = self.vp.get(m.home, Fraction(0)) + m.home_vp
            self.sides.setdefault(m.home, [])
            if m.away is None or m.away_vp is None:
                continue
            self.vp[m.away] = self.vp.get(m.away, Fraction(0)) + m.away_vp
            for side in _sides(m):
                self.sides.setdefault(side.team, []).append(side)
        for team, adj in (vp_adjustments or {}).items():
            self.vp[team] = self.vp.get(team, Fraction(0)) + Fraction(adj)

    def mutual(self, group: Sequence[Hashable]) -> dict[Hashable, list[Side]] | None:
        """Each tied team's matches against the others; None unless every two have met."""
        members = set(group)
        out = {t: [s for s in self.sides.get(t, []) if s.opponent in members] for t in group}
        for a, b in combinations(group, 2):
            if not any(s.opponent == b for s in out[a]):
                return None
        return out


Value = Any
Criterion = Callable[[Sequence[Hashable], Field], Mapping[Hashable, Value] | None]


def quotient(won: Fraction | int, lost: Fraction | int) -> Fraction | float:
    """Won ÷ lost, exact; nothing lost is infinite (nothing at all counts as 1)."""
    if lost:
        return Fraction(won) / Fraction(lost)
    return math.inf if won else Fraction(1)


def _need(value: Any, what: str) -> Any:
    if value is None:
        raise MissingData(what)
    return value


def imp_quotient(group: Sequence[Hashable], field: Field) -> dict[Hashable, Value]:
    """IMPs won ÷ IMPs lost in all the team's matches (seeds 000, 001, 002, 004)."""
    out: dict[Hashable, Value] = {}
    for t in group:
        sides = field.sides.get(t, [])
        won = sum((_need(s.imps, "IMPs") for s in sides), Fraction(0))
        lost = sum((_need(s.opponent_imps, "IMPs") for s in sides), Fraction(0))
        out[t] = quotient(won, lost)
    return out


def total_point_quotient(group: Sequence[Hashable], field: Field) -> dict[Hashable, Value]:
    """Total points won ÷ total points lost in all the team's matches (seeds 000, 001)."""
    out: dict[Hashable, Value] = {}
    for t in group:
        sides = field.sides.get(t, [])
        won = sum(_need(s.points, "total points") for s in sides)
        lost = sum(_need(s.opponent_points, "total points") for s in sides)
        out[t] = quotient(won, lost)
    return out


def _h2h(what: str, value: Callable[[Side], Any]) -> Criterion:
    def criterion(group: Sequence[Hashable], field: Field) -> dict[Hashable, Value] | None:
        mutual = field.mutual(group)
        if mutual is None:
            return None
        return {t: sum((_need(value(s), what) for s in mutual[t]), Fraction(0)) for t in group}

    return criterion


def _net(a: Any, b: Any) -> Any:
    return None if a is None or b is None else a - b


# Among the tied teams only. "Net" (seed 001 B.5, B.6: "net total IMPs", "net total points")
# and "won" (seed 000 (b), (c): "IMPs obtained"; seed 004: "vunna IMP", "vunna totalpoäng")
# give the same order for two teams and may differ for three or more.
h2h_vp = _h2h("VP", lambda s: s.vp)
h2h_imps = _h2h("IMPs", lambda s: _net(s.imps, s.opponent_imps))
h2h_imps_won = _h2h("IMPs", lambda s: s.imps)
h2h_total_points = _h2h("total points", lambda s: _net(s.points, s.opponent_points))
h2h_points_won = _h2h("total points", lambda s: s.points)
h2h_boards_won = _h2h("boards won", lambda s: s.boards_won)


def _results(group: Sequence[Hashable], field: Field) -> dict[Hashable, list[int]] | None:
    """Per team, its head-to-head result against each other tied team: 1 won, 0 tied, -1 lost
    (on the VPs of their match or matches)."""
    mutual = field.mutual(group)
    if mutual is None:
        return None
    out: dict[Hashable, list[int]] = {}
    for t in group:
        res = []
        for o in group:
            if o == t:
                continue
            mine = sum((s.vp for s in mutual[t] if s.opponent == o), Fraction(0))
            theirs = sum((s.opponent_vp for s in mutual[t] if s.opponent == o), Fraction(0))
            res.append((mine > theirs) - (mine < theirs))
        out[t] = res
    return out


def _single(group: Sequence[Hashable], chosen: list[Hashable], first: bool) -> dict | None:
    """The one team ``chosen`` placed first (or last) of the group; None unless exactly one."""
    if len(chosen) != 1:
        return None
    return {t: int(t == chosen[0]) if first else int(t != chosen[0]) for t in group}


def h2h_vp_beat_all(group: Sequence[Hashable], field: Field) -> dict | None:
    """Seed 001 B.2: a team that earned more VPs against each of the others wins."""
    res = _results(group, field)
    if res is None:
        return None
    return _single(group, [t for t in group if all(r == 1 for r in res[t])], True)


def h2h_vp_beat_all_but_one_tie(group: Sequence[Hashable], field: Field) -> dict | None:
    """Seed 001 B.3: the one team that tied one of the others and beat the rest."""
    res = _results(group, field)
    if res is None:
        return None
    return _single(
        group, [t for t in group if res[t].count(0) == 1 and res[t].count(-1) == 0], True
    )


def h2h_vp_unbeaten(group: Sequence[Hashable], field: Field) -> dict | None:
    """Seed 001 C.2 as one step: the one team that "earned more VPs against each of the
    remaining tied teams" or "has, uniquely, tied one and defeated the other tied teams"."""
    res = _results(group, field)
    if res is None:
        return None
    return _single(
        group, [t for t in group if res[t].count(0) <= 1 and res[t].count(-1) == 0], True
    )


def h2h_vp_lost_to_all(group: Sequence[Hashable], field: Field) -> dict | None:
    """Seed 001 B.4: a team beaten by each of the others is last of the tied teams."""
    res = _results(group, field)
    if res is None:
        return None
    return _single(group, [t for t in group if all(r == -1 for r in res[t])], False)


def swiss_points(group: Sequence[Hashable], field: Field) -> dict[Hashable, Value]:
    """Seed 002 (Gröna Hissen): the sum of the VPs of every team met ("samtliga de lag man
    mött"), each team once, its late-joiner VPs and penalties included."""
    out: dict[Hashable, Value] = {}
    for t in group:
        met = {s.opponent for s in field.sides.get(t, [])}
        out[t] = sum((field.vp.get(o, Fraction(0)) for o in met), Fraction(0))
    return out


CRITERIA: dict[str, Criterion] = {
    "imp_quotient": imp_quotient,
    "total_point_quotient": total_point_quotient,
    "h2h_vp": h2h_vp,
    "h2h_imps": h2h_imps,
    "h2h_imps_won": h2h_imps_won,
    "h2h_total_points": h2h_total_points,
    "h2h_points_won": h2h_points_won,
    "h2h_boards_won": h2h_boards_won,
    "h2h_vp_beat_all": h2h_vp_beat_all,
    "h2h_vp_beat_all_but_one_tie": h2h_vp_beat_all_but_one_tie,
    "h2h_vp_unbeaten": h2h_vp_unbeaten,
    "h2h_vp_lost_to_all": h2h_vp_lost_to_all,
    "swiss_points": swiss_points,
}
