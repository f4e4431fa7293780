"""docs/web-terminal.md `hand`: the page gets a played board's four hands by seat, whichever
seat the PBN deal string starts from (PBN 2.1 §3.4.11: "the first hand is that of the given
seat, the others follow clockwise"), and the double-dummy tricks by strain and declarer."""

from __future__ import annotations

from hub.live.port.port_views import HandView
from hub.web_terminal.views import hand

# all 13 spades with North, hearts East, diamonds South, clubs West: written from East
SPADES, HEARTS, DIAMONDS, CLUBS = "AKQJT98765432", "AKQJT98765432", "AKQJT98765432", "AKQJT98765432"
FROM_EAST = f"E:.{HEARTS}.. ..{DIAMONDS}. ...{CLUBS} {SPADES}..."


def test_hands_by_seat_whatever_seat_the_deal_starts_from():
    view = HandView("A", 1, FROM_EAST, tuple(range(20)), 1510, "NS 1510: 7♠ N", "N 7♠")
    msg = hand(view)
    assert msg["hands"] == {
        "N": [SPADES, "", "", ""],
        "E": ["", HEARTS, "", ""],
        "S": ["", "", DIAMONDS, ""],
        "W": ["", "", "", CLUBS],
    }
    # HAND_RECORD's order: NT, ♠, ♥, ♦, ♣, each by N, S, E, W
    assert msg["tricks"]["NT"] == {"N": 0, "S": 1, "E": 2, "W": 3}
    assert msg["tricks"]["C"] == {"N": 16, "S": 17, "E": 18, "W": 19}
    assert (msg["par_score"], msg["par"], msg["makeable"]) == (1510, "NS 1510: 7♠ N", "N 7♠")
