"""Contract scores by Law 77 of the Laws of Duplicate Bridge."""

from __future__ import annotations

from functools import cache

from scoring.board import Side, Vulnerability
from scoring.contract import Contract, Doubling, Play, Strain

_UNDERTRICKS_DOUBLED = {False: (100, 200, 200, 300), True: (200, 300, 300, 300)}


def trick_score(contract: Contract) -> int:
    """Score for the odd tricks bid and made, with doubling (decides game or part-score)."""
    if contract.strain is Strain.NOTRUMP:
        base = 40 + 30 * (contract.level - 1)
    elif contract.strain.is_minor:
        base = 20 * contract.level
    else:
        base = 30 * contract.level
    return base * contract.doubling.value


def declarer_score(contract: Contract, tricks: int, vulnerable: bool) -> int:
    """Score to the declaring side (negative when defeated)."""
    need = contract.tricks_needed
    dbl = contract.doubling
    if tricks >= need:
        ts = trick_score(contract)
        score = ts
        score += (500 if vulnerable else 300) if ts >= 100 else 50
        if contract.level == 6:
            score += 750 if vulnerable else 500
        elif contract.level == 7:
            score += 1500 if vulnerable else 1000
        over = tricks - need
        if dbl is Doubling.NONE:
            score += over * (20 if contract.strain.is_minor else 30)
        else:
            score += over * (200 if vulnerable else 100) * (dbl.value // 2)
            score += 50 * (dbl.value // 2)  # insult: 50 doubled, 100 redoubled
        return score
    down = need - tricks
    if dbl is Doubling.NONE:
        return -down * (100 if vulnerable else 50)
    steps = _UNDERTRICKS_DOUBLED[vulnerable]
    penalty = sum(steps[min(i, 3)] for i in range(down))
    return -penalty * (dbl.value // 2)


def score_ns(play: Play, vulnerability: Vulnerability) -> int:
    """The NS score of a table result (0 for a pass-out)."""
    if play.contract is None or play.declarer is None or play.tricks is None:
        return 0
    side = play.declarer.side
    s = declarer_score(play.contract, play.tricks, vulnerability.is_vulnerable(side))
    return s if side is Side.NS else -s


@cache
def possible_ns_scores(vulnerability: Vulnerability) -> frozenset[int]:
    """Every NS score any contract and result can give at this vulnerability."""
    scores = {0}
    for side in Side:
        vul = vulnerability.is_vulnerable(side)
        sign = 1 if side is Side.NS else -1
        for level in range(1, 8):
            for strain in Strain:
                for dbl in Doubling:
                    c = Contract(level, strain, dbl)
                    for tricks in range(14):
                        scores.add(sign * declarer_score(c, tricks, vul))
    return frozenset(scores)
