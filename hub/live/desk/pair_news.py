"""What the room is told when its pairs change: the players' names to the table the pair
plays at, and the section's pairs directory as the snapshot and the ``pairs_changed`` event
carry it ([MENDS] #25, TD trial turn 3 G8): every pair of the movement by its internal
number with its label (``EW 7``), direction, names and players (name and member number, as
the store holds them: the event file's, the director's, those keyed at the tables). One
label per pair everywhere: a late pair is ``EW 7`` on the console's Room and Pairs tab from
the moment it is added, as in the standings, not ``14`` until the hub restarts.

Pure but for ``tell_pairs_changed`` (the store read in a worker thread) and
``tell_table``: both on the hub's loop."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from hub.api.feed import Feed
from hub.event.movement.model import Movement
from hub.event.pair_labels import PairLabels
from hub.live.port.gateway import TerminalGateway
from hub.live.port.terminal_port import PlayerNameView
from hub.standings.rows import names_of
from hub.store.store import Store


def players_of(contestants: list[dict[str, Any]], section: str) -> dict[int, list[dict[str, str]]]:
    """The section's pairs' players (``Store.contestants``) by pair number; a player is its
    name and, when known, member number."""
    out: dict[int, list[dict[str, str]]] = {}
    for c in contestants:
        if c.get("section") != section or c.get("kind", "pair") != "pair":
            continue
        players = [
            {"name": str(p.get("name") or "")}
            | ({"number": str(p["number"])} if p.get("number") else {})
            for p in c.get("players") or []
            if isinstance(p, dict)
        ]
        if players:
            out[int(c["number"])] = players
    return out


def section_directory(
    labels: PairLabels,
    names: Mapping[int, str],
    players: Mapping[int, list[dict[str, str]]],
) -> dict[str, dict[str, Any]]:
    """The snapshot's ``pairs``: label, direction and names of every pair, NS field first,
    and ``players`` for a pair whose players the store has."""
    directory: dict[str, dict[str, Any]] = dict(labels.directory(names))
    for key, entry in directory.items():
        if players.get(int(key)):
            entry["players"] = players[int(key)]
    return directory


def seating(movement: Movement, section: str, rnd: int) -> list[dict[str, Any]]:
    """The section's tables in round ``rnd`` as the movement seats them now: ``{table, ns,
    ew, boards}`` (a late pair from the current round sits at once, not "sit out")."""
    return [
        {"table": r.table, "ns": r.ns_pair, "ew": r.ew_pair, "boards": list(r.boards)}
        for r in sorted(movement.round_rows(rnd, section), key=lambda r: r.table)
    ]


async def tell_pairs_changed(
    feed: Feed,
    store: Store,
    event_id: int,
    movement: Movement,
    section: str,
    rnd: int,
    **fields: Any,
) -> None:
    """Publish ``pairs_changed`` with the section's directory as it is now (``pairs``) and
    the current round's ``seating``, so a console or screen shows the new labels, names,
    numbers and seats at once."""
    rows = await asyncio.to_thread(store.contestants, event_id, section)
    labels = PairLabels.of(movement, section)
    pairs = section_directory(labels, names_of(rows), players_of(rows, section))
    now = seating(movement, section, rnd)
    feed.publish("pairs_changed", section=section, pairs=pairs, seating=now, **fields)


def tell_table(
    gateway: TerminalGateway,
    movement: Movement,
    rnd: int,
    section: str,
    pair: int,
    players: list[dict[str, str]],
) -> None:
    """The pair's players' names to the terminal of the table it plays at in round ``rnd``."""
    row = next(
        (r for r in movement.round_rows(rnd, section) if pair in (r.ns_pair, r.ew_pair)), None
    )
    if row is None:
        return
    seats = (0, 2) if row.ns_pair == pair else (1, 3)
    for seat in gateway.at_table(section, row.table):
        for place, player in zip(seats, players, strict=False):
            number, name = player.get("number") or "", player.get("name") or ""
            gateway.player_name(seat, PlayerNameView(section, row.table, rnd, place, number, name))
