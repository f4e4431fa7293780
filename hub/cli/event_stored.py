"""``bridgehub event create`` on a file the store already holds (TD trial G15, issue
[MENDS] #25): before, it silently made a second event, and ``bridgehub run`` then refused to
choose between the two. Now create names the stored event and stores nothing."""

from __future__ import annotations

from pathlib import Path

from hub.event.event_file import EventFileError, parse_event
from hub.event.vp_table_file import anchor_vp_table
from hub.store.store import Store


def already_stored(store: Store, file: Path) -> str | None:
    """What the TD is told when the store holds an event that is this file (same content,
    comments and layout aside, as ``bridgehub run`` matches it), or None: nothing stored
    yet, or a file that does not parse (create then names its problems)."""
    ids = store.event_ids()
    if not ids:
        return None
    try:
        text = file.read_text("utf-8")
        wanted = parse_event(anchor_vp_table(text, file.parent, str(file)), str(file))
        as_written = parse_event(text, str(file))  # stored before VP tables were anchored
    except (EventFileError, OSError, UnicodeDecodeError, ValueError):
        return None
    same = [i for i in ids if store.event(i) in (wanted, as_written)]
    if not same:
        return None
    named = ", ".join(f"event {i}: {store.event(i).event.name}" for i in same)
    return (
        f"{file} is already stored in {store.engine.url} as {named}; nothing was stored "
        f"again. Run it with: bridgehub run --event {file}"
        + ("" if len(same) == 1 else f" --event-id {same[0]}")
    )
