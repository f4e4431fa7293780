"""Double-dummy flags a TD acts on (TD trial G14, issue [MENDS] #25): a 7-round club night
got 17 flags, most of them part-scores four tricks from double dummy, each withholding its
round's standings. By default a result past `double_dummy_tricks` is flagged only when the
difference wins or loses a bonus: a game or slam made at the table and not double dummy (or
the other way round), or a contract made at the table that fails double dummy.
`[rules.suspicious] double_dummy_flags = "tricks"` keeps the earlier rule (every result
past the limit).

Hand-worked (limit 3, so 4 tricks apart is past it; Law 77: a game is 3NT, 4H/4S, 5C/5D;
a contract needs 6 + its level in tricks):

| result | double dummy | bonus | default | "tricks" |
|---|---|---|---|---|
| 1C by W taking 6 (-1) | 10 (makes) | part-score failed where dd makes it: club play | - | flag |
| 4H by S taking 5 (-5) | 10 (makes) | the game is lost | flag | flag |
| 2S by N taking 8 (=) | 4 (fails) | made at the table, fails dd | flag | flag |
| 3NT by E taking 13 (+4) | 9 (makes) | game made both ways | - | flag |
| 6S by N taking 8 (-4) | 12 (makes) | the slam is lost | flag | flag |
| 2D by E taking 7 (-1) | 10 (makes) | 3 apart: within the limit | - | - |
"""

from __future__ import annotations

import pytest

from hub.event.event_file import EventFileError, parse_event
from hub.live.results.suspicious_scores import SuspiciousScores
from hub.store.store import LiveLine
from scoring.board import Seat
from scoring.contract import Strain, parse_contract
from scoring.suspicious import DoubleDummyFlags, PlayedResult, SuspicionLimits, suspicious

MAKEABLE = {
    (Seat.W, Strain.CLUBS): 10,
    (Seat.S, Strain.HEARTS): 10,
    (Seat.N, Strain.SPADES): 12,
    (Seat.E, Strain.NOTRUMP): 9,
    (Seat.E, Strain.DIAMONDS): 10,
}
CLUB_NIGHT = {  # key: (contract, declarer, tricks, the makeable tricks to use)
    "1C W 6": ("1C", Seat.W, 6, None),
    "4H S 5": ("4H", Seat.S, 5, None),
    "2S N 8": ("2S", Seat.N, 8, 4),
    "3NT E 13": ("3NT", Seat.E, 13, None),
    "6S N 8": ("6S", Seat.N, 8, None),
    "2D E 7": ("2D", Seat.E, 7, None),
}


def _flags(rule: DoubleDummyFlags) -> set[str]:
    out = set()
    for key, (contract, seat, tricks, dd) in CLUB_NIGHT.items():
        parsed = parse_contract(contract)
        assert parsed is not None
        makeable = {**MAKEABLE, (Seat.N, Strain.SPADES): dd} if dd is not None else MAKEABLE
        found = suspicious(
            [PlayedResult(key, parsed, seat, tricks)],
            SuspicionLimits(double_dummy_flags=rule),
            makeable,
        )
        out |= set(found)
    return out


def test_by_default_only_results_with_a_bonus_at_stake_are_flagged():
    """G14: the part-score four tricks under double dummy and the game made with overtricks
    are not flagged; the lost game, the lost slam and the part-score made where double
    dummy fails it are (the table above)."""
    assert SuspicionLimits().double_dummy_flags is DoubleDummyFlags.BONUS
    assert _flags(DoubleDummyFlags.BONUS) == {"4H S 5", "2S N 8", "6S N 8"}


def test_the_tricks_rule_keeps_every_result_past_the_limit():
    """`double_dummy_flags = "tricks"`: the earlier rule, every result more than 3 tricks
    away (all but 2D by E, 3 apart)."""
    assert _flags(DoubleDummyFlags.TRICKS) == set(CLUB_NIGHT) - {"2D E 7"}


def test_the_flag_says_what_is_at_stake():
    four_hearts = parse_contract("4H")
    assert four_hearts is not None
    found = suspicious([PlayedResult(1, four_hearts, Seat.S, 5)], SuspicionLimits(), MAKEABLE)
    assert found == {
        1: "4H by S taking 5, double dummy 10: 5 tricks apart, more than 3 (the game fails "
        "at the table and makes double dummy); check the result and the board"
    }


EVENT = """schema_version = 1
[event]
name = "Club night"
[rules]
scoring = "mp"
{suspicious}
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = {{ kind = "howell", tables = 3, boards_per_round = 2 }}
"""


def _line(table: int, contract: str, declarer: str, tricks: int) -> LiveLine:
    return LiveLine("A", table, 1, 1, table, table + 3, contract, declarer, tricks, None, None)


@pytest.mark.parametrize(
    ("suspicious_table", "flagged"),
    [("", {2}), ('[rules.suspicious]\ndouble_dummy_flags = "tricks"', {1, 2})],
    ids=["default-bonus", "tricks"],
)
def test_the_live_hubs_flags_follow_the_event_file(suspicious_table, flagged):
    """The live hub's check with the event's limits: board 1, 1C by W taking 6 at table 1
    (double dummy 10) and 4H by S taking 5 at table 2 (double dummy 10). By default only
    table 2 is flagged (its round's standings wait for one question, not two)."""
    event = parse_event(EVENT.format(suspicious=suspicious_table))
    checks = SuspiciousScores(event.rules.suspicious.limits())
    checks.put(_line(1, "1C", "W", 6))
    checks.put(_line(2, "4H", "S", 5))
    checks.deal_solved("A", 1, dict(MAKEABLE))
    assert {f.table for f in checks.board_flags("A", 1)} == flagged


def test_a_misspelt_rule_is_refused_with_the_choices():
    with pytest.raises(EventFileError) as refused:
        parse_event(EVENT.format(suspicious='[rules.suspicious]\ndouble_dummy_flags = "bonuses"'))
    text = str(refused.value)
    assert "rules.suspicious.double_dummy_flags" in text
    assert "'bonus'" in text and "'tricks'" in text


def test_a_doubled_part_score_that_is_a_game_counts_as_one():
    """Law 77: doubling counts in the trick score that makes a game: 2S doubled is 120, a
    game. Failed at the table (2SX by N taking 4, -4) where double dummy makes it (8), its
    game is at stake and it is flagged; undoubled, 2S is a part-score and it is not."""
    from scoring.suspicious import bonus_at_stake

    doubled, plain = parse_contract("2SX"), parse_contract("2S")
    assert doubled is not None and plain is not None
    assert bonus_at_stake(doubled, 4, 8) == "the game fails at the table and makes double dummy"
    assert bonus_at_stake(plain, 4, 8) is None
    found = suspicious(
        [PlayedResult("2SX N 4", doubled, Seat.N, 4)],
        SuspicionLimits(double_dummy_flags=DoubleDummyFlags.BONUS),
        {(Seat.N, Strain.SPADES): 8},
    )
    assert set(found) == {"2SX N 4"}
