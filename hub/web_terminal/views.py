"""What the hub shows a browser terminal (docs/web-terminal.md "Hub → browser"): the port's
verdicts and views as JSON objects. Pair numbers stay the hub's, each beside the room's
label (hub.event.pair_labels: "NS 3", "EW 3" in a Mitchell, "7" elsewhere); exact values
travel as text beside a display string.

Pure: no I/O; any thread.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hub.event.pair_labels import Numbering
from hub.live.port import terminal_port as tp
from hub.live.views.base import TravellerView
from hub.report.hands import hands_of
from scoring.numbers import display

Json = dict[str, Any]


def label(numbering: Numbering, section: str, pair: int) -> str:
    """The room's name of internal ``pair``; "" for an empty seat (0)."""
    if pair <= 0:
        return ""
    labels = numbering.get(section)
    return str(pair) if labels is None else labels.label(pair)


def answer(mid: int | None, verdict: tp.Verdict) -> Json:
    return {
        "type": "answer",
        "id": mid,
        "outcome": verdict.outcome.value,
        "reason": verdict.reason.value if verdict.reason else None,
        "text": verdict.text,
    }


def refusal(mid: int | None, reason: str, text: str) -> Json:
    """A refusal the port makes itself (``bad_request``, ``bad_code``, ``code_used``)."""
    return {"type": "answer", "id": mid, "outcome": "refused", "reason": reason, "text": text}


def assignment(n: Numbering, a: tp.TableAssignment) -> Json:
    return {
        "type": "assignment",
        "section": a.section,
        "table": a.table,
        "round": a.round,
        "ns": a.ns_pair,
        "ew": a.ew_pair,
        "ns_label": label(n, a.section, a.ns_pair),
        "ew_label": label(n, a.section, a.ew_pair),
        "boards": list(a.boards),
    }


def session(v: tp.SessionView) -> Json:
    return {
        "type": "session",
        "section": v.section,
        "rounds": v.rounds,
        "waiting": v.waiting,
        "final": v.final,
    }


def _value_text(value: Fraction, imps: bool) -> str:
    """A matchpoint percentage ("62.50") or IMPs, signed ("+3.00")."""
    text = display(value, 2)
    return f"+{text}" if imps and value > 0 else text


def hand(v: tp.HandView) -> Json:
    """A played board's hand record: the four hands by seat (spades, hearts, diamonds,
    clubs; "" for a void), double-dummy tricks by strain and declarer, par, makeable."""
    deal = hands_of(v.deal)  # a solved deal: it reads (double dummy checked it)
    seats = (deal.north, deal.east, deal.south, deal.west) if deal is not None else ()
    strains = ("NT", "S", "H", "D", "C")
    return {
        "type": "hand",
        "section": v.section,
        "board": v.board,
        "hands": {h.seat: [h.spades, h.hearts, h.diamonds, h.clubs] for h in seats},
        "tricks": {
            strain: dict(zip("NSEW", v.tricks[4 * k : 4 * k + 4], strict=True))
            for k, strain in enumerate(strains)
        },
        "par_score": v.par_score,
        "par": v.par,
        "makeable": v.makeable,
    }


def traveller(n: Numbering, v: TravellerView) -> Json:
    s = v.section
    rows = [
        {
            "ns": r.ns_pair,
            "ew": r.ew_pair,
            "ns_label": label(n, s, r.ns_pair),
            "ew_label": label(n, s, r.ew_pair),
            "contract": r.contract,
            "declarer": r.declarer,
            "tricks": r.tricks,
            "score_ns": r.score_ns,
            "value": str(r.value),
            "text": _value_text(r.value, v.imps),
        }
        for r in v.rows
    ]
    return {
        "type": "traveller",
        "section": s,
        "board": v.board,
        "own_score_ns": v.own_score_ns,
        "own_value": str(v.own_value),
        "own_text": _value_text(v.own_value, v.imps),
        "imps": v.imps,
        "rows": rows,
    }


def message(text: str, beep: bool) -> Json:
    return {"type": "message", "text": text, "beep": beep}


def ranking(n: Numbering, p: tp.RankingView) -> Json:
    lines = [
        {
            "rank": x.rank,
            "entrant": x.entrant,
            "label": label(n, p.section, x.entrant),
            "total": display(Fraction(x.total_hundredths, 100), 2),  # rounded half-up
            "text": display(Fraction(x.total_hundredths, 100), 2),
            "names": x.names,
        }
        for x in p.lines
    ]
    return {
        "type": "ranking",
        "section": p.section,
        "round": p.round,
        "page": p.page,
        "pages": p.pages,
        "lines": lines,
    }


def _imps_text(x: Fraction) -> str:
    """IMPs as players say them: whole ("10"), else two decimals ("10.10": a carry-over)."""
    return str(x.numerator) if x.denominator == 1 else display(x, 2)


def match_score(n: Numbering, v: tp.MatchScoreView) -> Json:
    """A team match's running score: IMPs and VPs exact, beside their display."""
    s = v.section
    return {
        "type": "match_score",
        "section": s,
        "round": v.round,
        "home": v.home,
        "away": v.away,
        "home_label": label(n, s, v.home),
        "away_label": label(n, s, v.away),
        "home_name": v.home_name,
        "away_name": v.away_name,
        "home_imps": str(v.home_imps),
        "away_imps": str(v.away_imps),
        "home_vp": str(v.home_vp),
        "away_vp": str(v.away_vp),
        "home_imps_text": _imps_text(v.home_imps),
        "away_imps_text": _imps_text(v.away_imps),
        "home_vp_text": display(v.home_vp, 2),
        "away_vp_text": display(v.away_vp, 2),
        "scored": v.scored,
        "out": v.out,
    }


def clock(c: tp.ClockView) -> Json:
    return {
        "type": "clock",
        "section": c.section,
        "round": c.round,
        "phase": c.phase,
        "seconds_left": c.seconds_left,
    }


def player_name(v: tp.PlayerNameView) -> Json:
    return {
        "type": "player_name",
        "section": v.section,
        "table": v.table,
        "round": v.round,
        "seat": v.seat,
        "number": v.number,
        "name": v.name,
    }


def next_seating(n: Numbering, v: tp.NextSeatingView) -> Json:
    return {
        "type": "next_seating",
        "section": v.section,
        "round": v.round,
        "pair": v.pair,
        "pair_label": label(n, v.section, v.pair),
        "table": v.table,
        "ns": v.ns,
        "opponents": v.opponents,
        "opponents_label": label(n, v.section, v.opponents),
        "boards": list(v.boards),
    }


def welcome(serial: str, event: str, event_key: str, language: str, version: int) -> Json:
    return {
        "type": "welcome",
        "serial": serial,
        "event": event,
        "event_key": event_key,
        "language": language,
        "version": version,
    }
