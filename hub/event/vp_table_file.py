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
    """The event file's text with its VP table file (``rules.vp_scale``, a relative path)
    made absolute against ``base_dir``, the event file's folder; the table is read and
    checked now, so a missing or malformed table stops ``event create``, not the evening.
    Built-in scales and absolute paths leave the text as it is; so does ``base_dir`` None
    (a caller with no event file: the working directory, unchecked)."""
    name = parse_event(text, source).rules.vp_scale
    if name in BUILT_IN or base_dir is None:
        return text
    path = (base_dir / name).resolve()
    try:
        parse_vp_table(path.read_text(encoding="utf-8"), name=path.name)
    except OSError as e:
        raise EventFileError(
            [("rules.vp_scale", f"cannot read the VP table {path}: {e.strerror or e}")], source
        ) from None
    except ScoringInputError as e:
        raise EventFileError([("rules.vp_scale", f"{path}: {e.message}")], source) from None
    if Path(name).is_absolute():
        return text
    written = (re.escape(json.dumps(name)), re.escape(f"'{name}'"))
    pattern = re.compile(r"(\bvp_scale\s*=\s*)(" + "|".join(written) + ")")
    anchored = pattern.sub(lambda m: m.group(1) + _toml_string(str(path)), text, count=1)
    if parse_event(anchored, source).rules.vp_scale != str(path):
        raise EventFileError(
            [("rules.vp_scale", "write the VP table file's path as one quoted string")], source
        )
    return anchored
