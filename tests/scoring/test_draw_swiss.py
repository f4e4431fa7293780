"""Swiss teams draws (issue 16, decisions D19; seed 000, Yeh Bros Cup 2013, §4.A and §8).

Expected draws are worked by hand from the rules' text in each docstring: "The draw for
matches 1 and 2 is pre-determined. The draw for subsequent rounds will be swiss, one round
delayed"; top-down without repeats; "The team with higher team number are designated as
the Home Team".
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.draw.model import MatchPlayed, Pairing, Team
from scoring.draw.seating import HomeRule
from scoring.draw.swiss import predrawn_round, second_teams_moved, swiss_draw
from scoring.draw.top_down import pair_cost, top_down_pairs

# seed 000 §4.A, copied from the printed text
SEED_000_ROUND_1 = (
    "1 v 2 3 v 4 5 v 6 7 v 8 9 v 10 11 v 12 13 v 14 15 v 16 17 v 18 19 v 20 21 v 22 23 v 24"
)
SEED_000_ROUND_2 = (
    "1 v 6 3 v 8 5 v 10 7 v 12 9 v 14 11 v 16 13 v 18 15 v 20 17 v 22 19 v 24 21 v 2 23 v 4"
)


def printed(text: str) -> list[tuple[int, int]]:
    words = text.split()
    return [(int(words[i]), int(words[i + 2])) for i in range(0, len(words), 3)]


def numbered(n: int) -> list[Team]:
    return [Team(f"T{i}", number=i) for i in range(1, n + 1)]


def played(rnd: int, home: str, away: str, home_vp: int | None, away_vp: int | None):
    return MatchPlayed(
        rnd,
        home,
        away,
        None if home_vp is None else Fraction(home_vp),
        None if away_vp is None else Fraction(away_vp),
    )


def test_seed_000_round_1_as_printed_higher_number_at_home():
    """Round 1, 24 teams: 1 v 2 … 23 v 24 at tables 1-12; §8: the higher number is home."""
    draw = predrawn_round(1, printed(SEED_000_ROUND_1), numbered(24))
    assert draw.matches[0] == Pairing(1, "T2", "T1")
    assert draw.matches[11] == Pairing(12, "T24", "T23")
    assert [(p.home, p.away) for p in draw.matches] == [
        (f"T{2 * k}", f"T{2 * k - 1}") for k in range(1, 13)
    ]
    assert draw.byes == () and draw.repeats == 0


def test_swiss_round_1_without_results_is_the_printed_round_1():
    """With no results every team is level and keeps team-number order, so a Swiss draw of
    round 1 is seed 000's printed round 1 (1 v 2 … 23 v 24)."""
    teams = numbered(24)
    assert swiss_draw(teams, []) == predrawn_round(1, printed(SEED_000_ROUND_1), teams)


def test_seed_000_round_2_reproduced_as_printed():
    """Round 2 exactly as the seed prints it: "1 v 6 3 v 8 … 21 v 2 23 v 4", no team twice,
    no repeat of round 1; home by §8 (table 11: 21 v 2, so 21 is the home team)."""
    teams = numbered(24)
    r1 = predrawn_round(1, printed(SEED_000_ROUND_1), teams)
    earlier = [played(1, p.home, p.away, None, None) for p in r1.matches]
    r2 = predrawn_round(2, printed(SEED_000_ROUND_2), teams, earlier=earlier)
    expected = [
        (6, 1), (8, 3), (10, 5), (12, 7), (14, 9), (16, 11),
        (18, 13), (20, 15), (22, 17), (24, 19), (21, 2), (23, 4),
    ]  # fmt: skip
    assert [(p.table, p.home, p.away) for p in r2.matches] == [
        (t, f"T{h}", f"T{a}") for t, (h, a) in enumerate(expected, start=1)
    ]
    assert r2.repeats == 0
    assert sorted(t for p in r2.matches for t in (p.home, p.away)) == sorted(t.team for t in teams)


def test_seed_000_round_2_is_round_1_with_second_teams_two_tables_on():
    """The printed round 2 is round 1 with each table's second team coming from two tables
    further on (table 1 gets 6 from table 3; table 11 gets 2 from table 1)."""
    assert second_teams_moved(printed(SEED_000_ROUND_1), 2) == printed(SEED_000_ROUND_2)


def test_one_round_delayed_round_3_from_round_1_standings():
    """Seed 000 "one round delayed": round 3 is drawn from the standings after round 1,
    and round 2's pairings already count as meetings.

    8 teams. Round 1: 1-2 18:2, 3-4 17:3, 5-6 16:4, 7-8 15:5, so after round 1 the order is
    1 3 5 7 8 6 4 2. Round 2 (1v6 3v8 5v2 7v4) has results that would turn the standings
    upside down (6 beats 1 20:0 …) but the delayed draw does not use them. By hand: 1 meets
    3 (new); 5 meets 7 (new); 8 meets 6 (8 met 7 and 3); 4 meets 2 (4 met 3 and 7, 2 met 1
    and 5). Home by the higher number.
    """
    teams = numbered(8)
    r1 = [
        played(1, "T1", "T2", 18, 2),
        played(1, "T3", "T4", 17, 3),
        played(1, "T5", "T6", 16, 4),
        played(1, "T7", "T8", 15, 5),
    ]
    r2 = [
        played(2, "T1", "T6", 0, 20),
        played(2, "T3", "T8", 0, 20),
        played(2, "T5", "T2", 0, 20),
        played(2, "T7", "T4", 0, 20),
    ]
    draw = swiss_draw(teams, r1 + r2, delayed=True)
    assert draw.round == 3
    assert [(p.table, p.home, p.away) for p in draw.matches] == [
        (1, "T3", "T1"),
        (2, "T7", "T5"),
        (3, "T8", "T6"),
        (4, "T4", "T2"),
    ]
    assert draw.repeats == 0
    # the same matches without VPs for round 2 (still at the tables) give the same draw
    unplayed = [played(2, m.home, m.away, None, None) for m in r2]
    assert swiss_draw(teams, r1 + unplayed, delayed=True).matches == draw.matches


def test_top_down_backtracks_to_avoid_a_repeat():
    """6 teams placed 1-6; met 1-2, 3-4, 5-6, 2-5, 2-6. Plain top-down (1-3, 2-4) leaves
    5-6, a repeat. By hand: 1-3 and 1-4 leave 2 needing 3 and then 5-6; 1-5 leaves 2-3 and
    4-6, all new. So 1 meets 5, the highest team it can meet with no repeat anywhere."""
    met = {frozenset(p) for p in (("1", "2"), ("3", "4"), ("5", "6"), ("2", "5"), ("2", "6"))}
    pairs, repeats = top_down_pairs(["1", "2", "3", "4", "5", "6"], met)
    assert pairs == [("1", "5"), ("2", "3"), ("4", "6")]
    assert repeats == 0


def test_forced_repeat_is_kept_to_one():
    """6 teams; team 1 has met all five, and 3-4, 5-6, 3-5, 4-6 have met. One repeat is
    forced (team 1's). Top-down: 1-2 (a repeat either way, 2 the highest); then 3 has met 4
    and 5, so 3-6; 4-5 is new. One repeat, where 1v2 3v4 5v6 would have three."""
    pairs_met = [("1", x) for x in "23456"] + [("3", "4"), ("5", "6"), ("3", "5"), ("4", "6")]
    met = {frozenset(p) for p in pairs_met}
    pairs, repeats = top_down_pairs(["1", "2", "3", "4", "5", "6"], met)
    assert pairs == [("1", "2"), ("3", "6"), ("4", "5")]
    assert repeats == 1


def test_odd_number_bye_to_lowest_without_one():
    """5 teams placed T1…T5 (assigned VPs 50 … 10); T5 had the round-1 bye, so the bye
    goes to T4, the lowest-ranked team without one; T1-T2 and T3-T5 play."""
    teams = numbered(5)
    matches = [MatchPlayed(1, "T5", None, Fraction(0))]
    adjust = {f"T{i}": Fraction(60 - 10 * i) for i in range(1, 6)}
    draw = swiss_draw(teams, matches, vp_adjustments=adjust, home_rule=HomeRule.HIGHER_RANKED)
    assert draw.byes == ("T4",)
    assert [(p.table, p.home, p.away) for p in draw.matches] == [(1, "T1", "T2"), (2, "T3", "T5")]


def test_late_joiners_meet_each_other_by_lot():
    """Seed 000 Swiss Plate: joining teams "match up against each other … by means of a
    random draw". The lot is random.Random(seed) on the joiners in a fixed order, so the
    same seed gives the same draw and another seed may differ."""
    teams = numbered(8)
    matches = [played(1, "T1", "T2", 12, 8), played(1, "T3", "T4", 11, 9)]
    joiners = ["T5", "T6", "T7", "T8"]
    a = swiss_draw(teams, matches, joiners=joiners, lot_seed=7)
    b = swiss_draw(teams, matches, joiners=joiners, lot_seed=7)
    assert a == b and a.lot_seed == 7
    lot = sorted(joiners)
    random.Random(7).shuffle(lot)
    joined = {frozenset((p.home, p.away)) for p in a.matches[2:]}
    assert joined == {frozenset(lot[:2]), frozenset(lot[2:])}
    assert {frozenset((p.home, p.away)) for p in a.matches[:2]} == {
        frozenset(("T1", "T3")),
        frozenset(("T2", "T4")),
    }
    with pytest.raises(ValueError, match="lot seed"):
        swiss_draw(teams, matches, joiners=joiners)


def test_joiners_match_sits_at_its_table_by_the_standing():
    """Table 1 for the top match, joiners' matches included. 6 teams after round 1 (T1-T2
    16:4, T3-T4 14:6, T5-T6 12:8: VPs 16 14 12 8 6 4); T7 and T8 join with the average of
    the 3rd and 4th teams (seed 001's rule: (12 + 8) / 2 = 10). Standing T1 16, T3 14, T5
    12, T7 10, T8 10 (level: no IMPs given, team-number order), T6 8, T4 6, T2 4. Top-down
    for the others: T1-T3; T5 has met T6, so T5-T4; T6-T2. The joiners meet each other:
    T7-T8, whose better team is 4th, so at table 3, above T6-T2."""
    teams = numbered(8)
    r1 = [played(1, "T1", "T2", 16, 4), played(1, "T3", "T4", 14, 6), played(1, "T5", "T6", 12, 8)]
    joiners = {"T7": Fraction(10), "T8": Fraction(10)}
    draw = swiss_draw(teams, r1, joiners=joiners, vp_adjustments=joiners, lot_seed=1)
    assert [(p.table, p.home, p.away) for p in draw.matches] == [
        (1, "T3", "T1"),
        (2, "T5", "T4"),
        (3, "T8", "T7"),
        (4, "T6", "T2"),
    ]
    assert draw.repeats == 0


# -- properties ---------------------------------------------------------------------------
def brute_force(order: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]]:
    """Every perfect matching; the one with fewest repeats, then top-down (each team, from
    the top, the highest-placed opponent possible)."""

    def matchings(left: list[str]):
        if not left:
            yield []
            return
        top = left[0]
        for j in left[1:]:
            rest = [t for t in left if t not in (top, j)]
            for m in matchings(rest):
                yield [(top, j), *m]

    place = {t: i for i, t in enumerate(order)}

    def key(m):
        opp = {}
        for a, b in m:
            opp[a], opp[b] = b, a
        return (sum(frozenset(p) in met for p in m), [place[opp[t]] for t in order])

    return min(matchings(list(order)), key=key)


@st.composite
def fields(draw, max_teams: int = 10):
    n = draw(st.integers(1, max_teams // 2)) * 2
    order = [f"T{i}" for i in range(1, n + 1)]
    all_pairs = list(itertools.combinations(order, 2))
    met = draw(st.sets(st.sampled_from(all_pairs), max_size=len(all_pairs)))
    return order, {frozenset(p) for p in met}


@settings(max_examples=300, deadline=None)
@given(fields())
def test_property_same_draw_as_brute_force(case):
    """Every team once; no repeat when a repeat-free perfect matching exists, else the
    fewest; and top-down among those: checked against all perfect matchings (n ≤ 10)."""
    order, met = case
    pairs, repeats = top_down_pairs(order, met)
    assert sorted(t for p in pairs for t in p) == sorted(order)
    expected = brute_force(order, met)
    assert pairs == expected
    assert repeats == sum(frozenset(p) in met for p in expected)


@settings(max_examples=100, deadline=None)
@given(fields(max_teams=8))
def test_property_minimum_cost_perfect_matching(case):
    """The draw is networkx's minimum-cost perfect matching under ``pair_cost``."""
    order, met = case
    n = len(order)
    graph = nx.Graph()
    for i, j in itertools.combinations(range(n), 2):
        graph.add_edge(i, j, weight=pair_cost(i, j, frozenset((order[i], order[j])) in met, n))
    best = sorted(tuple(sorted(e)) for e in nx.min_weight_matching(graph))
    pairs, _ = top_down_pairs(order, met)
    index = {t: i for i, t in enumerate(order)}
    assert sorted((index[a], index[b]) for a, b in pairs) == best


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9), st.integers(1, 4), st.integers(0, 10**6))
def test_property_top_match_on_table_1(half, rounds, seed):
    """After random rounds, table 1 holds the leader (VP, then IMP quotient, then team
    number: no lot seed given) and every team plays once or has the bye."""
    rng = random.Random(seed)
    teams = numbered(2 * half + rng.randint(0, 1))
    matches: list[MatchPlayed] = []
    for _ in range(rounds):
        draw = swiss_draw(teams, matches)
        seen = [t for p in draw.matches for t in (p.home, p.away)] + list(draw.byes)
        assert sorted(seen) == sorted(t.team for t in teams)
        for p in draw.matches:
            vp = rng.randint(0, 20)
            matches.append(played(draw.round, p.home, p.away, vp, 20 - vp))
        matches += [MatchPlayed(draw.round, b, None, Fraction(12)) for b in draw.byes]
    draw = swiss_draw(teams, matches)
    vp = {t.team: Fraction(0) for t in teams}
    for m in matches:
        vp[m.home] += m.home_vp or 0
        if m.away:
            vp[m.away] += m.away_vp or 0
    top = max(vp.values())
    leaders = [t.team for t in teams if vp[t.team] == top]
    table_1 = {draw.matches[0].home, draw.matches[0].away}
    if set(leaders) - set(draw.byes):
        assert table_1 & (set(leaders) - set(draw.byes))


def test_a_team_withdrawn_since_keeps_its_opponents_vps_in_the_standing():
    """D19, a team withdraws: it is not drawn again, but the VPs its opponents won against
    it stand. T4 (home, the higher number, seed 000 §8) lost 5-15 to T3; with T4 gone, T3
    still leads on 15 VP."""
    from scoring.draw.standing import current_standing

    teams = numbered(3)  # T4 withdrew
    matches = [played(1, "T4", "T3", 5, 15), played(1, "T1", "T2", 10, 10)]
    assert current_standing(teams, matches)[0] == "T3"
