"""Draws made while a team event runs (decisions D19): Swiss, Danish and Monrad.

Pure rules like the rest of ``scoring/``: no I/O, exact numbers, and every lot drawn from
a seed the result carries, so a draw can be reproduced and audited.
"""

from scoring.draw.danish import danish_draw
from scoring.draw.model import Draw, MatchPlayed, Pairing, Team
from scoring.draw.monrad import monrad_draw
from scoring.draw.seating import HomeRule
from scoring.draw.swiss import predrawn_round, swiss_draw

__all__ = [
    "Draw",
    "HomeRule",
    "MatchPlayed",
    "Pairing",
    "Team",
    "danish_draw",
    "monrad_draw",
    "predrawn_round",
    "swiss_draw",
]
