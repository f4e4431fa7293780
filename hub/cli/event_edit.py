"""``bridgehub event edit``: names and member numbers, a late pair or a withdrawal, in a
stored event while no hub runs it (a running hub takes the same changes from the console:
its pair commands). Refused while a hub holds the store (``hub.store.hub_lock``), so the two
never write at once; the changes are audited like the console's."""

from __future__ import annotations

import re
from dataclasses import dataclass

import click

from hub.cli.store_files import open_store
from hub.event.late_pairs import (
    changed_table_rounds,
    results_in_the_way,
    with_late_pair,
    without_pair,
)
from hub.event.movement.model import Movement, MovementError
from hub.event.pair_labels import PairLabels, PairNumberError
from hub.store.hub_lock import HubLock, HubLocked
from hub.store.store import Store, StoreError

ROOM_NUMBER = re.compile(r"^\s*(?:(NS|EW)\s*)?(\d{1,4})\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class PlayerEdit:
    """What the TD typed for one player: seat 1 or 2, a name and/or a member number."""

    seat: int
    name: str | None
    number: str | None


def pair_number(labels: PairLabels, typed: str, *, new: bool = False) -> int:
    """The hub's number of the pair the TD typed as the room writes it ("3", "NS 3",
    "EW 3"); ``new``: a late pair, not in the movement yet (Mitchell EW n is tables + n)."""
    m = ROOM_NUMBER.match(typed)
    if m is None:
        raise click.UsageError(f"--pair {typed!r}: give a pair number, as 3, NS 3 or EW 3")
    direction, n = (m.group(1) or "").upper() or None, int(m.group(2))
    if new:
        return n + labels.tables if labels.mitchell and direction == "EW" else n
    try:
        return labels.from_room(direction, n)
    except PairNumberError as e:
        raise click.ClickException(str(e)) from None


def edit_players(
    store: Store, event_id: int, section: str, pair: int, edit: PlayerEdit, actor: str
) -> list[dict[str, str]]:
    """One player's name and/or number changed; the pair's players as stored now. ``pair``
    is one the movement seats (``pair_number`` checked it): a pair the event file did not
    list (an unnamed event) is named here for the first time."""
    found = [
        c
        for c in store.contestants(event_id, section)
        if c["kind"] == "pair" and int(c["number"]) == pair
    ]
    players = [dict(p) for p in found[0]["players"] or []] if found else []
    while len(players) < edit.seat:
        players.append({"name": ""})
    if edit.name is not None:
        players[edit.seat - 1]["name"] = edit.name
    if edit.number is not None:
        players[edit.seat - 1]["number"] = edit.number
    detail = {"seat": edit.seat}
    store.set_players(
        event_id,
        section,
        pair,
        players,
        action="pair_edited",
        actor=actor,
        create=not found,
        detail=detail,
    )
    return players


@click.command("edit")
@click.option("--db", "url", required=True, help="Store URL: sqlite:///event.db or postgresql…")
@click.option("--event", "event_id", type=int, required=True)
@click.option("--section", default="A", show_default=True)
@click.option(
    "--pair", "typed", required=True, help="The pair as the room writes it: 3, NS 3, EW 3."
)
@click.option("--player", "seat", type=click.IntRange(1, 2), default=None, help="1 or 2.")
@click.option("--name", default=None, help="The player's name.")
@click.option("--number", default=None, help="The player's member number.")
@click.option("--add", "add", is_flag=True, help="A late pair, in the sit-out's place.")
@click.option("--withdraw", is_flag=True, help="The pair leaves; its opponents sit out.")
@click.option("--from-round", "from_round", type=click.IntRange(1, 999), default=None)
def edit(
    url: str,
    event_id: int,
    section: str,
    typed: str,
    seat: int | None,
    name: str | None,
    number: str | None,
    add: bool,
    withdraw: bool,
    from_round: int | None,
) -> None:
    """Edit a pair of a stored event while no hub runs it: a player's name and member
    number (--player 1|2 --name … --number …), a late pair (--add --from-round N) or a pair
    leaving (--withdraw --from-round N)."""
    if add and withdraw:
        raise click.UsageError("give --add or --withdraw, not both")
    if (add or withdraw) and from_round is None:
        raise click.UsageError("--add and --withdraw need --from-round N")
    if seat is None and (name is not None or number is not None):
        raise click.UsageError("say which player with --player 1 or --player 2")
    if not (add or withdraw or seat):
        raise click.UsageError(
            "nothing to change: give --player with --name/--number, --add or --withdraw"
        )
    store = open_store(url)
    try:
        try:
            lock = HubLock.acquire(store.engine, event_id)
        except HubLocked as e:
            raise click.ClickException(
                f"{e}: while it runs, change pairs from the console (its pair commands)"
            ) from None
        try:
            _edit(store, event_id, section, typed, seat, name, number, add, withdraw, from_round)
        finally:
            lock.release()
    finally:
        store.close()


def _edit(
    store: Store,
    event_id: int,
    section: str,
    typed: str,
    seat: int | None,
    name: str | None,
    number: str | None,
    add: bool,
    withdraw: bool,
    from_round: int | None,
) -> None:
    try:
        if section not in store.sections(event_id):
            known = ", ".join(store.sections(event_id))
            raise click.ClickException(f"event {event_id} has no section {section} ({known})")
        movement = store.movement(event_id, section)
        labels = PairLabels.of(movement, section)
        if add and from_round is not None:
            pair = pair_number(labels, typed, new=True)
            changed = with_late_pair(movement, section, from_round, pair)
            _replace(store, event_id, section, from_round, movement, changed)
            store.set_players(
                event_id,
                section,
                pair,
                [],
                action="pair_added",
                create=True,
                detail={"from_round": from_round},
            )
            click.echo(
                f"section {section}: pair {labels.label(pair)} plays from round {from_round}"
            )
        pair = pair_number(PairLabels.of(store.movement(event_id, section), section), typed)
        if withdraw and from_round is not None:
            changed = without_pair(movement, section, pair, from_round)
            _replace(store, event_id, section, from_round, movement, changed)
            click.echo(
                f"section {section}: pair {labels.label(pair)} leaves from round {from_round}; "
                "its opponents sit out"
            )
        if seat is not None:
            players = edit_players(
                store, event_id, section, pair, PlayerEdit(seat, name, number), "TD"
            )
            shown = " & ".join(
                p.get("name", "") + (f" ({p['number']})" if p.get("number") else "")
                for p in players
            )
            click.echo(f"section {section} pair {labels.label(pair)}: {shown}")
    except (StoreError, MovementError) as e:
        raise click.ClickException(str(e)) from None


def _replace(
    store: Store, event_id: int, section: str, first: int, old: Movement, changed: Movement
) -> None:
    """The section's movement from round ``first`` on, unless a changed table-round has
    results (then the TD is told from which round the change can start)."""
    touched = changed_table_rounds(old, changed, section, first)
    played = ((r.table, r.round) for r in store.live_results(event_id, section))
    clash = results_in_the_way(touched, played)
    if clash is not None:
        raise click.ClickException(clash)
    store.replace_movement_from_round(event_id, section, first, changed, "TD")
