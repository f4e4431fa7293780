"""The standings a round's publication shows (decisions D12): computed from the results of
rounds 1..r only (a later round already under way cannot leak in), with the confirmed
penalties of those rounds, by the same strategies as the live standings; each entrant
with its rank after the round before, so result screens show places gained or lost.

Pure: the hub reads the store in a worker thread and calls this there, on fresh views
that no other thread sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hub.event.event_file import EventFile
from hub.event.movement.model import Movement
from hub.live.views import LiveViews
from hub.store.store import LiveLine


def standings_after(
    event: EventFile,
    section: str,
    movement: Movement,
    lines: list[LiveLine],
    rnd: int,
    names: dict[int, str],
    penalties: Sequence[dict[str, Any]] = (),
) -> list[dict[str, Any]]:
    """The section's rows from its results and confirmed penalties of rounds 1..``rnd``."""
    views = LiveViews(event, {section: movement}, {section: names})
    views.load(
        [x for x in lines if x.section == section and x.round <= rnd],
        [
            p
            for p in penalties
            if p["section"] == section and p["status"] == "confirmed" and (p["round"] or 0) <= rnd
        ],
    )
    return views.rows(section)


def published_rows(
    event: EventFile,
    section: str,
    movement: Movement,
    lines: list[LiveLine],
    rnd: int,
    names: dict[int, str],
    penalties: Sequence[dict[str, Any]] = (),
) -> list[dict[str, Any]]:
    """The standings after round ``rnd``, each row with ``"previous_rank"``: its rank after
    round ``rnd - 1`` (None in round 1, or for an entrant with no result before)."""
    now = standings_after(event, section, movement, lines, rnd, names, penalties)
    before: dict[tuple[int, str | None], str] = {}
    if rnd > 1:
        earlier = standings_after(event, section, movement, lines, rnd - 1, names, penalties)
        before = {(r["pair"], r["direction"]): r["rank"] for r in earlier}
    return [{**r, "previous_rank": before.get((r["pair"], r["direction"]))} for r in now]
