"""Danish draws (issue 16; seed 001, online senior teams, "QUALIFICATION SWISS": "First 8
matches … played as the Danish"; "The seeding to the 1st round matches will be based on …
average WBF Senior Masterpoints of all team members (1st vs 2nd, 3rd vs 4th etc.)").

Danish: every round 1v2, 3v4 … by the current standing, repeats allowed (the digest's
reading of "Danish", domain.md). The standing is seed 001's own rule, the WBF procedure of
its section XII. The 8-round reference standing is computed here from the VPs, then the IMP
quotient (A.1, C.1), then team number, not by the code under test; the test checks that no
two teams are level on both there, so the later WBF steps (tested on their own below) do
not come into play.
"""

from __future__ import annotations

import random
from fractions import Fraction

from scoring.draw.danish import danish_draw
from scoring.draw.model import MatchPlayed, Team

# average masterpoints, deliberately not in team-number order
MASTERPOINTS = {
    1: "40.5",
    2: "112",
    3: "87.25",
    4: "112",
    5: "9",
    6: "260.75",
    7: "87.5",
    8: "150",
    9: "33",
    10: "71",
}


def teams() -> list[Team]:
    return [Team(f"T{n}", f"Team {n}", n, Fraction(mp)) for n, mp in MASTERPOINTS.items()]


def test_round_1_seeded_by_average_masterpoints():
    """By hand: 260.75 (T6), 150 (T8), 112 (T2 and T4: team number breaks the level),
    87.5 (T7), 87.25 (T3), 71 (T10), 40.5 (T1), 33 (T9), 9 (T5). So T6-T8, T2-T4, T7-T3,
    T10-T1, T9-T5 at tables 1-5, the better seed at home."""
    draw = danish_draw(teams(), [])
    assert draw.round == 1
    assert [(p.table, p.home, p.away) for p in draw.matches] == [
        (1, "T6", "T8"),
        (2, "T2", "T4"),
        (3, "T7", "T3"),
        (4, "T10", "T1"),
        (5, "T9", "T5"),
    ]
    assert draw.byes == () and draw.repeats == 0


def test_round_2_by_standing_after_round_1():
    """Round 1 results (VP out of 20): T6-T8 15:5, T2-T4 4:16, T7-T3 10:10 (IMPs 20:20),
    T10-T1 18:2, T9-T5 10:10 (IMPs 30:10 — T9 ahead on IMP quotient, 3 against 1/3).
    Standing by hand: T10 18, T4 16, T6 15, then four teams on 10: T9 (quotient 3), T7 and
    T3 (quotient 1: team number puts T3 first), T5 (1/3); then T8 5, T2 4, T1 2.
    Round 2: T10-T4, T6-T9, T3-T7, T5-T8, T2-T1."""
    r1 = [
        MatchPlayed(1, "T6", "T8", Fraction(15), Fraction(5), Fraction(25), Fraction(5)),
        MatchPlayed(1, "T2", "T4", Fraction(4), Fraction(16), Fraction(3), Fraction(30)),
        MatchPlayed(1, "T7", "T3", Fraction(10), Fraction(10), Fraction(20), Fraction(20)),
        MatchPlayed(1, "T10", "T1", Fraction(18), Fraction(2), Fraction(40), Fraction(2)),
        MatchPlayed(1, "T9", "T5", Fraction(10), Fraction(10), Fraction(30), Fraction(10)),
    ]
    draw = danish_draw(teams(), r1)
    assert [(p.home, p.away) for p in draw.matches] == [
        ("T10", "T4"),
        ("T6", "T9"),
        ("T3", "T7"),
        ("T5", "T8"),
        ("T2", "T1"),
    ]


def test_repeats_allowed():
    """Two teams that stay 1st and 2nd meet again: T1 and T2 win both rounds big, so round 3
    is T1-T2 once more (a repeat counted, not avoided)."""
    four = [Team(f"T{n}", number=n) for n in range(1, 5)]
    matches = [
        MatchPlayed(1, "T1", "T3", Fraction(20), Fraction(0)),
        MatchPlayed(1, "T2", "T4", Fraction(19), Fraction(1)),
        MatchPlayed(2, "T1", "T4", Fraction(20), Fraction(0)),
        MatchPlayed(2, "T2", "T3", Fraction(19), Fraction(1)),
        MatchPlayed(3, "T1", "T2", Fraction(11), Fraction(9)),
        MatchPlayed(3, "T3", "T4", Fraction(10), Fraction(10)),
    ]
    draw = danish_draw(four, matches)
    assert draw.round == 4
    assert [(p.home, p.away) for p in draw.matches] == [("T1", "T2"), ("T3", "T4")]
    assert draw.repeats == 2


def wbf_case() -> tuple[list[Team], list[MatchPlayed]]:
    """T1 and T2 level on VP and IMP quotient after two rounds, T2 having won their match."""
    four = [Team(f"T{n}", number=n) for n in range(1, 5)]
    f = Fraction
    matches = [
        MatchPlayed(1, "T1", "T2", f(8), f(12), f(10), f(20)),
        MatchPlayed(1, "T3", "T4", f(10), f(10), f(15), f(15)),
        MatchPlayed(2, "T1", "T3", f(12), f(8), f(20), f(10)),
        MatchPlayed(2, "T2", "T4", f(8), f(12), f(10), f(20)),
    ]
    return four, matches


def test_standing_by_seed_001_wbf_procedure_head_to_head():
    """Seed 001 XII A (two teams): IMP quotient, then IMPs in their match. T1: 8 + 12 = 20
    VP, IMPs 10 + 20 won, 20 + 10 lost (quotient 1); T2: 12 + 8 = 20 VP, 20 + 10 won, 10 +
    20 lost (1). A.2: T2 won their match 20-10, so T2 is above T1 (team-number order would
    say T1). T4: 22 VP; T3: 18. Round 3: T4-T2, T1-T3, both met in round 2 or 1: two
    repeats, which a Danish allows."""
    four, matches = wbf_case()
    draw = danish_draw(four, matches)
    assert [(p.table, p.home, p.away) for p in draw.matches] == [(1, "T4", "T2"), (2, "T1", "T3")]
    assert draw.repeats == 2


def reference_order(entrants: list[Team], matches: list[MatchPlayed]) -> list[str]:
    vp = {t.team: Fraction(0) for t in entrants}
    won = {t.team: Fraction(0) for t in entrants}
    lost = {t.team: Fraction(0) for t in entrants}
    for m in matches:
        assert m.away and m.home_vp is not None and m.away_vp is not None
        assert m.home_imps is not None and m.away_imps is not None
        vp[m.home] += m.home_vp
        vp[m.away] += m.away_vp
        won[m.home] += m.home_imps
        lost[m.home] += m.away_imps
        won[m.away] += m.away_imps
        lost[m.away] += m.home_imps

    def quotient(t: str) -> Fraction:
        return won[t] / lost[t] if lost[t] else Fraction(10**9 if won[t] else 1)

    keys = [(vp[t.team], quotient(t.team)) for t in entrants]
    assert len(set(keys)) == len(keys), "two teams level on VP and IMP quotient"
    by_number = sorted(entrants, key=lambda t: t.number)
    return [t.team for t in sorted(by_number, key=lambda t: (-vp[t.team], -quotient(t.team)))]


def test_a_danish_of_8_rounds():
    """Seed 001's qualification: 8 Danish rounds of 14 boards. Each round's pairs are
    1v2, 3v4 … of the reference standing after the rounds before (round 1 by masterpoints),
    with illustrative results (IMPs drawn at random, VPs 20-0 split by a linear rule)."""
    rng = random.Random(2023)
    entrants = teams()
    matches: list[MatchPlayed] = []
    for rnd in range(1, 9):
        draw = danish_draw(entrants, matches)
        assert draw.round == rnd
        order = (
            reference_order(entrants, matches)
            if rnd > 1
            else [t.team for t in sorted(entrants, key=lambda t: (-t.masterpoints, t.number))]
        )
        assert [(p.home, p.away) for p in draw.matches] == [
            (order[i], order[i + 1]) for i in range(0, len(order), 2)
        ]
        for p in draw.matches:
            a, b = rng.randint(0, 60), rng.randint(0, 60)
            vp = Fraction(min(20, max(0, 10 + (a - b) // 3)))
            matches.append(MatchPlayed(rnd, p.home, p.away, vp, 20 - vp, Fraction(a), Fraction(b)))
