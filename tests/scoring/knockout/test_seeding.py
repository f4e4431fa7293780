"""Seed 003 (Czech Bridge Open KO 1999) §9-§12: the bracket size by entries, team Elo,
the starting numbers (N/4 seeded by Elo, the rest by lot), the standard placing of the
numbers and the first round with byes. Expected values are worked by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringInputError
from scoring.knockout.seeding import (
    bracket_size,
    first_round,
    ranked_numbers,
    seed_numbers,
    standard_order,
    team_elo,
)


def numbered(n: int) -> tuple[str, ...]:
    """Teams called by their starting number: N1, N2 …"""
    return tuple(f"N{i}" for i in range(1, n + 1))


# §10: team Elo


def test_seed_003_elo_rounds_half_up_600_50_to_601():
    """§10.1 "600,50 na 601": players 600 and 601, mean 1201/2 = 600.50 → 601."""
    assert team_elo([600, 601]) == 601
    assert team_elo([Fraction(60050, 100)]) == 601


def test_seed_003_elo_rounds_600_49_down_to_600():
    """§10.1 "600,49 na 600"; also 600, 600, 601: mean 1801/3 = 600.33 → 600, and 599,
    601, 602: mean 1802/3 = 600.67 → 601."""
    assert team_elo([Fraction(60049, 100)]) == 600
    assert team_elo([600, 600, 601]) == 600
    assert team_elo([599, 601, 602]) == 601


def test_seed_003_elo_is_the_mean_of_the_known_players_only():
    """§10.1 "těch hráčů družstva, pro něž je známo": 700, unknown, 650, unknown → the mean
    of 700 and 650 = 675 (not 1350/4)."""
    assert team_elo([700, None, 650, None]) == 675


def test_seed_003_elo_500_when_none_is_known():
    """§10.2: no player's Elo known → 500."""
    assert team_elo([None, None, None, None]) == 500
    assert team_elo([]) == 500


def test_a_negative_elo_is_refused():
    with pytest.raises(ScoringInputError, match="0 or more"):
        team_elo([600, -1])


# §9: the bracket size


@pytest.mark.parametrize(
    ("entries", "size"),
    [(8, 8), (5, 8), (9, 16), (16, 16), (17, 32), (21, 32), (32, 32), (33, 64), (65, 128)],
)
def test_seed_003_bracket_size_by_entries(entries, size):
    """§9.2: 8 teams → 8; 9-16 → 16; 17-32 → 32; 33 and more → the like 2^k scheme."""
    assert bracket_size(entries) == size


def test_fewer_than_two_entries_are_refused():
    with pytest.raises(ScoringInputError, match="at least 2"):
        bracket_size(1)


# the standard placing


def test_standard_order_of_8_and_16():
    """Doubling: 2 → 1 2; 4 → 1 4 2 3; 8 → 1 8 4 5 2 7 3 6; 16: each x of 8's order
    followed by 17-x: 1 16 8 9 4 13 5 12 2 15 7 10 3 14 6 11."""
    assert standard_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert standard_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


@settings(max_examples=20)
@given(st.integers(min_value=1, max_value=8))
def test_standard_placing_keeps_the_best_apart(k):
    """The standard bracket of 2^k: every number once; each part of size/2^j (the part
    whose winner plays in the round of 2^j) holds exactly one of the numbers 1 … 2^j, so 1
    and 2 meet only in the final, 1 and 4 (in the same half) in the semi-final; and the
    first round pairs x with 2^k+1-x."""
    size = 2**k
    order = standard_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert (1 in order[: size // 2]) != (2 in order[: size // 2])
    for j in range(k + 1):
        part = size // 2**j
        for start in range(0, size, part):
            assert len([x for x in order[start : start + part] if x <= 2**j]) == 1
    assert all(a + b == size + 1 for a, b in zip(order[::2], order[1::2], strict=True))


# §11: the starting numbers


def test_seed_003_the_n_over_4_best_elo_are_numbered_1_to_n_over_4():
    """§11.1-2, a bracket of 16 (9 teams): 16/4 = 4 seeded: A 700, B 680, C 660, D 640 get
    1, 2, 3, 4 by falling Elo; E-I (630 … 500) are numbered 5-9 by lot."""
    ratings = {"E": 630, "B": 680, "F": 620, "D": 640, "A": 700, "G": 610, "C": 660, "H": 600}
    ratings["I"] = 500
    numbers = seed_numbers(ratings, 16, lot_seed=7)
    assert numbers[:4] == ("A", "B", "C", "D")
    assert sorted(numbers[4:]) == ["E", "F", "G", "H", "I"]


@settings(max_examples=40)
@given(
    st.lists(st.integers(min_value=0, max_value=2000), min_size=17, max_size=32, unique=True),
    st.integers(min_value=0, max_value=2**31),
)
def test_seed_003_the_8_seeded_of_32_are_the_8_best_elo(elos, seed):
    """§11.1: a bracket of 32 seeds 32/4 = 8 teams, the 8 of highest Elo, numbered 1-8 by
    falling Elo; every team has exactly one number."""
    ratings = {f"T{i}": elo for i, elo in enumerate(elos)}
    numbers = seed_numbers(ratings, 32, seed)
    best = sorted(ratings, key=lambda t: -ratings[t])[:8]
    assert list(numbers[:8]) == best
    assert sorted(numbers) == sorted(ratings)


def test_seed_003_the_lot_is_reproducible_from_its_seed():
    """§11.3: the unseeded are numbered by lot; the same seed gives the same numbers, and
    the order the teams are handed in does not matter."""
    ratings = {f"T{i}": 600 + i for i in range(21)}
    backwards = dict(reversed(ratings.items()))
    assert seed_numbers(ratings, 32, 12345) == seed_numbers(backwards, 32, 12345)


def test_seed_003_different_lot_seeds_give_different_numbers():
    """21 teams in 32: 8 seeded, 13 drawn (13! orders); 20 seeds give 20 different
    orders of the drawn teams, the seeded the same each time."""
    ratings = {f"T{i}": 600 + i for i in range(21)}
    draws = [seed_numbers(ratings, 32, seed) for seed in range(20)]
    assert len({d[8:] for d in draws}) == 20
    assert len({d[:8] for d in draws}) == 1


def test_equal_elo_at_the_boundary_of_the_seeded_is_decided_by_the_lot():
    """A bracket of 8 seeds 2: A 700, then B and C both 690: one of B, C is number 2,
    decided by the lot of the seed: the same seed the same one, and both happen."""
    ratings = {"A": 700, "B": 690, "C": 690, "D": 600, "E": 600, "F": 600}
    seconds = {seed_numbers(ratings, 8, seed)[1] for seed in range(40)}
    assert seconds == {"B", "C"}
    assert seed_numbers(ratings, 8, 3)[1] == seed_numbers(ratings, 8, 3)[1]


def test_more_teams_than_the_bracket_are_refused():
    with pytest.raises(ScoringInputError, match="2 to 8 teams"):
        seed_numbers({f"T{i}": 600 for i in range(9)}, 8, 1)


# --seeding rank


def test_ranked_numbers_follow_the_ranks():
    """Each team numbered by its rank: T3 first, T1 second, T2 third."""
    assert ranked_numbers({"T1": 2, "T2": 3, "T3": 1}) == ("T3", "T1", "T2")


def test_ranked_numbers_refuse_a_rank_twice():
    with pytest.raises(ScoringInputError, match="rank 2 is given to T1 and T2"):
        ranked_numbers({"T1": 2, "T2": 2, "T3": 1})


def test_ranked_numbers_refuse_a_gap():
    """Ranks 1, 2, 4 of three teams: 3 is missing."""
    with pytest.raises(ScoringInputError, match="1 to 3, each once: 3 missing"):
        ranked_numbers({"T1": 1, "T2": 2, "T3": 4})


# §11.4 and §12.2: the first round


def test_seed_003_eight_teams_play_1v8_4v5_2v7_3v6():
    """A full bracket of 8, no byes; the lower number (listed first) at home (§12.2)."""
    assert first_round(numbered(8), 8) == (
        ("N1", "N8"),
        ("N4", "N5"),
        ("N2", "N7"),
        ("N3", "N6"),
    )


def test_seed_003_21_teams_bracket_of_32_numbers_22_to_32_missing_1_to_11_byes():
    """§11.4: 21 teams → 32; numbers 22-32 are missing, so their opponents 33-22 = 11 …
    33-32 = 1 go through: teams 1-11 have byes; 12 v 21 … 16 v 17 play."""
    matches = first_round(numbered(21), bracket_size(21))
    assert len(matches) == 16
    byes = sorted(int(home[1:]) for home, away in matches if away is None)
    assert byes == list(range(1, 12))
    played = sorted((int(h[1:]), int(a[1:])) for h, a in matches if a is not None)
    assert played == [(12, 21), (13, 20), (14, 19), (15, 18), (16, 17)]


def test_seed_003_9_teams_bracket_of_16_only_8_v_9_plays():
    """9 teams → 16; numbers 10-16 missing: 1-7 have byes, 8 v 9 is the one match, the
    second from the top (order 1 16 8 9 …)."""
    matches = first_round(numbered(9), bracket_size(9))
    assert matches[1] == ("N8", "N9")
    assert [m for i, m in enumerate(matches) if i != 1] == [
        ("N1", None),
        ("N4", None),
        ("N5", None),
        ("N2", None),
        ("N7", None),
        ("N3", None),
        ("N6", None),
    ]


def test_seed_003_33_teams_need_a_bracket_of_64_with_31_byes():
    """33 teams → 64 (§9.2, "2^k"): numbers 34-64 missing, so 1-31 have byes and 32 v 33
    is the one match played."""
    matches = first_round(numbered(33), bracket_size(33))
    assert len(matches) == 32
    assert [m for m in matches if m[1] is not None] == [("N32", "N33")]


def test_a_bracket_with_a_match_of_no_team_is_refused():
    """4 teams in a bracket of 8: 1-4 all have byes (5-8 missing); with 3 teams 4 is
    missing too, so 4 v 5 would have no team at all."""
    assert first_round(numbered(4), 8) == (("N1", None), ("N4", None), ("N2", None), ("N3", None))
    with pytest.raises(ScoringInputError, match="4 to 8 teams"):
        first_round(numbered(3), 8)
