"""Choice of opponent, inherited ranking, absent choosers and withdrawals, checked against
seed 001 (I.2 KNOCKOUT PHASE) and seed 002 (§16 Val av motståndare CC, §17 Väljande lag
som inte är närvarande, Val av motståndare Bonuscupen, SM Lag Veteran). Team "R7" is the
team ranked 7 unless a test says otherwise."""

from __future__ import annotations

import pytest

from scoring.errors import ScoringInputError
from scoring.knockout.choice import (
    WALK_OVER,
    ChoiceProcedure,
    ChoiceRefused,
    Contender,
    fold,
    inherited_rank,
)


def ranked(first: int, last: int) -> list[Contender]:
    return [Contender(f"R{r}", r) for r in range(first, last + 1)]


def names(teams: tuple[Contender, ...]) -> list[str]:
    return [c.team for c in teams]


def play(proc: ChoiceProcedure, *choices: tuple[str, str]) -> ChoiceProcedure:
    for chooser, chosen in choices:
        proc = proc.choose(chooser, chosen)
    return proc


# -- seed 002 Bonus Cup: brackets (fold) and inherited ranking ----------------------------


def test_bc32a_33_meets_64_and_34_meets_63() -> None:
    """Seed 002 BC32-A: "laget rankat 33 kommer automatiskt att möta laget rankat 64, 34
    möta 63 och så vidare": the ranks of each pair add up to 33 + 64 = 97, 16 pairs, the
    last 48 v 49. The order the teams are handed in does not matter."""
    pairs = fold(list(reversed(ranked(33, 64))))
    assert pairs[:2] == (("R33", "R64"), ("R34", "R63"))
    assert pairs[-1] == ("R48", "R49")
    assert [int(a[1:]) + int(b[1:]) for a, b in pairs] == [97] * 16


def test_bonus_cup_winner_takes_the_better_rank_of_the_beaten_team() -> None:
    """Seed 002 BC: "övertagen placering ifall man slagit ett lag med bättre ranking":
    64 beats 33 → 33; 34 beats 63 → keeps 34."""
    assert inherited_rank(64, 33) == 33
    assert inherited_rank(34, 63) == 34
    with pytest.raises(ScoringInputError, match="whole number"):
        inherited_rank(0, 5)


def test_bc32b_cc32_losers_then_bc32a_winners_with_inherited_ranks() -> None:
    """Seed 002 BC32-B by hand. CC32 losers (qualification ranks): 3 and 7 (beaten by 31
    and 32) and 17-30, i.e. positions 1-16 = 3, 7, 17, 18, …, 30. BC32-A: 64 beat 33
    (takes 33), 50 beat 47 (takes 47), 49 beat 48 (takes 48), 34-46 beat 63-51 (keep
    theirs). So positions 17-32 = 64(33), 34, 35, …, 46, 50(47), 49(48).
    Brackets, 1 v 32: 3 v 49, 7 v 50, 17 v 46, 18 v 45, …, 29 v 34, and 16 v 17: 30 v 64."""
    cc_losers = [Contender(f"R{r}", r) for r in [3, 7, *range(17, 31)]]
    bc_results = [(64, 33), (50, 47), (49, 48), *((w, 97 - w) for w in range(34, 47))]
    bc_winners = [Contender(f"R{w}", inherited_rank(w, lost)) for w, lost in bc_results]
    expected = (
        ("R3", "R49"),
        ("R7", "R50"),
        *((f"R{14 + k}", f"R{49 - k}") for k in range(3, 16)),
        ("R30", "R64"),
    )
    assert fold(bc_winners + cc_losers) == expected


# -- seed 002 Chairman's Cup and veterans; seed 001 R16 ------------------------------------


def test_cc32_1_to_16_choose_in_turn_among_17_to_32() -> None:
    """Seed 002 §16: "Inför CC32 väljer lagen placerade 1-16 … motståndare bland lagen
    17-32. Därnäst väljer tvåan bland de återstående". 1 takes 32; 2 may then choose
    17-31, not 32 (taken) nor 5 (upper half), and 3 may not choose before 2. Team i takes
    33 - i for i = 1..15; 16 gets the one left: 17."""
    proc = ChoiceProcedure.top_half(list(reversed(ranked(1, 32))))
    assert proc.next_chooser() == Contender("R1", 1)
    assert names(proc.options()) == [f"R{r}" for r in range(17, 33)]
    proc = proc.choose("R1", "R32")
    assert names(proc.options()) == [f"R{r}" for r in range(17, 32)]
    with pytest.raises(ChoiceRefused, match="R32 already plays R1"):
        proc.choose("R2", "R32")
    with pytest.raises(ChoiceRefused, match="R5 is a choosing team"):
        proc.choose("R2", "R5")
    with pytest.raises(ChoiceRefused, match="R2's turn"):
        proc.choose("R3", "R20")
    with pytest.raises(ChoiceRefused, match="is to be chosen"):
        proc.choose("R20", "R21")
    proc = play(proc, *((f"R{i}", f"R{33 - i}") for i in range(2, 16)))
    assert proc.done and proc.next_chooser() is None
    assert proc.pairs[-1] == ("R16", "R17")
    assert len(proc.pairs) == 16


def test_seed001_r16_first_chooses_among_9th_to_16th() -> None:
    """Seed 001 R16: the 1st chooses "among the teams placed 8th-16th", then the 2nd …:
    with 8 choosers that can only be 9th-16th (the 8th chooses itself)."""
    proc = ChoiceProcedure.top_half(ranked(1, 16))
    assert names(proc.options()) == [f"R{r}" for r in range(9, 17)]


def test_cc16_winners_at_tables_1_to_8_choose_table_1_first() -> None:
    """Seed 002 §16: "Inför CC16 väljer vinnarna vid borden 1-8 motståndare bland
    vinnarna vid borden 9-16; vinnarna vid bord 1 startar, därnäst … bord 2". Table 2's
    winner (ranked 24, an upset) chooses before table 3's (ranked 3): turn by table, not
    by rank. Tables 1-7 take 16, 15, …, 10; table 8 gets table 9's winner."""
    tables = [1, 24, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
    teams = [Contender(f"T{t}", rank) for t, rank in enumerate(tables, start=1)]
    proc = ChoiceProcedure.listed(teams[:8], teams[8:])
    assert proc.next_chooser() == teams[0]
    proc = proc.choose("T1", "T16")
    assert proc.next_chooser() == teams[1]
    proc = play(proc, *((f"T{t}", f"T{17 - t}") for t in range(2, 8)))
    assert proc.done and proc.pairs[-1] == ("T8", "T9")


def test_veterans_qf1_winners_choose_among_qf3_and_qf4() -> None:
    """Seed 002 SM Lag Veteran: "Segrarna i kvartsfinal 1 … väljer motståndare bland
    kvartsfinal 3 och 4. Segrarna i kvartsfinal 2 får den motståndare som blir över"."""
    q = [Contender(f"QF{i}", rank) for i, rank in enumerate([1, 6, 3, 4], start=1)]
    proc = ChoiceProcedure.listed(q[:2], q[2:])
    assert names(proc.options()) == ["QF3", "QF4"]
    proc = proc.choose("QF1", "QF4")
    assert proc.done and proc.pairs == (("QF1", "QF4"), ("QF2", "QF3"))


# -- seed 001 same-country rules -----------------------------------------------------------


def quarter_finalists(countries: str) -> list[Contender]:
    """Ranks 1-8 with the countries given letter by letter (P = Poland)."""
    return [Contender(f"{land}{r}", r, land) for r, land in enumerate(countries, start=1)]


def test_qf_three_of_one_country_one_chooses_a_compatriot() -> None:
    """Seed 001 QF, 3 Poles (1, 4, 6): "if one, having first right to draw will choose
    another as the opponent, it is over": P1 takes P4; then 2 may choose anyone, P6 too."""
    proc = ChoiceProcedure.by_rank(quarter_finalists("PABPCPDE"), ["same_country"])
    assert names(proc.options()) == ["A2", "B3", "P4", "C5", "P6", "D7", "E8"]
    proc = proc.choose("P1", "P4")
    assert proc.pairs == (("P1", "P4"),)
    assert names(proc.options()) == ["B3", "C5", "P6", "D7", "E8"]


def test_qf_three_of_one_country_one_chooses_a_foreigner() -> None:
    """Seed 001 QF, 3 Poles (1, 4, 6): "if it chooses team of another country, remaining
    teams are paired automatically": P1 takes E8 → P4 v P6 at once; then 2 chooses among
    3, 5, 7."""
    proc = ChoiceProcedure.by_rank(quarter_finalists("PABPCPDE"), ["same_country"])
    proc = proc.choose("P1", "E8")
    assert proc.pairs == (("P1", "E8"), ("P4", "P6"))
    assert proc.next_chooser() == Contender("A2", 2, "A")
    assert names(proc.options()) == ["B3", "C5", "D7"]


def test_qf_three_of_one_country_all_subject_to_draw() -> None:
    """Seed 001 QF, 3 Poles (5, 6, 7): "If all three teams are subject to draw, when one
    of them is chosen, remaining teams are paired automatically": 1 takes P6 → P5 v P7;
    then 2 chooses among 3, 4 and 8: it takes 4, and 3 v 8 are left."""
    proc = ChoiceProcedure.by_rank(quarter_finalists("ABCDPPPE"), ["same_country"])
    proc = proc.choose("A1", "P6")
    assert proc.pairs == (("A1", "P6"), ("P5", "P7"))
    assert names(proc.options()) == ["C3", "D4", "E8"]
    proc = proc.choose("B2", "D4")
    assert proc.done and proc.pairs[-1] == ("C3", "E8")


def test_qf_two_of_one_country_general_rule() -> None:
    """Seed 001 has no rule for two compatriots in the QF: P1 may choose P2 or a
    foreigner."""
    proc = ChoiceProcedure.by_rank(quarter_finalists("PPABCDEF"), ["same_country"])
    assert names(proc.options()) == ["P2", "A3", "B4", "C5", "D6", "E7", "F8"]


def test_qf_four_of_one_country() -> None:
    """Seed 001 QF, 4 Poles (2, 3, 6, 8): "the highest placed … will choose its opponent
    of 3 other teams, while 2 remaining will play one against another". A1 may choose
    only foreigners (4, 5, 7): it takes C7. P2 chooses among P3, P6, P8: takes P8 → P3 v
    P6 at once, and B4 v C5 are left."""
    proc = ChoiceProcedure.by_rank(quarter_finalists("APPBCPCP"), ["same_country"])
    assert names(proc.options()) == ["B4", "C5", "C7"]
    with pytest.raises(ChoiceRefused, match="one country"):
        proc.choose("A1", "P2")
    proc = proc.choose("A1", "C7")
    assert names(proc.options()) == ["P3", "P6", "P8"]
    proc = proc.choose("P2", "P8")
    assert proc.done
    assert proc.pairs == (("A1", "C7"), ("P2", "P8"), ("P3", "P6"), ("B4", "C5"))


def test_sf_two_of_one_country_play_each_other() -> None:
    """Seed 001 SF: "If two teams of the same country qualify to semifinal, they will play
    against each other": Poles 1 and 4 → P1 v P4 and A2 v B3, no choice made."""
    teams = [Contender("P1", 1, "P"), Contender("A2", 2, "A"), Contender("B3", 3, "B")]
    proc = ChoiceProcedure.by_rank([*teams, Contender("P4", 4, "P")], ["same_country"])
    assert proc.done and proc.pairs == (("P1", "P4"), ("A2", "B3"))


def test_sf_of_four_countries_the_first_chooses() -> None:
    """Seed 001 SF: the highest placed chooses among the three others; the rest play."""
    sf = [Contender(f"{c}{r}", r, c) for r, c in enumerate("ABCD", start=1)]
    proc = ChoiceProcedure.by_rank(sf, ["same_country"])
    assert names(proc.options()) == ["B2", "C3", "D4"]
    assert proc.choose("A1", "C3").pairs == (("A1", "C3"), ("B2", "D4"))


def test_same_country_beyond_the_seed_is_refused() -> None:
    """Seed 001 covers 3 or 4 quarter-finalists of one country: 5 is left to the
    director; a team without a country cannot be judged; the rule is for 8 or 4 teams."""
    with pytest.raises(ScoringInputError, match="3 or 4"):
        ChoiceProcedure.by_rank(quarter_finalists("PPPPPABC"), ["same_country"])
    with pytest.raises(ScoringInputError, match="country"):
        ChoiceProcedure.by_rank(ranked(1, 8), ["same_country"])
    with pytest.raises(ScoringInputError, match="8 or 4"):
        ChoiceProcedure.by_rank(quarter_finalists("PPPABC"), ["same_country"])
    with pytest.raises(ScoringInputError, match="allowed: none"):
        ChoiceProcedure.top_half(quarter_finalists("PPPABCDE"), ["same_country"])


# -- seed 002 §17: absent choosers; BC08-A: withdrawals ------------------------------------


def test_absent_chooser_loses_its_turn_and_chooses_on_arrival() -> None:
    """Seed 002 §17: "går turen till nästa lag … får de välja bland då kvarvarande lag på
    den ursprungliga undre halvan". 1 absent: 2 chooses (takes 8); 1 arrives and chooses
    next among 5-7 (takes 5); 3 takes 7; 4 gets 6. 1 keeps its table (first match)."""
    proc = ChoiceProcedure.top_half(ranked(1, 8)).absent("R1")
    assert proc.next_chooser() == Contender("R2", 2)
    with pytest.raises(ChoiceRefused, match="absent"):
        proc.choose("R1", "R5")
    proc = proc.choose("R2", "R8").arrived("R1")
    assert proc.next_chooser() == Contender("R1", 1)
    assert names(proc.options()) == ["R5", "R6", "R7"]
    proc = play(proc, ("R1", "R5"), ("R3", "R7"))
    assert proc.done
    assert proc.pairs == (("R2", "R8"), ("R1", "R5"), ("R3", "R7"), ("R4", "R6"))
    assert proc.match_pairs[0] == ("R1", "R5")


def test_absent_chooser_who_never_arrives_gets_the_team_left() -> None:
    """Seed 002 §17: "tilldelas de det lag som blivit över": 1 absent, 2-4 take 5-7, so 1
    gets 8 (no other team could be its opponent)."""
    proc = ChoiceProcedure.top_half(ranked(1, 8)).absent("R1")
    proc = play(proc, ("R2", "R5"), ("R3", "R6"), ("R4", "R7"))
    assert proc.done and proc.pairs[-1] == ("R1", "R8")


def test_several_absent_best_placed_gets_worst_placed_left() -> None:
    """Seed 002 §17: "tilldelas det bäst placerade laget det sämst placerade … det näst
    bäst placerade det näst sämst placerade": 1 and 3 absent, 2 takes 5, 4 takes 6; 7 and
    8 are left; closing gives 1 v 8 and 3 v 7. Closing is refused while a present team is
    still to choose."""
    proc = ChoiceProcedure.top_half(ranked(1, 8)).absent("R1").absent("R3")
    with pytest.raises(ChoiceRefused, match="R2 is present"):
        proc.close()
    proc = play(proc, ("R2", "R5"), ("R4", "R6"))
    assert proc.next_chooser() is None and names(proc.waiting) == ["R1", "R3"]
    proc = proc.close()
    assert proc.done and proc.pairs[2:] == (("R1", "R8"), ("R3", "R7"))
    assert proc.match_pairs == (("R1", "R8"), ("R2", "R5"), ("R3", "R7"), ("R4", "R6"))


def test_bc08a_withdrawal_among_1_to_4_moves_5_up() -> None:
    """Seed 002 BC08-A: "Vid ett avhopp bland lagen 1-4 … flyttas laget rankat 5 upp till
    väljande position". 3 withdraws: 1, 2, 4, 5 choose among 6-8. 1 takes 8, 2 takes 6;
    4 has only 7 left; 5 is left without an opponent: a walk over."""
    proc = ChoiceProcedure.top_half(ranked(1, 8)).withdraw("R3")
    assert names(proc.options()) == ["R6", "R7", "R8"]
    proc = play(proc, ("R1", "R8"), ("R2", "R6"))
    assert proc.done
    assert proc.pairs == (("R1", "R8"), ("R2", "R6"), ("R4", "R7"), ("R5", WALK_OVER))


def test_bc08a_two_withdrawals_move_5_and_6_up() -> None:
    """Seed 002 BC08-A: "vid två avhopp flyttas även laget rankat 6 upp": 1 and 4 withdraw
    → 2, 3, 5, 6 choose among 7 and 8."""
    proc = ChoiceProcedure.top_half(ranked(1, 8)).withdraw("R1").withdraw("R4")
    assert proc.next_chooser() == Contender("R2", 2)
    assert names(proc.options()) == ["R7", "R8"]


def test_later_withdrawal_is_a_walk_over_not_a_new_choice() -> None:
    """Seed 002 BC08-A: "Senare avhopp räknas som walk over": once paired, a team cannot
    withdraw from the choice; and only choices by the better half have the rule."""
    proc = ChoiceProcedure.top_half(ranked(1, 8)).choose("R1", "R8")
    with pytest.raises(ChoiceRefused, match="walk over"):
        proc.withdraw("R8")
    with pytest.raises(ChoiceRefused, match="better half"):
        ChoiceProcedure.by_rank(ranked(1, 8)).withdraw("R3")


# -- input and commands --------------------------------------------------------------------


def test_choice_may_name_contenders_and_unknown_teams_are_refused() -> None:
    """The routing code replays choices with Contender values; a name not in the choice
    is refused with the list of teams."""
    proc = ChoiceProcedure.top_half(ranked(1, 4))
    assert proc.choose(Contender("R1", 1), Contender("R4", 4)).pairs == (
        ("R1", "R4"),
        ("R2", "R3"),
    )
    with pytest.raises(ChoiceRefused, match="no team 'R9'"):
        proc.choose("R1", "R9")


def test_invalid_procedures_are_refused() -> None:
    with pytest.raises(ScoringInputError, match="as many choosers"):
        ChoiceProcedure.listed(ranked(1, 2), ranked(3, 5))
    with pytest.raises(ScoringInputError, match="twice"):
        ChoiceProcedure.top_half([Contender("A", 1), Contender("A", 2)])
    with pytest.raises(ScoringInputError, match="even number"):
        ChoiceProcedure.by_rank(ranked(1, 3))
    with pytest.raises(ScoringInputError, match="unknown rule"):
        ChoiceProcedure.by_rank(ranked(1, 4), ["same_club"])
