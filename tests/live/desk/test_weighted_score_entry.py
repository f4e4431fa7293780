"""Weights of a Law 12C1(c) weighted score as the director types them (issue [EVENING] "the
director's desk", TD trial F4; reviewer R1). Two defects found in review:

- a weight was read with ``Fraction(text)``, which also reads exponents: "1e-9999999" (10
  characters, within the desk's 12) took seconds to read, on the hub's loop, and
  "1e-99999999" minutes: the whole room stopped for one typo;
- weights with large denominators on several tables overflowed the score arrays' 64-bit
  integers, an ``OverflowError`` that took the board's scoring down instead of a refusal.
"""

from __future__ import annotations

import time

import pytest

from hub.api.desk_models import ResultLine
from hub.event.movement.howell import howell
from hub.live.desk.desk_entries import DeskRefusal, desk_entry
from scoring.errors import ScoringInputError
from scoring.matchpoints import MatchpointRules, score_matchpoints
from scoring.traveller import Artificial, Traveller, TravellerLine, parse_weight


@pytest.mark.parametrize("typed", ["1e-9999999", "1E5", "0x10", "1_0/2", "½"])
def test_a_weight_in_another_form_is_refused_at_once(typed):
    began = time.monotonic()
    with pytest.raises(ScoringInputError, match=r"write 1/2, 0\.25 or 30%"):
        parse_weight(typed)
    assert time.monotonic() - began < 0.5


@pytest.mark.parametrize(
    ("typed", "weight"),
    [("1/2", (1, 2)), ("1/3", (1, 3)), ("0.25", (1, 4)), (".75", (3, 4)), ("30%", (3, 10)),
     ("12.5%", (1, 8)), ("0.125", (1, 8)), ("1", (1, 1))],
)  # fmt: skip
def test_the_weights_a_td_writes_are_read(typed, weight):
    w = parse_weight(typed)
    assert (w.numerator, w.denominator) == weight


def test_a_weight_finer_than_hundredths_is_refused():
    with pytest.raises(ScoringInputError, match="finer than hundredths"):
        parse_weight("1/999")


def test_the_desk_refuses_an_exponent_weight_with_the_reason():
    """The director's enter_result with a weighted score whose weight is "1e-9999999": a
    DeskRefusal naming the weight, at once (the hub's loop is not held)."""
    line = ResultLine(
        section="A",
        table=1,
        round=1,
        board=1,
        weighted=[
            {"weight": "1e-9999999", "contract": "4S", "declarer": "N", "result": "="},
            {"weight": "1/2", "contract": "4S", "declarer": "N", "result": "-1"},
        ],
    )
    began = time.monotonic()
    with pytest.raises(DeskRefusal, match="1e-9999999"):
        desk_entry({"A": howell(3, 2)}, line, "TD")
    assert time.monotonic() - began < 0.5


def test_weights_too_fine_to_combine_are_a_refusal_not_an_overflow():
    """Ten tables with weighted scores 1/p and (p-1)/p for ten primes p (allowed weights,
    denominators under 100): every combination's weight has the denominator
    97·89·83·79·73·71·67·61·59·53 ≈ 8·10^18, times the matchpoint top, past 2^63 - 1. The
    board is refused with the reason (a ScoringInputError, which the standings turn into
    "left out"), not an OverflowError that took the board's scoring down."""
    primes = [97, 89, 83, 79, 73, 71, 67, 61, 59, 53]
    lines = [TravellerLine(1, 11, 420)] + [
        TravellerLine(k + 2, k + 12, None, Artificial.parse(f"1/{p} 4S N =; {p - 1}/{p} 4S N -1"))
        for k, p in enumerate(primes)
    ]
    with pytest.raises(ScoringInputError, match="too fine to combine"):
        score_matchpoints(Traveller.of(1, lines), MatchpointRules())
