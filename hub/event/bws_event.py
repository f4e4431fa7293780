"""An event file for a BWS-shaped RoundData CSV and its PlayerNumbers (``bridgehub event
import --round-data``): one session, each of the file's sections with ``movement = {
round_data = … }`` and the pairs whose players PlayerNumbers names, numbered as the room
numbers them (a Mitchell's "EW 3"). The text goes through ``create_event`` like any event
file, so it is validated and stored the same way."""

from __future__ import annotations

import json

from hub.event.event_rules import Scoring
from hub.event.movement.model import Movement
from hub.event.movement.round_data import Kind
from hub.event.pair_labels import PairLabels
from hub.event.player_numbers import Players, SeatedPlayer


def _text(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def _player(seat: SeatedPlayer | None) -> str:
    if seat is None:
        return '{ name = "" }'
    number = f", number = {_text(seat.number)}" if seat.number else ""
    return f"{{ name = {_text(seat.name)}{number} }}"


def bws_event_text(
    round_data: str,
    movements: dict[str, Movement],
    players: Players,
    *,
    name: str,
    scoring: Scoring = Scoring.MP,
    kind: Kind = "auto",
) -> str:
    """The event file (TOML, decisions D2); ``round_data``: the RoundData file's name
    beside it; ``movements`` as ``read_round_data`` gave them, by section letter."""
    out = [
        "# made by bridgehub event import --round-data",
        "schema_version = 1",
        "",
        "[event]",
        f"name = {_text(name)}",
        "",
        "[rules]",
        f'scoring = "{scoring.value}"',
        "",
        "[[sessions]]",
        'name = "Session 1"',
    ]
    for letter, movement in sorted(movements.items()):
        spec = f'round_data = {_text(round_data)}, section = "{letter}", kind = "{kind}"'
        out += ["", "[[sessions.sections]]", f'letter = "{letter}"', f"movement = {{ {spec} }}"]
        labels = PairLabels.of(movement, letter)
        for pair, seats in sorted(players.get(letter, {}).items()):
            direction, number = labels.to_room(pair)
            out += ["", "[[sessions.sections.pairs]]", f"number = {number}"]
            if direction:
                out.append(f'direction = "{direction}"')
            out.append(f"players = [{', '.join(_player(s) for s in seats)}]")
    return "\n".join(out) + "\n"
