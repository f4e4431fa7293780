"""What the director types for a score, checked before it is sent: a result as played
(contract, declarer, result, lead), an artificial score (``A+/A-``, ``60/40`` …) or a
Law 12C1(c) weighted score (``1/2 4S N =; 1/2 4S N -1``). Pure (the scoring rules'
own parsers), so a typing mistake is shown next to its field at once and never reaches
the hub; the hub checks everything again (the movement, the pairs, the event's rules)."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from scoring.contract import parse_play
from scoring.deal import normalise_card
from scoring.errors import ScoringInputError
from scoring.traveller import Artificial

# every artificial score a TD assigns (Law 12C2 and the averages), as offered in the forms
ARTIFICIAL = ("A+/A-", "A-/A+", "A/A", "A+/A+", "A-/A-", "60/40", "40/60", "50/50")
ARTIFICIAL_HINT = (
    "A+/A-  A-/A+  A/A  A+/A+  A-/A-  60/40  40/60  50/50 (A+, A, A- at the event's "
    "percentages), or NS%/EW% as 55/45"
)
WEIGHTED_HINT = "weight and result: 1/2 4S N =  (the weights add up to 1)"
PLAYED_HINT = "contract declarer result lead: 4S N = HA, 3NTX S -2, PASS"


class FieldError(ValueError):
    """What is wrong with one field of a form (``field`` names it), in the TD's words."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def played(contract: str, declarer: str, result: str, lead: str = "") -> dict[str, Any]:
    """A result as played: ``contract, declarer, result`` (and ``lead`` when typed), as
    ``enter_result`` takes them; the contract's own rules check it (a declarer for a
    contract, no result for a pass-out, tricks that can be made)."""
    try:
        play = parse_play(contract, declarer, result)
        card = normalise_card(lead) if lead.strip() else ""
    except ScoringInputError as e:
        raise FieldError(e.field, e.message) from None
    if play.contract is None:
        if card:
            raise FieldError("lead", "a passed-out board has no lead")
        return {"contract": "PASS", "declarer": "", "result": ""}
    assert play.declarer is not None
    args: dict[str, Any] = {
        "contract": str(play.contract),
        "declarer": play.declarer.name,
        "result": play.result_text,
    }
    if card:
        args["lead"] = card
    return args


def artificial(text: str) -> dict[str, Any]:
    """An artificial score for both sides (``A+/A-``, ``A/A``, ``60/40`` …)."""
    try:
        Artificial.parse(text)
    except ScoringInputError as e:
        raise FieldError("adjusted", e.message) from None
    return {"adjusted": text.strip().upper().replace(" ", "")}


def weight(text: str) -> Fraction:
    """A weight as a TD writes it: ``1/2``, ``0.5`` or ``50%``; more than 0, at most 1."""
    raw = text.strip()
    try:
        w = Fraction(raw[:-1]) / 100 if raw.endswith("%") else Fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise FieldError(
            "weighted", f"weight {text!r} is not a fraction: write 1/2, 1/3, 0.25 or 50%"
        ) from None
    if not 0 < w <= 1:
        raise FieldError("weighted", f"weight {text!r} must be more than 0 and at most 1")
    return w


def weighted_line(text: str) -> dict[str, Any]:
    """One line of a weighted score: the weight, then the result (``1/2 4S N =``)."""
    words = text.split()
    if len(words) < 2:
        raise FieldError("weighted", f"{text!r}: write the weight, then the result: 1/2 4S N =")
    w = weight(words[0])
    rest = [*words[1:], "", "", ""]
    args = played(rest[0], rest[1], rest[2])
    return {"weight": str(w), **args}


def weighted(lines: list[str]) -> list[dict[str, Any]]:
    """A Law 12C1(c) weighted score: two or more results whose weights add up to 1."""
    parts = [weighted_line(x) for x in lines if x.strip()]
    if len(parts) < 2:
        raise FieldError("weighted", "a weighted score has two results or more, one a line")
    total = sum(Fraction(p["weight"]) for p in parts)
    if total != 1:
        raise FieldError("weighted", f"the weights add up to {total}, not 1")
    return parts


_ARTIFICIAL_RE = re.compile(r"^\s*(A[+-]?|\d{1,3}(\.\d+)?%?)\s*/\s*(A[+-]?|\d{1,3}(\.\d+)?%?)\s*$")


def score(text: str) -> dict[str, Any]:
    """One typed line of a slip or traveller: an artificial score (``A+/A-``, ``60/40``),
    a weighted score (``1/2 4S N =; 1/2 4S N -1``) or a result as played
    (``4S N = HA``, ``PASS``); the arguments ``enter_result`` takes for it."""
    if not text.strip():
        raise FieldError("score", "nothing typed: a result (4S N = HA), A+/A- or 60/40")
    if _ARTIFICIAL_RE.match(text.upper()) or (
        "/" in text and ";" not in text and " " not in text.strip()
    ):
        return artificial(text)
    if ";" in text:
        return {"weighted": weighted(text.split(";"))}
    words = [*text.split(), "", "", "", ""]
    if words[0].upper() in ("PASS", "P", "AP", "PASSED") and len(text.split()) > 1:
        raise FieldError("result", "a passed-out board has nothing after PASS")
    if len(text.split()) > 4:
        raise FieldError("score", f"{text!r}: write contract, declarer, result and lead at most")
    return played(words[0], words[1], words[2], words[3])


def number(field: str, text: str, what: str) -> int:
    """A table, round, board or pair number typed in a form."""
    raw = text.strip()
    if not raw.isdigit() or int(raw) < 1:
        raise FieldError(field, f"{what} must be a number from 1, not {text!r}")
    return int(raw)


def describe(args: dict[str, Any]) -> str:
    """A score as the log and the confirmations show it: ``4S N = HA``, ``A+/A-``, or
    ``1/2 4S N =; 1/2 4S N -1``."""
    if args.get("adjusted"):
        return str(args["adjusted"])
    if args.get("weighted"):
        return "; ".join(f"{w['weight']} {describe(w)}" for w in args["weighted"])
    words = [args.get("contract", ""), args.get("declarer", ""), args.get("result", "")]
    words.append(args.get("lead", ""))
    return " ".join(w for w in words if w)
