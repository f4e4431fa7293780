"""One entry point for every pairs scoring method: the rules object chooses the method."""

from __future__ import annotations

from collections.abc import Iterable

from scoring.board_score import BoardScore, ScoreKind
from scoring.butler import ButlerRules, score_butler
from scoring.cross_imps import CrossImpRules, score_cross_imps
from scoring.matchpoints import MatchpointRules, score_matchpoints, section_top
from scoring.traveller import Traveller

PairsRules = MatchpointRules | CrossImpRules | ButlerRules


def score_board(traveller: Traveller, rules: PairsRules) -> BoardScore:
    """Score one board by the event's method."""
    if isinstance(rules, MatchpointRules):
        return score_matchpoints(traveller, rules)
    if isinstance(rules, CrossImpRules):
        return score_cross_imps(traveller, rules)
    return score_butler(traveller, rules)


def section_rules(rules: PairsRules, plays: Iterable[int]) -> PairsRules:
    """The rules for one section's boards, given each board's count of results: at
    matchpoints the section's common top (decisions D22); IMP methods need no N."""
    return section_top(rules, plays) if isinstance(rules, MatchpointRules) else rules


def kind_of(rules: PairsRules) -> ScoreKind:
    return ScoreKind.MATCHPOINTS if isinstance(rules, MatchpointRules) else ScoreKind.IMPS
