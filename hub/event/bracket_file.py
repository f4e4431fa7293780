"""The bracket file (issue [KNOCKOUT], docs/brackets.md): a knockout as TOML, read into a
``scoring.knockout.bracket.Bracket`` and checked by ``bracket_check``.

Every problem is reported at once as ``FILE:LINE: key path: reason`` (``match[3].teams[1]:
…``), the line being the key's own (or its match's ``[[match]]`` line); a problem the
checker finds is put on the line of that match's (or choice group's) ``name``.
``bracket_to_toml`` writes the same format: reading it back gives an equal bracket.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

from hub.event.bracket_toml import bracket_to_toml, slot_text
from hub.event.problems import file_report
from scoring.knockout.bracket import (
    Bracket,
    CarryKind,
    CarryOver,
    ChoiceGroup,
    ChoiceOrder,
    Match,
    Ranking,
    Slot,
)
from scoring.knockout.bracket_check import check_bracket
from scoring.knockout.ko_match import TieRule

__all__ = [
    "SCHEMA_VERSION",
    "BracketFileError",
    "bracket_to_toml",
    "parse_bracket",
    "parse_slot",
    "read_bracket",
    "slot_text",
]

SCHEMA_VERSION = 1
TOP_KEYS = ("schema_version", "name", "entries", "ranking", "rounds", "defaults", "match", "choice")
DEFAULT_KEYS = ("segments", "boards_per_segment", "tie")
MATCH_KEYS = ("name", "round", "teams", "places", "advance", "carry_over", *DEFAULT_KEYS)
CHOICE_KEYS = ("name", "order", "pool", "choosers", "matches", "rules")
TIE_RULES = tuple(r.value for r in TieRule)
SLOT_FORMS = '"rank N", "team NAME", "winner M", "loser M", "place K of M" or "choice G"'
_SLOT = re.compile(r"(rank|team|winner|loser|choice)\s+(.+)|place\s+(\d+)\s+of\s+(.+)")
_NUMBER = re.compile(r"\d+(\.\d+)?(/\d+)?")


class BracketFileError(ValueError):
    """The bracket file is invalid; ``problems`` holds (line, message) pairs."""

    def __init__(self, problems: list[tuple[int, str]], source: str = "bracket file") -> None:
        self.problems = problems
        self.source = source
        super().__init__(file_report(source, problems))


class _Bad(Exception):
    pass


def parse_slot(text: str) -> Slot:
    """A slot as the file writes it (``rank 1``, ``winner R16-1``, ``place 3 of U7``)."""
    found = _SLOT.fullmatch(text.strip()) if isinstance(text, str) else None
    if not found:
        raise _Bad(f"{text!r} is not a slot: give {SLOT_FORMS}")
    if found[3]:
        return Slot.placed(found[4].strip(), int(found[3]))
    kind, rest = found[1], found[2].strip()
    if kind == "rank":
        if not rest.isdigit():
            raise _Bad(f"{text!r}: rank needs a whole number (rank 1)")
        return Slot.by_rank(int(rest))
    return {"team": Slot.named, "winner": Slot.winner, "loser": Slot.loser, "choice": Slot.chosen}[
        kind
    ](rest)


class _Lines:
    """Where keys are in the text: the line of ``key`` in the ``index``-th table named
    ``table`` (None: the top level), else of that table's header."""

    def __init__(self, text: str) -> None:
        self.keys: dict[tuple[str | None, int, str], int] = {}
        self.headers: dict[tuple[str, int], int] = {}
        table: str | None = None
        seen: dict[str, int] = {}
        index = 0
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            header = re.fullmatch(r"\[\[?\s*([\w.]+)\s*\]\]?\s*(#.*)?", stripped)
            if header:
                table = header[1]
                index = seen.get(table, -1) + 1
                seen[table] = index
                self.headers[(table, index)] = number
                continue
            key = re.match(r"([A-Za-z0-9_-]+)\s*=", stripped)
            if key:
                self.keys.setdefault((table, index if table else 0, key[1]), number)

    def at(self, table: str | None, index: int, key: str = "") -> int:
        found = self.keys.get((table, index, key))
        if found is None and table is not None:
            found = self.headers.get((table, index))
        return found or 0


def _number(value: Any, what: str, percent: bool = False) -> Fraction:
    if isinstance(value, bool):
        raise _Bad(f"{what}: give a number")
    if isinstance(value, int | float):
        result = Fraction(str(value))
    elif isinstance(value, str):
        text = value.strip()
        scale = Fraction(1)
        if percent and text.endswith("%"):
            text, scale = text[:-1].strip(), Fraction(1, 100)
        if not _NUMBER.fullmatch(text) or text.endswith("/0"):
            raise _Bad(f"{what} {value!r}: give a number (6.5, 13/2{', 25%' if percent else ''})")
        result = Fraction(text) * scale
    else:
        raise _Bad(f"{what}: give a number")
    if result < 0:
        raise _Bad(f"{what} {value}: give 0 or more")
    return result


def _whole(value: Any, what: str, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise _Bad(f"{what} {value!r}: give a whole number of at least {low}")
    return value


def _strings(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Bad(f'{what}: give a list of strings (["a", "b"])')
    return tuple(value)


def _ties(value: Any) -> tuple[str, ...]:
    rules = _strings(value, "tie")
    wrong = [r for r in rules if r not in TIE_RULES]
    if wrong:
        raise _Bad(f"tie rule {wrong[0]!r}: the rules are {', '.join(TIE_RULES)}")
    return rules


def _unknown(data: dict, allowed: tuple[str, ...], say: Any) -> None:
    for key in data:
        if key not in allowed:
            near = difflib.get_close_matches(key, allowed, n=1, cutoff=0.75)
            say(
                key,
                f"unknown key; did you mean {near[0]}?"
                if near
                else f"unknown key; the keys are {', '.join(allowed)}",
            )


def _carry(value: Any, slots: tuple[Slot, ...]) -> CarryOver:
    if not isinstance(value, dict):
        raise _Bad(
            'give a table: { imps = 6.5, to = "winner U7" }, { higher_placed = 0.1 } '
            'or { share = "25%", of = "R16-1" }'
        )
    keys = set(value)
    if keys == {"imps", "to"}:
        texts = [slot_text(s) for s in slots]
        to = value["to"]
        if to not in texts:
            raise _Bad(f"to {to!r}: name one of the match's teams {texts}")
        return CarryOver(CarryKind.FIXED, imps=_number(value["imps"], "imps"), slot=texts.index(to))
    if keys == {"higher_placed"}:
        return CarryOver(CarryKind.HIGHER_PLACED, imps=_number(value["higher_placed"], "imps"))
    if keys == {"share", "of"} and isinstance(value["of"], str):
        return CarryOver(
            CarryKind.SHARE,
            share=_number(value["share"], "share", percent=True),
            of_match=value["of"],
        )
    raise _Bad("give { imps, to }, { higher_placed } or { share, of }")


def parse_bracket(text: str, source: str = "bracket file") -> Bracket:
    """Read and check a bracket file's text; raises ``BracketFileError`` with every
    problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        line = int(m[1]) if (m := re.search(r"line (\d+)", str(e))) else 0
        raise BracketFileError([(line, f"not valid TOML: {e}")], source) from None
    lines = _Lines(text)
    problems: list[tuple[int, str]] = []

    def at(table: str | None, index: int, path: str) -> Any:
        def say(key: str, reason: str) -> None:
            problems.append(
                (
                    lines.at(table, index, key.split("[")[0]),
                    f"{path}{'.' if path else ''}{key}: {reason}",
                )
            )

        return say

    top = at(None, 0, "")
    _unknown(data, TOP_KEYS, top)

    def get(table: dict, key: str, read: Any, say: Any, default: Any = None) -> Any:
        if key not in table:
            if default is None:
                say(key, "required")
            return default
        try:
            return read(table[key])
        except _Bad as e:
            say(key, str(e))
            return default

    version = get(data, "schema_version", lambda v: _whole(v, "schema_version"), top)
    if version is not None and version != SCHEMA_VERSION:
        top("schema_version", f"this hub reads schema_version {SCHEMA_VERSION}, not {version}")
    name = get(data, "name", lambda v: _strings([v], "name")[0], top)
    entries = get(data, "entries", lambda v: _whole(v, "entries", 2), top)
    ranking = get(data, "ranking", lambda v: _choose(v, Ranking), top, Ranking.FIXED)
    rounds = get(data, "rounds", lambda v: _strings(v, "rounds"), top)
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        top("defaults", "give a table [defaults]")
        defaults = {}
    dsay = at("defaults", 0, "defaults")
    _unknown(defaults, DEFAULT_KEYS, dsay)
    base = {
        "segments": get(defaults, "segments", lambda v: _whole(v, "segments"), dsay, 2),
        "boards_per_segment": get(
            defaults, "boards_per_segment", lambda v: _whole(v, "boards_per_segment"), dsay, 16
        ),
        "tie": get(defaults, "tie", _ties, dsay, ()),
    }
    matches = [_match(t, i, base, at, get) for i, t in enumerate(_tables(data, "match", top))]
    groups = [_group(t, i, at, get) for i, t in enumerate(_tables(data, "choice", top, False))]
    if "match" in data and not data["match"]:
        top("match", "a bracket needs at least one [[match]]")
    if problems or None in (version, name, entries, rounds) or None in matches or None in groups:
        raise BracketFileError(problems or [(0, "bracket file incomplete")], source)
    bracket = Bracket(name, entries, rounds, tuple(matches), tuple(groups), ranking)  # type: ignore[arg-type]
    names = {m.name: i for i, m in enumerate(bracket.matches)}
    gnames = {g.name: i for i, g in enumerate(bracket.choices)}
    for p in check_bracket(bracket):
        if p.match in names:
            where, label = lines.at("match", names[p.match], "name"), f"match {p.match}"
        elif p.match in gnames:
            where, label = lines.at("choice", gnames[p.match], "name"), f"choice {p.match}"
        else:
            where, label = 0, "bracket"
        problems.append((where, f"{label}: {p.message}"))
    if problems:
        raise BracketFileError(problems, source)
    return bracket


def _choose(value: Any, kind: Any) -> Any:
    allowed = [k.value for k in kind]
    if value not in allowed:
        raise _Bad(f"{value!r}: give one of {', '.join(allowed)}")
    return kind(value)


def _tables(data: dict, key: str, say: Any, required: bool = True) -> list[dict]:
    value = data.get(key, [])
    if key not in data and required:
        say(key, f"required: give each match as a [[{key}]] table")
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        say(key, f"give each as a [[{key}]] table")
        return []
    return value


def _match(t: dict, i: int, base: dict, at: Any, get: Any) -> Match | None:
    say = at("match", i, f"match[{i}]")
    _unknown(t, MATCH_KEYS, say)
    name = get(t, "name", lambda v: _strings([v], "name")[0], say)
    rnd = get(t, "round", lambda v: _strings([v], "round")[0], say)
    texts = get(t, "teams", lambda v: _strings(v, "teams"), say, ())
    slots = []
    for k, text in enumerate(texts):
        try:
            slots.append(parse_slot(text))
        except _Bad as e:
            say(f"teams[{k}]", str(e))
    if len(texts) not in (2, 3):
        say("teams", f"{len(texts)} teams: give 2 (or 3, a three-way)")
    places = get(t, "places", lambda v: _strings(v, "places"), say, ())
    carry = CarryOver()
    if "carry_over" in t:
        carry = get(t, "carry_over", lambda v: _carry(v, tuple(slots)), say, CarryOver())
    if name is None or rnd is None or len(slots) != len(texts):
        return None
    return Match(
        name=name,
        round=rnd,
        slots=tuple(slots),
        segments=get(t, "segments", lambda v: _whole(v, "segments"), say, base["segments"]),
        boards_per_segment=get(
            t,
            "boards_per_segment",
            lambda v: _whole(v, "boards_per_segment"),
            say,
            base["boards_per_segment"],
        ),
        carry_over=carry,
        tie=get(t, "tie", _ties, say, base["tie"]),
        places=places,
        advance=get(t, "advance", lambda v: _whole(v, "advance"), say, 1),
    )


def _group(t: dict, i: int, at: Any, get: Any) -> ChoiceGroup | None:
    say = at("choice", i, f"choice[{i}]")
    _unknown(t, CHOICE_KEYS, say)
    name = get(t, "name", lambda v: _strings([v], "name")[0], say)
    order = get(t, "order", lambda v: _choose(v, ChoiceOrder), say)
    lists: dict[str, list[Slot]] = {}
    for key, default in (("pool", None), ("choosers", ())):
        lists[key] = []
        texts = get(t, key, lambda v, what=key: _strings(v, what), say, default) or ()
        for k, text in enumerate(texts):
            try:
                lists[key].append(parse_slot(text))
            except _Bad as e:
                say(f"{key}[{k}]", str(e))
    matches = get(t, "matches", lambda v: _strings(v, "matches"), say) or ()
    rules = get(t, "rules", lambda v: _strings(v, "rules"), say, ())
    if name is None or order is None:
        return None
    return ChoiceGroup(name, matches, tuple(lists["pool"]), tuple(lists["choosers"]), order, rules)


def read_bracket(path: str | Path) -> Bracket:
    """Read and check the bracket file at ``path``."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BracketFileError([(0, "not UTF-8 text: save it as UTF-8")], str(path)) from None
    except OSError as e:
        raise BracketFileError([(0, f"cannot be read: {e.strerror}")], str(path)) from None
    return parse_bracket(text, str(path))
