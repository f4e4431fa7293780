"""Pair labels as the room writes them ("NS 3", "EW 3", or "7"), in the report's language."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hub.event.movement.model import Movement
from hub.event.pair_labels import PairLabels
from hub.report.cells import label_in


def labeller(section: str, movement: Movement, words: Mapping[str, str]) -> Callable[[int], str]:
    """``label(pair)`` for one section: the room's numbering (hub/event/pair_labels.py) with
    NS/EW in the report's language (Swedish "ÖV 3")."""
    labels = PairLabels.of(movement, section)

    def label(pair: int) -> str:
        return label_in(labels.label(pair), words)

    return label
