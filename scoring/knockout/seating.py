"""Who sits second in each segment of a knockout match (the seating right: the team that
sits second hands in its line-up after seeing the other's), by the event's rule, and the
line-up order that follows for the director.

- seed 003 §12.6: home and visitors sit second in turn, the home team in segment 1; and
  consecutive segments must not repeat the same pairs' meeting (``repeated_meetings``).
- seed 001 II.4: the team placed higher in the qualification sits second in segment 2; in
  the final in the first and last segment.
- seed 000 §8: the captains draw for the first choice, then the choice alternates.
- seed 002 §18 (matches of 64 boards): segments paired 1+2 and 3+4; home chooses one,
  away gets the other of that pair, away chooses one of the two left, home gets the last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from scoring.errors import ScoringInputError
from scoring.knockout.ko_match import Side  # one home and away for the whole knockout
from scoring.lot import draw_lots


class SeatingRule(Enum):
    ALTERNATE_HOME_FIRST = "alternate_home_first"  # seed 003 §12.6
    HIGHER_PLACED = "higher_placed"  # seed 001 II.4
    CAPTAINS_DRAW = "captains_draw"  # seed 000 §8
    PAIRED_CHOICE = "paired_choice"  # seed 002 §18, 64-board matches


def _check_segments(segments: int, least: int = 1) -> None:
    if segments < least:
        raise ScoringInputError("segments", f"{segments} segments: {least} or more allowed")


def alternate_home_first(segments: int) -> tuple[Side, ...]:
    """Seed 003 §12.6: home sits second in segment 1, visitors in 2, home in 3 … (extra
    4-board sets after a tie are further segments and keep alternating)."""
    _check_segments(segments)
    return tuple(Side.HOME if s % 2 == 0 else Side.AWAY for s in range(segments))


def higher_placed(segments: int, higher: Side, final: bool = False) -> tuple[Side, ...]:
    """Seed 001 II.4: the higher-placed team sits second in segment 2 (in the final: in
    the first and the last segment), the lower-placed one in every other segment."""
    _check_segments(segments, 2)
    chosen = {1, segments} if final else {2}
    return tuple(higher if s in chosen else higher.other for s in range(1, segments + 1))


def draw_for_choice(lot_seed: int) -> Side:
    """Seed 000 §8: the captains' draw; the side that wins it chooses first."""
    return draw_lots((Side.HOME, Side.AWAY), lot_seed, key=lambda s: s.value)[0]


def _check_choice(segment: int, segments: int, taken: set[int]) -> None:
    if not 1 <= segment <= segments:
        raise ScoringInputError("choices", f"segment {segment}: 1 to {segments} allowed")
    if segment in taken:
        raise ScoringInputError("choices", f"segment {segment} is already taken")


def captains_draw(segments: int, lot_winner: Side, choices: Sequence[int]) -> tuple[Side, ...]:
    """Seed 000 §8: "The winner of the draw may choose to sit first in any of the three
    stanzas, then the choice alternates": ``choices`` are the segments chosen in turn,
    the lot winner first, each one where the choosing team sits first; the segment left
    after the others goes to the team whose turn it is without a choice."""
    _check_segments(segments)
    if len(choices) not in (segments - 1, segments):
        raise ScoringInputError(
            "choices",
            f"{len(choices)} choices for {segments} segments: {segments - 1} or {segments}",
        )
    first: dict[int, Side] = {}
    chooser = lot_winner
    for segment in choices:
        _check_choice(segment, segments, set(first))
        first[segment] = chooser
        chooser = chooser.other
    for segment in range(1, segments + 1):
        first.setdefault(segment, chooser)
    return tuple(first[s].other for s in range(1, segments + 1))


def paired_choice(home_choice: int, away_choice: int) -> tuple[Side, ...]:
    """Seed 002 §18: of the four segments (paired 1+2 and 3+4) the home team (ranked
    higher) sits second in ``home_choice`` and away in the other of that pair; away then
    sits second in ``away_choice``, one of the other pair, and home in the last."""
    _check_choice(home_choice, 4, set())
    twin = home_choice + 1 if home_choice % 2 else home_choice - 1
    _check_choice(away_choice, 4, {home_choice, twin})
    second = {home_choice: Side.HOME, twin: Side.AWAY, away_choice: Side.AWAY}
    return tuple(second.get(s, Side.HOME) for s in range(1, 5))


def sits_second(
    rule: SeatingRule,
    segments: int,
    *,
    higher: Side = Side.HOME,
    final: bool = False,
    lot_winner: Side | None = None,
    choices: Sequence[int] = (),
) -> tuple[Side, ...]:
    """Who sits second in segments 1, 2 … under ``rule``; ``higher`` and ``final`` are for
    ``higher_placed``, ``lot_winner`` and ``choices`` for ``captains_draw``, ``choices``
    (home's, then away's) for ``paired_choice``."""
    if rule is SeatingRule.ALTERNATE_HOME_FIRST:
        return alternate_home_first(segments)
    if rule is SeatingRule.HIGHER_PLACED:
        return higher_placed(segments, higher, final)
    if rule is SeatingRule.CAPTAINS_DRAW:
        if lot_winner is None:
            raise ScoringInputError("lot_winner", "a captains' draw needs its winner (home/away)")
        return captains_draw(segments, lot_winner, choices)
    if segments != 4 or len(choices) != 2:
        raise ScoringInputError(
            "choices", "the paired choice is for 4 segments, with home's and away's choice"
        )
    return paired_choice(choices[0], choices[1])


@dataclass(frozen=True, slots=True)
class LineupTurn:
    """In ``segment``, ``first`` hands in its line-up first, ``second`` after seeing it."""

    segment: int
    first: str
    second: str

    def __str__(self) -> str:
        return f"segment {self.segment}: {self.first} first, then {self.second}"


def lineup_order(second: Sequence[Side], home: str, away: str) -> tuple[LineupTurn, ...]:
    """The line-up order per segment that the seating implies: the team sitting first
    hands in its line-up first."""
    team = {Side.HOME: home, Side.AWAY: away}
    return tuple(
        LineupTurn(s, team[side.other], team[side]) for s, side in enumerate(second, start=1)
    )


def _meetings(lineup: Mapping[str, tuple[str, str]]) -> frozenset[frozenset[tuple[str, str]]]:
    a, b = sorted(lineup)
    return frozenset(frozenset({(a, lineup[a][room]), (b, lineup[b][room])}) for room in (0, 1))


def repeated_meetings(lineups: Sequence[Mapping[str, tuple[str, str]]]) -> tuple[int, ...]:
    """Seed 003 §12.6 ("consecutive segments never repeat the same pairs' meeting"): the
    segments (numbered from 1) in which a pair meets the same opposing pair as in the
    segment before, in either room. A line-up per segment is team → (its pair in the open
    room, its pair in the closed room)."""
    teams = set(lineups[0]) if lineups else set()
    for s, lineup in enumerate(lineups, start=1):
        if len(lineup) != 2 or set(lineup) != teams:
            raise ScoringInputError(
                "lineups", f"segment {s}: a line-up names the match's two teams, the same each time"
            )
        for team, pairs in lineup.items():
            if len(pairs) != 2 or pairs[0] == pairs[1]:
                raise ScoringInputError(
                    "lineups", f"segment {s}: {team} needs two different pairs (open, closed)"
                )
    met = [_meetings(lineup) for lineup in lineups]
    return tuple(s for s in range(2, len(met) + 1) if met[s - 1] & met[s - 2])
