"""Writing a bracket as a bracket file (docs/brackets.md): ``bracket_to_toml`` gives the
text ``bracket_file.parse_bracket`` reads back into an equal ``Bracket`` (the example
files of the seeds' brackets are written with it)."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from typing import TypeVar

from scoring.knockout.bracket import Bracket, CarryKind, ChoiceGroup, Match, Ranking, Slot, SlotKind

T = TypeVar("T")


def slot_text(slot: Slot) -> str:
    """A slot as the file writes it: ``rank 1``, ``team Ace``, ``winner QF-1``, ``loser
    SF-2``, ``place 3 of U7``, ``choice QF``."""
    if slot.kind is SlotKind.RANK:
        return f"rank {slot.rank}"
    if slot.kind is SlotKind.TEAM:
        return f"team {slot.team}"
    if slot.kind is SlotKind.CHOICE:
        return f"choice {slot.choice}"
    if slot.place == 1:
        return f"winner {slot.match}"
    if slot.place == 2:
        return f"loser {slot.match}"
    return f"place {slot.place} of {slot.match}"


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def _strings(items: tuple[str, ...] | list[str]) -> str:
    return "[" + ", ".join(_string(s) for s in items) + "]"


def _decimal(value: Fraction) -> str:
    digits = 0
    while (value * 10**digits).denominator != 1:
        digits += 1
    whole = value * 10**digits
    text = str(whole.numerator).rjust(digits + 1, "0")
    return f"{text[:-digits]}.{text[-digits:]}"


def _carry(m: Match) -> str | None:
    c = m.carry_over
    if c.kind is CarryKind.NONE:
        return None
    if c.kind is CarryKind.FIXED:
        return f"{{ imps = {_value(c.imps)}, to = {_string(slot_text(m.slots[c.slot]))} }}"
    if c.kind is CarryKind.HIGHER_PLACED:
        return f"{{ higher_placed = {_value(c.imps)} }}"
    return f"{{ share = {_string(str(c.share))}, of = {_string(c.of_match)} }}"


def _value(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return _decimal(value) if d == 1 else _string(str(value))


def _common(values: list[T], default: T) -> T:
    return Counter(values).most_common(1)[0][0] if values else default


def bracket_to_toml(bracket: Bracket) -> str:
    """The bracket as a bracket file; the most common segments, boards and tie rule of
    its matches go into ``[defaults]``."""
    segments = _common([m.segments for m in bracket.matches], 2)
    boards = _common([m.boards_per_segment for m in bracket.matches], 16)
    tie = _common([m.tie for m in bracket.matches], ())
    out = [
        "schema_version = 1",
        f"name = {_string(bracket.name)}",
        f"entries = {bracket.entries}",
    ]
    if bracket.ranking is not Ranking.FIXED:
        out.append(f"ranking = {_string(bracket.ranking.value)}")
    out += [f"rounds = {_strings(bracket.rounds)}", "", "[defaults]",
            f"segments = {segments}", f"boards_per_segment = {boards}",
            f"tie = {_strings(tie)}"]  # fmt: skip
    for m in bracket.matches:
        out += ["", "[[match]]", f"name = {_string(m.name)}", f"round = {_string(m.round)}",
                f"teams = {_strings([slot_text(s) for s in m.slots])}"]  # fmt: skip
        if m.places:
            out.append(f"places = {_strings(m.places)}")
        if m.segments != segments:
            out.append(f"segments = {m.segments}")
        if m.boards_per_segment != boards:
            out.append(f"boards_per_segment = {m.boards_per_segment}")
        if m.tie != tie:
            out.append(f"tie = {_strings(m.tie)}")
        if m.advance != 1:
            out.append(f"advance = {m.advance}")
        carry = _carry(m)
        if carry:
            out.append(f"carry_over = {carry}")
    for g in bracket.choices:
        out += _group(g)
    return "\n".join(out) + "\n"


def _group(g: ChoiceGroup) -> list[str]:
    out = ["", "[[choice]]", f"name = {_string(g.name)}", f"order = {_string(g.order.value)}",
           f"pool = {_strings([slot_text(s) for s in g.pool])}"]  # fmt: skip
    if g.choosers:
        out.append(f"choosers = {_strings([slot_text(s) for s in g.choosers])}")
    out.append(f"matches = {_strings(g.matches)}")
    if g.rules:
        out.append(f"rules = {_strings(g.rules)}")
    return out
