"""Lots drawn from a recorded seed (decisions D19): the same seed gives the same lot, so a
draw or a tie decided by lot can be reproduced and audited; the seed travels with the result
(``Draw.lot_seed``, the event's ``lot_seed``)."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

T = TypeVar("T", bound=Hashable)


def draw_lots(items: Iterable[T], seed: int, key: Callable[[T], Any] = str) -> tuple[T, ...]:
    """``items`` in the order a lot drawn with ``seed`` puts them.

    The items are first put in a fixed order (by ``key``), so the lot does not depend on the
    order they were handed in: ``random.Random(seed).shuffle`` of that list.
    """
    drawn = sorted(items, key=key)
    random.Random(seed).shuffle(drawn)
    return tuple(drawn)
