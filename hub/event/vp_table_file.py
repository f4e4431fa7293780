"""VP scales by name or from a table file the TD supplies (decisions D5)."""

from __future__ import annotations

from pathlib import Path

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
