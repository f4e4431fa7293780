"""The base-station adapter's outgoing half (decisions D18): the hub's views as wire
messages, in the room's pair numbers, and a hub message a terminal did not take as the
port's ``Undelivered``. Used by ``hub/live/port/base_station.py``; value mapping only."""

from __future__ import annotations

from fractions import Fraction

from drivers.protocol import messages as wire
from drivers.protocol.link import GaveUp, Nacked
from hub.event.pair_labels import Numbering, field_named, room
from hub.live.port import terminal_port as port
from hub.live.views.base import TravellerView
from scoring.numbers import round_half_away

SEATS = "NESW"


WHAT = {
    wire.Assignment: "assignment",
    wire.ResultView: "result_view",
    wire.RankingPage: "ranking",
    wire.TDMessage: "message",
    wire.PlayerName: "player_name",
    wire.NextSeating: "next_seating",
    wire.Settings: "settings",
    wire.HandRecord: "hand_record",
    wire.MatchScore: "match_score",
}


def undelivered(
    name: str, ev: Nacked | GaveUp, numbering: Numbering | None = None
) -> port.Undelivered:
    """A hub message the terminal refused (NAK) or never answered (the link gave up); an
    assignment in the hub's pair numbers again."""
    ref, m = port.TerminalRef(name, ev.terminal), ev.message
    what = WHAT.get(type(m), type(m).__name__.lower())
    assignment = None
    if isinstance(m, wire.Assignment):
        labels = (numbering or {}).get(m.section)
        ns, ew = m.ns_pair, m.ew_pair
        if labels is not None:
            ns, ew = (
                labels.at_seat(m.table, m.round, True, ns),
                labels.at_seat(m.table, m.round, False, ew),
            )
        assignment = port.TableAssignment(m.section, m.table, m.round, ns, ew, tuple(m.boards))
    if isinstance(ev, GaveUp):
        return port.Undelivered(ref, what, tries=ev.tries, assignment=assignment)
    code = int(ev.code)
    code_name = ev.code.name if isinstance(ev.code, wire.NakCode) else f"code {code}"
    return port.Undelivered(ref, what, code, code_name, ev.text, assignment=assignment)


def result_view(view: TravellerView, numbering: Numbering | None = None) -> wire.ResultView:
    n = numbering or {}
    entries = tuple(
        wire.TravellerEntry(
            room(n, view.section, r.ns_pair),
            room(n, view.section, r.ew_pair),
            r.contract,
            SEATS.index(r.declarer) if r.declarer else wire.NO_DECLARER,
            r.tricks if r.tricks is not None else wire.NO_TRICKS,
            r.score_ns,
            round_half_away(r.value * 100),
        )
        for r in view.rows[:64]
    )
    return wire.ResultView(
        view.section,
        view.board,
        view.own_score_ns,
        round_half_away(view.own_value * 100),
        1 if view.imps else 0,
        entries,
    )


def wire_name(numbering: Numbering, section: str, line: port.RankingLine) -> str:
    """A ranking line's names, a Mitchell's field said first."""
    labels = numbering.get(section)
    return line.names if labels is None else field_named(labels, line.entrant, line.names)


def hand_record(v: port.HandView) -> wire.HandRecord:
    return wire.HandRecord(v.section, v.board, v.deal, v.tricks, v.par_score, v.par, v.makeable)


def match_score(v: port.MatchScoreView, numbering: Numbering | None = None) -> wire.MatchScore:
    """A team match's running score: IMPs and VPs in hundredths, rounded half away from 0."""
    n = numbering or {}

    def c(x: Fraction) -> int:
        return round_half_away(x * 100)

    return wire.MatchScore(
        v.section,
        v.round,
        room(n, v.section, v.home),
        room(n, v.section, v.away),
        c(v.home_imps),
        c(v.away_imps),
        c(v.home_vp),
        c(v.away_vp),
        v.scored,
        v.out,
        v.home_name,
        v.away_name,
    )
