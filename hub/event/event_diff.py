"""What differs between an event file and the event the store holds (TD trial F11): names,
pair numbers, pairs, movements and rules, in plain words a TD can act on. Pure: the caller
reads the store and builds the file's movements.

The store is what the hub runs (the director may have edited names or changed a movement
since the event was created), so every line says "in the file" first and "in the store"
second.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hub.event.event_file import EventFile
from hub.event.movement.model import Movement
from hub.event.pair_labels import PairLabels, PairNumberError

ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth")
MAX_LINES = 20


@dataclass(frozen=True)
class StoredSection:
    """A section as the store holds it: its movement now and its contestants (``Store.
    contestants`` rows: number, kind, name, players)."""

    movement: Movement
    contestants: Sequence[Mapping[str, Any]]


def differences(
    file: EventFile,
    file_movements: Mapping[str, Movement | str],
    stored: EventFile,
    sections: Mapping[str, StoredSection],
) -> list[str]:
    """Every difference, one plain sentence each (at most ``MAX_LINES``, then a count).
    ``file_movements``: each file section's movement, or why it cannot be built."""
    out = _event_lines(file, stored)
    file_sections = {s.letter: s for session in file.sessions for s in session.sections}
    for letter in sorted(file_sections.keys() - sections.keys()):
        out.append(f"section {letter} is in the file, not in the store")
    for letter in sorted(sections.keys() - file_sections.keys()):
        out.append(f"section {letter} is in the store, not in the file")
    for letter in sorted(file_sections.keys() & sections.keys()):
        held = sections[letter]
        built = file_movements.get(letter)
        if isinstance(built, str):
            out.append(f"section {letter}'s movement in the file cannot be built: {built}")
        elif built is not None and not _same_movement(built, held.movement):
            out.append(
                f"section {letter}'s movement is {_movement_text(built)} in the file, "
                f"{_movement_text(held.movement)} in the store"
            )
        out += _pair_lines(letter, file_sections[letter], held)
    if len(out) > MAX_LINES:
        out = [*out[:MAX_LINES], f"… and {len(out) - MAX_LINES} more differences"]
    return out


def warning(lines: Sequence[str]) -> str:
    """The warning ``bridgehub run`` prints when the file and the store disagree."""
    listed = "\n".join(f"  - {line}" for line in lines)
    return (
        f"the event file differs from the stored event:\n{listed}\nthe store is used: edit "
        "the stored event with `bridgehub event edit` or the console"
    )


def _event_lines(file: EventFile, stored: EventFile) -> list[str]:
    out = []
    for key in ("name", "organiser", "venue", "language", "roster"):
        a, b = getattr(file.event, key), getattr(stored.event, key)
        if a != b:
            out.append(f"the event's {key} is {_shown(a)} in the file, {_shown(b)} in the store")
    a_rules = _flat(file.rules.model_dump(mode="json"), "rules")
    b_rules = _flat(stored.rules.model_dump(mode="json"), "rules")
    for key in sorted(a_rules.keys() | b_rules.keys()):
        if a_rules.get(key) != b_rules.get(key):
            out.append(
                f"{key} is {_shown(a_rules.get(key))} in the file, "
                f"{_shown(b_rules.get(key))} in the store"
            )
    return out


def _pair_lines(letter: str, section: Any, held: StoredSection) -> list[str]:
    labels = PairLabels.of(held.movement, letter)
    stored = {int(c["number"]): c for c in held.contestants if c.get("kind", "pair") == "pair"}
    out: list[str] = []
    seen: set[int] = set()
    for pair in section.pairs:
        try:
            number = labels.internal(pair)
        except PairNumberError as e:
            out.append(f"pair {pair.label} in the file: {e}")
            continue
        seen.add(number)
        name = f"pair {labels.label(number)}"
        c = stored.get(number)
        if c is None:
            out.append(f"{name} is in the file, not in the store")
            continue
        file_players = [p.model_dump(exclude_none=True) for p in pair.players]
        out += _player_lines(name, file_players, list(c.get("players") or []))
        if bool(pair.not_competing) != bool(c.get("not_competing")):
            out.append(
                f"{name} is {'not ' if not pair.not_competing else ''}marked not competing in "
                "the file, the other way in the store"
            )
    for number in sorted(stored.keys() - seen):
        if stored[number].get("players"):
            out.append(f"pair {labels.label(number)} is in the store, not in the file")
    teams = {int(c["number"]): c for c in held.contestants if c.get("kind") == "team"}
    for team in section.teams:
        c = teams.get(team.number)
        if c is None:
            out.append(f"team {team.number} is in the file, not in the store")
        elif c.get("name") != team.name:
            out.append(
                f"team {team.number}'s name is {team.name!r} in the file, "
                f"{c.get('name')!r} in the store"
            )
    return out


def _player_lines(
    who: str, in_file: list[dict[str, Any]], in_store: list[dict[str, Any]]
) -> list[str]:
    out = []
    for i in range(max(len(in_file), len(in_store))):
        seat = ORDINAL[i] if i < len(ORDINAL) else f"player {i + 1}'s"
        a = in_file[i] if i < len(in_file) else {}
        b = in_store[i] if i < len(in_store) else {}
        for key, what in (("name", "player"), ("number", "player's member number")):
            if key == "name" and a.get("number") and not a.get("name"):
                continue  # a number alone in the file: the club roster named it ([MENDS] #25)
            if a.get(key) != b.get(key):
                out.append(
                    f"{who}'s {seat} {what} is {_shown(a.get(key))} in the file, "
                    f"{_shown(b.get(key))} in the store"
                )
    return out


def _same_movement(a: Movement, b: Movement) -> bool:
    key = lambda m: sorted(  # noqa: E731
        (r.table, r.round, r.ns_pair, r.ew_pair, r.boards) for r in m.rows
    )
    return key(a) == key(b) and a.layout.kind == b.layout.kind


def _movement_text(m: Movement) -> str:
    what = m.layout.description or f"a {m.layout.kind.value}"
    return f"{what!r} ({len(m.tables())} tables, {m.rounds} rounds, {len(m.pairs())} pairs)"


def _flat(data: Any, prefix: str) -> dict[str, Any]:
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for k, v in data.items():
            out.update(_flat(v, f"{prefix}.{k}"))
        return out
    return {prefix: data}


def _shown(value: Any) -> str:
    if value is None:
        return "not set"
    return repr(value) if isinstance(value, str) else str(value)
