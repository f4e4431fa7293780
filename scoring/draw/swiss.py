"""Swiss teams (seed 000): top-down by VP without repeats, one round delayed, pre-drawn
rounds, late joiners drawn against each other by lot.

- The draw is a minimum-cost perfect matching (``top_down``): a repeat only when no
  repeat-free draw exists, and then as few as possible; table 1 for the top match.
- One round delayed (seed 000: "swiss, one round delayed"): round N is drawn from the
  standings after round N-2, while round N-1 is at the tables; its pairings already count
  as meetings.
- Pre-drawn rounds (seed 000: "The draw for matches 1 and 2 is pre-determined") come from
  the event as printed, and the home team by the event's rule (seed 000 §8: the higher
  team number).
- Late joiners (seed 000 Swiss Plate: "These 4 teams will match up against each other in
  round 4, by means of a random draw") are paired among themselves by a lot.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from scoring.draw.byes import split_bye
from scoring.draw.model import Draw, MatchPlayed, Team, meetings
from scoring.draw.seating import HomeRule, seated_draw
from scoring.draw.standing import SWISS_RULE, current_standing
from scoring.draw.top_down import top_down_pairs
from scoring.errors import ScoringInputError
from scoring.late_joiners import pair_by_lot
from scoring.team_ties import TieBreakRule


def next_round(matches: Sequence[MatchPlayed]) -> int:
    """The round after the last one drawn."""
    return max((m.round for m in matches), default=0) + 1


def swiss_draw(
    teams: Sequence[Team],
    matches: Sequence[MatchPlayed],
    *,
    delayed: bool = False,
    rule: TieBreakRule = SWISS_RULE,
    home_rule: HomeRule = HomeRule.HIGHER_NUMBER,
    vp_adjustments: Mapping[str, Fraction] | None = None,
    joiners: Collection[str] = (),
    lot_seed: int | None = None,
) -> Draw:
    """The next round's Swiss draw.

    ``matches`` are every earlier round's matches and byes (with ``delayed``, the round at
    the tables may be listed without VPs). ``joiners`` start this round and meet each other
    by lot (it needs ``lot_seed``); the others are drawn top-down. Tables follow the
    standing: the match of the best-placed team at table 1, joiners' matches included.
    """
    rnd = next_round(matches)
    after = rnd - 2 if delayed else rnd - 1
    order = current_standing(
        teams,
        matches,
        after_round=after,
        rule=rule,
        vp_adjustments=vp_adjustments,
        lot_seed=lot_seed,
    )
    met = meetings(matches)
    joining = set(joiners)
    regular = [t for t in order if t not in joining]
    byes, regular = split_bye(regular, matches)
    pairs, _ = top_down_pairs(regular, met)
    if joining:
        if lot_seed is None:
            raise ValueError("late joiners meet by lot: give a lot seed")
        try:
            pairs += pair_by_lot([t for t in order if t in joining], lot_seed)
        except ScoringInputError:
            raise ValueError(
                f"{len(joining)} joining teams: they are paired among themselves"
            ) from None
    rank = {t: i for i, t in enumerate(order)}
    tables = sorted((sorted(p, key=rank.__getitem__) for p in pairs), key=lambda p: rank[p[0]])
    return seated_draw(rnd, [(a, b) for a, b in tables], byes, teams, matches, home_rule, lot_seed)


def predrawn_round(
    round_no: int,
    printed: Sequence[tuple[int, int]],
    teams: Sequence[Team],
    *,
    earlier: Sequence[MatchPlayed] = (),
    home_rule: HomeRule = HomeRule.HIGHER_NUMBER,
) -> Draw:
    """A round the event prints in advance ("1 v 2, 3 v 4 …" by team number), table by
    table in the printed order; ``earlier`` only counts its repeats."""
    by_number = {t.number: t for t in teams}
    missing = sorted({n for pair in printed for n in pair} - set(by_number))
    if missing:
        raise ValueError(f"round {round_no}: no team numbered {missing}")
    pairs = [(by_number[a].team, by_number[b].team) for a, b in printed]
    seen = [t for pair in pairs for t in pair]
    if len(seen) != len(set(seen)):
        raise ValueError(f"round {round_no}: a team is drawn twice")
    drawn = set(seen)
    byes = [t.team for t in teams if t.team not in drawn]
    return seated_draw(round_no, pairs, byes, teams, earlier, home_rule, None)


def second_teams_moved(printed: Sequence[tuple[int, int]], tables: int) -> list[tuple[int, int]]:
    """Each table's first team stays; the second team of table t+``tables`` comes to table
    t (round the room). Seed 000's printed round 2 is its round 1 moved this way by two
    tables: our reading of the two printed rounds, not words of the seed."""
    n = len(printed)
    return [(printed[t][0], printed[(t + tables) % n][1]) for t in range(n)]
