"""Contracts and results: every invalid input gets one error type naming field and rule."""

from __future__ import annotations

import pytest

from scoring.board import Seat
from scoring.contract import Contract, Doubling, Strain, parse_contract, parse_play, parse_tricks
from scoring.errors import ScoringInputError
from scoring.traveller import Artificial, Token


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3NT", Contract(3, Strain.NOTRUMP)),
        ("4HX", Contract(4, Strain.HEARTS, Doubling.DOUBLED)),
        ("6SXX", Contract(6, Strain.SPADES, Doubling.REDOUBLED)),
        ("1c", Contract(1, Strain.CLUBS)),
        ("2♦", Contract(2, Strain.DIAMONDS)),
        ("3N", Contract(3, Strain.NOTRUMP)),
        ("5D*", Contract(5, Strain.DIAMONDS, Doubling.DOUBLED)),
        ("PASS", None),
        ("pass", None),
    ],
)
def test_contracts_parse(text, expected):
    assert parse_contract(text) == expected


@pytest.mark.parametrize("text", ["8NT", "0S", "3Z", "4HXXX", "NT", "", "3 NT X Y"])
def test_bad_contracts_name_the_field(text):
    with pytest.raises(ScoringInputError) as e:
        parse_contract(text)
    assert e.value.field == "contract" and "level 1-7" in e.value.message


@pytest.mark.parametrize(
    ("contract", "result", "tricks"),
    [
        ("3NT", "=", 9),
        ("3NT", "+2", 11),
        ("3NT", "-3", 6),
        ("3NT", "10", 10),
        ("7NT", "0", 0),
        ("1C", "−1", 6),
    ],
)
def test_results(contract, result, tricks):
    assert parse_tricks(parse_contract(contract), result) == tricks


@pytest.mark.parametrize(
    ("contract", "result", "message"),
    [
        ("5H", "+3", "+3 is impossible for 5H: at most +2"),
        ("1NT", "-8", "-8 is impossible for 1NT: at most -7"),
        ("3NT", "14", "14 tricks is impossible: at most 13"),
        ("3NT", "made", "result 'made' is not valid: write =, +n, -n or the tricks taken 0-13"),
    ],
)
def test_impossible_results_say_what_is_allowed(contract, result, message):
    with pytest.raises(ScoringInputError) as e:
        parse_tricks(parse_contract(contract), result)
    assert e.value.field == "result" and e.value.message == message


def test_plays_need_a_declarer_and_a_pass_out_needs_nothing():
    assert parse_play("4S", "n", "=").declarer is Seat.N
    assert str(parse_play("4S", "W", "-1")) == "4S W -1"
    with pytest.raises(ScoringInputError, match="needs a declarer"):
        parse_play("4S", "", "=")
    with pytest.raises(ScoringInputError, match="not a seat"):
        parse_play("4S", "X", "=")
    with pytest.raises(ScoringInputError, match="passed-out board has no result"):
        parse_play("PASS", "", "+1")


def test_adjusted_scores():
    assert Artificial.parse("60/40").ns == 60
    assert Artificial.parse("A+/A-") == Artificial(Token.AVE_PLUS, Token.AVE_MINUS)
    assert Artificial.parse(" 60 % / A ").ew is Token.AVE
    for bad in ("60", "120/0", "B/A", "60/"):
        with pytest.raises(ScoringInputError, match="adjusted"):
            Artificial.parse(bad)
