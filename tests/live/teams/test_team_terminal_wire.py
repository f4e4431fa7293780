"""MATCH_SCORE (0x29, docs/protocol.md §4.6) and the browser terminal's ``match_score``
(docs/web-terminal.md): a team match's running score as hardware terminals and phones get
it. Values are hundredths rounded half away from zero (§4.1), exact on the browser."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

from drivers.protocol import messages as wire
from drivers.protocol.layout import misdirected
from drivers.protocol.link import Received
from hub.live.port.base_station import BaseStationPort
from hub.live.port.base_station_views import match_score
from hub.live.port.port_views import MatchScoreView
from hub.live.teams.team_tables import ShowsMatchScore
from hub.web_terminal import views
from hub.web_terminal.port import WebTerminalPort
from simulator.bots import PlayerBot
from simulator.terminal import VirtualTerminal

# Lions (1) v Foxes (4): 10 IMPs plus a carry-over of 1/10 IMP to the Lions; VPs 823/50
# (16.46) and 177/50 (3.54); the closed room has one board of two still to play
VIEW = MatchScoreView(
    "A", 3, 1, 4, "Lions", "Foxes", Fraction(101, 10), Fraction(0),
    Fraction(823, 50), Fraction(177, 50), 1, 1,
)  # fmt: skip


def test_match_score_travels_in_hundredths_and_decodes_as_sent():
    msg = match_score(VIEW)
    assert (msg.section, msg.round, msg.home, msg.away) == ("A", 3, 1, 4)
    assert (msg.home_imps, msg.away_imps, msg.home_vp, msg.away_vp) == (1010, 0, 1646, 354)
    assert (msg.scored, msg.out, msg.home_name, msg.away_name) == (1, 1, "Lions", "Foxes")
    assert wire.decode_message(wire.MatchScore.TYPE, msg.payload()) == msg
    assert wire.MatchScore.TYPE == 0x29 and wire.MatchScore.NEEDS_ACK


def test_hundredths_round_half_away_from_zero():
    """§4.1: 3.545 VP is 355 hundredths, 16.455 is 1646 (half away from zero), -2.005
    IMPs (never sent, but the rule is one) -201."""
    view = MatchScoreView(
        "A", 1, 1, 4, "", "", Fraction(-401, 200), Fraction(0),
        Fraction(3291, 200), Fraction(709, 200), 1, 0,
    )  # fmt: skip
    msg = match_score(view)
    assert (msg.home_imps, msg.home_vp, msg.away_vp) == (-201, 1646, 355)


def test_a_terminal_never_sends_match_score():
    """The hub's own message: refused from a terminal (NAK 20), as the others are."""
    assert "MatchScore is the hub's message" in (misdirected(match_score(VIEW), 5) or "")


def test_the_browser_gets_exact_values_beside_their_display():
    msg = views.match_score({}, VIEW)
    assert msg["type"] == "match_score"
    assert (msg["home_label"], msg["away_label"]) == ("1", "4")
    assert (msg["home_imps"], msg["home_vp"], msg["away_vp"]) == ("101/10", "823/50", "177/50")
    assert (msg["home_imps_text"], msg["away_imps_text"]) == ("10.10", "0")
    assert (msg["home_vp_text"], msg["away_vp_text"]) == ("16.46", "3.54")
    assert (msg["scored"], msg["out"]) == (1, 1)


def test_the_simulated_terminal_takes_match_score():
    """The simulator's terminal acknowledges MATCH_SCORE and shows it."""
    acked: list[Received] = []
    terminal = VirtualTerminal(1, "BM-1", "A", 1, PlayerBot(seed=1))
    terminal.station = SimpleNamespace(  # type: ignore[assignment]
        link=SimpleNamespace(ack=acked.append), wake=lambda: None
    )
    rx = Received(1, 7, 3, match_score(VIEW))
    terminal.on_event(rx)
    assert acked == [rx]
    assert terminal.log.shown[-1].startswith("match 1-4: 1646-354")


def test_the_base_station_and_the_browser_ports_carry_the_match_score():
    """Both kinds of table terminal get it: MATCH_SCORE on the wire, ``match_score`` in
    the browser (a port without ``match_score`` shows none: ``ShowsMatchScore``)."""
    sent: list[tuple[int, wire.Message]] = []
    driver = SimpleNamespace(send=lambda address, m: sent.append((address, m)))
    port = BaseStationPort(driver, "line")  # type: ignore[arg-type]
    assert isinstance(port, ShowsMatchScore)
    port.match_score(5, VIEW)
    assert sent == [(5, match_score(VIEW))]
    assert issubclass(WebTerminalPort, ShowsMatchScore)
