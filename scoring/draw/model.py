"""The values a draw works on: teams, matches already played, and the draw itself."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from scoring.team_tie_criteria import TeamMatch


@dataclass(frozen=True, slots=True)
class Team:
    """An entered team: ``team`` is its identifier on the entry list, ``number`` its team
    number (seed 000: the higher number is the home team), ``masterpoints`` the average of
    its players' masterpoints (seed 001 seeds round 1 by it)."""

    team: str
    name: str = ""
    number: int = 0
    masterpoints: Fraction | None = None


# One match type for draws and standings: a match of an earlier round, or a bye (``away``
# None); VPs None for a match drawn but not yet played (it counts as a meeting only).
MatchPlayed = TeamMatch


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of the drawn round: ``table`` 1 is the top match."""

    table: int
    home: str
    away: str


@dataclass(frozen=True, slots=True)
class Draw:
    """The next round: its matches by table, the teams with a bye, how many matches repeat
    an earlier meeting, and the seed every lot for it is drawn from (None when no seed was
    given: then no lot was drawn, and teams still level kept team-number order), and the
    three-way (A, B, C) an odd field plays instead of a bye, if any (``three_way``)."""

    round: int
    matches: tuple[Pairing, ...]
    byes: tuple[str, ...]
    repeats: int
    lot_seed: int | None
    three_way: tuple[str, str, str] | tuple[()] = ()

    def opponents(self) -> dict[str, str]:
        """Each drawn team's opponent."""
        out = {}
        for p in self.matches:
            out[p.home] = p.away
            out[p.away] = p.home
        return out


def meetings(matches: Iterable[MatchPlayed]) -> frozenset[frozenset[Hashable]]:
    """Every pair of teams that has already met (or is drawn to meet), as unordered pairs."""
    return frozenset(frozenset((m.home, m.away)) for m in matches if m.away is not None)


def had_bye(matches: Iterable[MatchPlayed]) -> frozenset[Hashable]:
    """Teams that have already had a bye, or played a three-way instead of one (the
    scorer allows a team one three-way per event, movements.md 5.5: the next falls to a
    team that has had neither)."""
    out: set[Hashable] = set()
    for m in matches:
        if m.away is None:
            out.add(m.home)
        elif m.three_way:
            out |= {m.home, m.away}
    return frozenset(out)
