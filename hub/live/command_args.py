"""Reading a director's command arguments: each refusal names the argument and what it
needs, and goes back to the director as the command's error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.api.server import CommandError


def section_of(sections: Mapping[str, object], args: dict[str, Any]) -> str:
    section = str(args.get("section", ""))
    if section not in sections:
        raise CommandError(f"section {section!r} is not in this event ({', '.join(sections)})")
    return section


def integer(args: dict[str, Any], key: str) -> int:
    try:
        return int(args[key])
    except (KeyError, TypeError, ValueError):
        raise CommandError(f"{key}: a whole number is required") from None


def number(args: dict[str, Any], key: str) -> float:
    try:
        return float(args[key])
    except (KeyError, TypeError, ValueError):
        raise CommandError(f"{key}: a number is required") from None
