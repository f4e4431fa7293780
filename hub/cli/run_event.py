"""Which event ``bridgehub run --event FILE`` runs: the stored event that is this file, a new
one in an empty store, or a refusal that says what the store holds and what changed in
the file since (TD trial F11); never silently another event. Worker threads (store reads)."""

from __future__ import annotations

from pathlib import Path

from hub.event.event_file import EventFileError, parse_event
from hub.event.movement.model import MovementError
from hub.event.vp_table_file import anchor_vp_table
from hub.store.store import Store, StoreError


def event_to_run(store: Store, event_file: Path, given: int | None) -> int:
    """The event ``bridgehub run --event FILE`` runs: ``--event-id`` when given; else the
    stored event that is this file (same content, comments and layout aside); else, in an
    empty store, the file stored as a new event. Never silently another event: a file that
    matches none or several stored events is refused with the choices."""
    ids = store.event_ids()
    if given is not None:
        if given not in ids:
            holds = f"it holds {_listed(store, ids)}" if ids else "it holds no event: check --db"
            raise StoreError(f"no event {given} in this store ({holds})")
        return given
    text = event_file.read_text("utf-8")
    if not ids:
        return store.create_event(text, base_dir=event_file.parent, source=str(event_file))
    wanted = parse_event(anchor_vp_table(text, event_file.parent, str(event_file)))
    as_written = parse_event(text, str(event_file))  # stored before VP tables were anchored
    same = [i for i in ids if store.event(i) in (wanted, as_written)]
    if len(same) == 1:
        return same[0]
    if same:
        raise StoreError(
            f"{event_file} is stored more than once here ({_listed(store, same)}): "
            "choose one with --event-id N"
        )
    raise StoreError(_changed_file(store, event_file, ids))


def _changed_file(store: Store, event_file: Path, ids: list[int]) -> str:
    """What to do when the event file matches no stored event (most often a TD who edited
    it between evenings): continue the stored event as it was created, by its number (the
    edits are not used), or start the edited file as a new event in a store of its own."""
    if len(ids) == 1:
        go_on = (
            f"to continue it as it was created (your edits to the file are not used), add "
            f"--event-id {ids[0]}"
        )
    else:
        go_on = "to continue one of them as it was created, add --event-id N (its number above)"
    fresh = event_file.with_name(event_file.stem + "-new.db")
    changed = differences(store, ids[0], event_file) if len(ids) == 1 else []
    return (
        f"{event_file} is not the event stored here ({_listed(store, ids)}); was it changed "
        f"after the event was created? {go_on[0].upper()}{go_on[1:]}; to run the file as it "
        f"is now as a new event, give it a store of its own, e.g. --db sqlite:///{fresh}"
    ) + "".join(f"\n  - {line}" for line in changed)


def differences(store: Store, event_id: int, event_file: Path) -> list[str]:
    """How the event file differs from the stored event (event_diff); [] if it cannot say."""
    try:
        text = event_file.read_text("utf-8")
        return store.differences_from_file(event_id, text, event_file.parent, str(event_file))
    except (EventFileError, MovementError, StoreError, OSError):
        return []


def _listed(store: Store, ids: list[int]) -> str:
    return ", ".join(f"event {i} {store.event(i).event.name!r}" for i in ids)
