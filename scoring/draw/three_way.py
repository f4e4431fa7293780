"""A three-way match instead of a bye (movements.md 5.5, ASE Scorer's two-round three-way):
an odd field's bye team and the lowest-ranked match whose two teams have had neither a bye
nor a three-way, nor met the bye team, play each other over this round and the next. The
scorer allows a team one three-way per event, so the bye (which ``had_bye`` gives to a team
that has had neither) and the match are chosen among the teams that have not had their
turn where the field allows; else the match with fewest teams that have, then fewest
repeats, the lowest first.

Sans-I/O: a pure function of a draw and the matches before it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from scoring.draw.model import Draw, MatchPlayed, Pairing, had_bye, meetings


def three_way_draw(draw: Draw, earlier: Iterable[MatchPlayed]) -> Draw:
    """``draw`` with its one bye turned into a three-way (A, B, C): A and B the home and
    away teams of the lowest-ranked match (the highest table) whose teams have had no bye
    nor three-way and have not met C (else the one with fewest of these), C the bye team.
    The other matches keep their order, numbered 1 … n; ``repeats`` counts the three-way's
    pairs already met too. A draw with no bye (or no match to join it) is returned as it
    is."""
    if len(draw.byes) != 1 or not draw.matches:
        return draw
    earlier = list(earlier)
    turned, met, c = had_bye(earlier), meetings(earlier), draw.byes[0]

    def fit(low: int) -> tuple[int, int, int]:
        p = draw.matches[-1 - low]  # fewest teams that had their turn, fewest repeats, lowest
        repeats = (frozenset((p.home, c)) in met) + (frozenset((p.away, c)) in met)
        return ((p.home in turned) + (p.away in turned), repeats, low)

    chosen = draw.matches[-1 - min(range(len(draw.matches)), key=fit)]
    rest = [p for p in draw.matches if p is not chosen]
    a, b = chosen.home, chosen.away
    pairs = [(p.home, p.away) for p in rest] + [(a, b), (b, c), (c, a)]
    return replace(
        draw,
        matches=tuple(Pairing(i, p.home, p.away) for i, p in enumerate(rest, start=1)),
        byes=(),
        repeats=sum(1 for pair in pairs if frozenset(pair) in met),
        three_way=(a, b, c),
    )
