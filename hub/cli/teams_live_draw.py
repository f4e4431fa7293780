"""``bridgehub teams draw --db URL --event ID``: the next round's draw of a live event's
Swiss, Danish or Monrad section (decisions D19), worked out from the store as the running
hub works it out (``hub.live.teams.draw_proposal``). ``--publish`` appends it to the movement,
audited, when no hub runs the event (a running hub publishes from its console or API)."""

from __future__ import annotations

import json
import secrets
from collections import defaultdict
from typing import Any

import click

from hub.api.draw_lines import three_way_text
from hub.event.movement.drawn import free_board, with_round
from hub.event.movement.model import Movement, MovementError
from hub.live.teams.draw_proposal import NotReady, draw_json, draw_spec, propose
from hub.live.views import LiveViews, TeamsLive
from hub.standings.rows import names_of
from hub.store.hub_lock import HubLock, HubLocked
from hub.store.store import LiveLine, Store
from hub.store.values import StoreError
from scoring.draw.model import Draw


def rounds_over(
    movement: Movement, section: str, lines: list[LiveLine], started: int = 0
) -> set[int]:
    """The drawn rounds every match has played in full, in both rooms, and those before
    ``started``, the last round the room's clock started (the director may have ended a
    round with boards unplayed)."""
    played = {(x.table, x.round, x.board) for x in lines}
    rows = defaultdict(list)
    for r in movement.rows:
        if r.section == section and r.ns_pair and r.ew_pair:
            rows[r.round].append(r)
    return {
        rnd
        for rnd, seated in rows.items()
        if rnd < started or all((r.table, rnd, b) in played for r in seated for b in r.boards)
    }


def live_draw(url: str, event_id: int, section: str | None, publish: bool, as_json: bool) -> None:
    """Show (or publish) the next draw of the event's drawn section."""
    try:
        store = Store.open(url)
    except StoreError as e:
        raise click.ClickException(str(e)) from None
    try:
        event = store.event(event_id)
        drawn = [s for s in store.sections(event_id) if draw_spec(event, s) is not None]
        if section is None and len(drawn) != 1:
            which = ", ".join(drawn) or "none"
            raise click.ClickException(
                f"event {event_id}: say which section (--section): drawn sections: {which}"
            )
        letter = section or drawn[0]
        spec = draw_spec(event, letter)
        if spec is None:
            raise click.ClickException(
                f"section {letter} of event {event_id} is not drawn while it runs"
            )
        movement = store.movement(event_id, letter)
        names = names_of(store.contestants(event_id, letter))
        lines = store.live_lines(event_id, letter)
        views = LiveViews(event, {letter: movement}, {letter: names})  # as the hub loads them
        views.load(lines, [p for p in store.penalties(event_id) if p["section"] == letter])
        live = views.sections[letter]
        assert isinstance(live, TeamsLive)
        starts = [
            int(c["round"] or 0)
            for c in store.clock_events(event_id)
            if c["section"] == letter and c["kind"] == "start"
        ]
        over = rounds_over(movement, letter, lines, max(starts, default=0))
        seed = spec.lot_seed if spec.lot_seed is not None else secrets.randbelow(2**31)
        try:
            draw = propose(spec, movement, letter, live, over.__contains__, seed)
        except NotReady as e:
            raise click.ClickException(f"section {letter}: {e}") from None
        except ValueError as e:
            raise click.ClickException(f"section {letter}: the draw cannot be made: {e}") from None
        letters = [sec.letter for ses in event.sessions for sec in ses.sections]
        first = free_board(store.movement(event_id, x) for x in letters)  # one set of deals
        shown = draw_json(draw, names, letter, movement, first)
        if publish:
            _publish(store, event_id, letter, movement, draw, shown, len(spec.teams), first)
        if as_json:
            click.echo(json.dumps(shown | {"published": publish}))
            return
        click.echo(
            f"Section {letter}, round {draw.round} ({spec.method}){' published' if publish else ''}"
        )
        for m in shown["matches"]:
            home, away = m["home"], m["away"]
            click.echo(
                f"  match {m['table']:>3} (tables {m['tables'][0]}-{m['tables'][1]}): "
                f"{home['team']} {home['name']} v {away['team']} {away['name']}"
            )
        for b in shown["byes"]:
            click.echo(f"  bye: {b['team']} {b['name']}")
        for key, what in (("three_way", "three-way"), ("three_way_continued", "continues")):
            if shown[key]:
                click.echo(f"  {what}: {three_way_text(shown[key])}")
        click.echo(f"  repeats: {draw.repeats}; lot seed: {draw.lot_seed}")
    finally:
        store.close()


def _publish(
    store: Store,
    event_id: int,
    section: str,
    movement: Movement,
    draw: Draw,
    shown: dict[str, Any],
    teams: int,
    first_board: int,
) -> None:
    """Append the round to the stored movement, audited, when no hub runs the event."""
    try:
        lock = HubLock.acquire(store.engine, event_id)
    except HubLocked as e:
        raise click.ClickException(
            f"{e}: publish the draw from its console (D) or its API (draw_publish)"
        ) from None
    try:
        pairs = [(int(p.home), int(p.away)) for p in draw.matches]
        way, first = tuple(int(t) for t in draw.three_way), first_board
        changed = with_round(
            movement, section, draw.round, pairs, teams=teams, three_way=way, first_board=first
        )
        store.replace_movement_from_round(
            event_id, section, draw.round, changed, "TD", "draw_published", {"draw": shown}
        )
    except (MovementError, StoreError) as e:
        raise click.ClickException(f"section {section}: round {draw.round}: {e}") from None
    finally:
        lock.release()
