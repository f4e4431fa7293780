"""The room of the hand-record tests (issue [EVENING] "a lead card not in the leader's hand";
TD trial F3): ``EVENT``, a 3-table Howell (two boards a round) whose session reads its hand
records from ``hands.pbn`` beside the event; ``deals``, RealBridge boards 11-20 (tests/data,
a real PBN file) renumbered 1-10; ``pbn``, a hand-record file of deals; ``PIN``, the
director's PIN."""

from __future__ import annotations

from pathlib import Path

from event_text import one_section_event

from simulator.deals import read_deals

REALBRIDGE = Path(__file__).parent / "data" / "realbridge_2021_online_qual_open_r2.pbn"


def deals() -> dict[int, str]:
    """Boards 1-10: RealBridge 11-20 in order."""
    real = read_deals(REALBRIDGE)
    return {k: real[b] for k, b in enumerate(sorted(real), 1)}


def pbn(boards: dict[int, str]) -> str:
    """A PBN file giving each board its deal (``[Board]`` and ``[Deal]`` tags, in board order)."""
    return "".join(f'[Board "{b}"]\n[Deal "{d}"]\n\n' for b, d in sorted(boards.items()))


EVENT = one_section_event(
    "Hand records", 'kind = "howell", tables = 3, boards_per_round = 2'
).replace('name = "Evening"', 'name = "Evening"\nhand_records = "hands.pbn"')


PIN = "K7Q2M9XR"
