"""Tables and home/away for drawn matches, by the event's rule."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum

from scoring.draw.model import Draw, MatchPlayed, Pairing, Team, meetings


class HomeRule(Enum):
    """Which team of a match is the home team."""

    # seed 000 §8: "The team with higher team number are designated as the Home Team"
    HIGHER_NUMBER = "higher-number"
    # seed 002 (Bonus Cup play-off): "Det främst rankade laget blir hemmalag"
    HIGHER_RANKED = "higher-ranked"


def seat(
    pairs: Sequence[tuple[str, str]],
    teams: Mapping[str, Team],
    rule: HomeRule,
) -> tuple[Pairing, ...]:
    """Pairings at tables 1, 2, … in the order given; each pair is (higher-ranked, lower)."""
    out = []
    for table, (upper, lower) in enumerate(pairs, start=1):
        home, away = upper, lower
        if rule is HomeRule.HIGHER_NUMBER:
            a, b = teams[upper], teams[lower]
            if (b.number, b.team) > (a.number, a.team):
                home, away = lower, upper
        out.append(Pairing(table, home, away))
    return tuple(out)


def seated_draw(
    round_no: int,
    pairs: Sequence[tuple[str, str]],
    byes: Sequence[str],
    teams: Sequence[Team],
    earlier: Sequence[MatchPlayed],
    rule: HomeRule,
    lot_seed: int | None,
) -> Draw:
    """The round as a ``Draw``: ``pairs`` seated at tables 1, 2 … in the order given, and
    the number of them that repeat a meeting of ``earlier``."""
    met = meetings(earlier)
    repeats = sum(1 for pair in pairs if frozenset(pair) in met)
    by_id = {t.team: t for t in teams}
    return Draw(round_no, seat(pairs, by_id, rule), tuple(byes), repeats, lot_seed)
