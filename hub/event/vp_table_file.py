"""VP scales by name or from a table file the TD supplies (decisions D5).

A table file named in an event file is found beside the event file, like its movement
files and hand records, whatever the working directory of the command that reads it:
``anchor_vp_table`` writes its full path into the event as it is stored."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hub.event.event_file import EventFileError, parse_event
from scoring.errors import ScoringInputError
from scoring.vp_scale import BUILT_IN, VPScale, builtin_scale, parse_vp_table


def load_scale(name_or_path: str | Path) -> VPScale:
    """A built-in scale by name, or a table file (CSV) by path."""
    key = str(name_or_path)
    if key in BUILT_IN:
        return builtin_scale(key)
    path = Path(key)
    if not path.is_file():
        raise ScoringInputError(
            "scale", f"unknown VP scale {key!r}: use {', '.join(BUILT_IN)} or a table file path"
        )
    return parse_vp_table(path.read_text(encoding="utf-8"), name=path.name)


def _toml_string(value: str) -> str:
    if "'" not in value and "\n" not in value:
        return f"'{value}'"  # a literal string: backslashes (Windows paths) stay as they are
    return json.dumps(value)  # a basic string; JSON's escapes are TOML's


def anchor_vp_table(text: str, base_dir: Path | None, source: str = "event file") -> str:
    """The event file's text with its VP table files (``rules.vp_scale`` and each stage's
    ``rules.teams.vp_scales[i].scale``, relative paths) made absolute against ``base_dir``,
    the event file's folder; each table is read and checked now, so a missing or malformed
    table stops ``event create``, not the evening. Built-in scales and absolute paths leave
    the text as it is; so does ``base_dir`` None (a caller with no event file: the working
    directory, unchecked)."""
    rules = parse_event(text, source).rules
    named = [("rules.vp_scale", "vp_scale", rules.vp_scale)]
    named += [
        (f"rules.teams.vp_scales[{i}].scale", "scale", stage.scale)
        for i, stage in enumerate(rules.teams.vp_scales)
    ]
    for where, key, name in named:
        if name not in BUILT_IN and base_dir is not None:
            text = _anchored(text, where, key, name, base_dir, source)
    return text


def _anchored(text: str, where: str, key: str, name: str, base_dir: Path, source: str) -> str:
    path = (base_dir / name).resolve()
    try:
        parse_vp_table(path.read_text(encoding="utf-8"), name=path.name)
    except OSError as e:
        raise EventFileError(
            [(where, f"cannot read the VP table {path}: {e.strerror or e}")], source
        ) from None
    except ScoringInputError as e:
        raise EventFileError([(where, f"{path}: {e.message}")], source) from None
    if Path(name).is_absolute():
        return text
    written = (re.escape(json.dumps(name)), re.escape(f"'{name}'"))
    pattern = re.compile(r"(\b" + key + r"\s*=\s*)(" + "|".join(written) + ")")
    anchored = pattern.sub(lambda m: m.group(1) + _toml_string(str(path)), text)
    rules = parse_event(anchored, source).rules
    if str(path) not in [rules.vp_scale, *(s.scale for s in rules.teams.vp_scales)]:
        raise EventFileError(
            [(where, "write the VP table file's path as one quoted string")], source
        )
    return anchored
