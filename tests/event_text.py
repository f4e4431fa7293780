"""Event files (schema 1) for tests that need one section and a generated movement."""

from __future__ import annotations


def one_section_event(name: str, movement: str, scoring: str = "mp") -> str:
    """``movement`` is the inline table, e.g. ``kind = "howell", tables = 3``."""
    return f"""schema_version = 1
[event]
name = "{name}"
[rules]
scoring = "{scoring}"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = {{ {movement} }}
"""
