"""The hub's one reader of JSON it did not write itself: a console's or screen's message to
the API, a browser terminal's message, the hub's feed as its clients (the API client, the
results pages' link) receive it. A message is one JSON object: ``NaN``, ``Infinity`` and
``-Infinity`` (which Python's ``json`` would otherwise read) are refused, and so is a top
level that is not an object, so no caller ever sees them. ``JsonRefused`` says what was
wrong; each caller words it for its own readers (docs/api.md, docs/web-terminal.md).

Pure: no I/O; any thread.
"""

from __future__ import annotations

import json
from typing import Any, Literal

Kind = Literal["syntax", "depth", "number", "constant", "not_object"]


class JsonRefused(ValueError):
    """JSON the hub does not read. ``kind``: ``syntax`` (not JSON, or bytes that are not
    its text), ``depth`` (nested too deep to read), ``number`` (an integer too long to
    read), ``constant`` (``NaN``, ``Infinity``, ``-Infinity``), ``not_object`` (valid JSON
    but not an object). ``reason``: the decoder's words (``syntax``, ``number``), ``nested
    too deep``, the constant as written, or the top level's Python type name."""

    def __init__(self, kind: Kind, reason: str) -> None:
        self.kind, self.reason = kind, reason
        super().__init__(_text(kind, reason))


def _text(kind: Kind, reason: str) -> str:
    if kind == "constant":
        return f"{reason} is not a number in JSON: send a finite number"
    if kind == "not_object":
        return f"a message is a JSON object, not {reason}"
    return f"not JSON: {reason}"


def _no_constant(name: str) -> Any:
    raise JsonRefused("constant", name)


def read_object(raw: str | bytes) -> dict[str, Any]:
    """One JSON object from ``raw`` (text, or bytes in UTF-8/16/32 as ``json.loads`` reads
    them); ``JsonRefused`` for anything else."""
    try:
        doc = json.loads(raw, parse_constant=_no_constant)
    except JsonRefused:
        raise
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise JsonRefused("syntax", str(e)) from None
    except RecursionError:
        raise JsonRefused("depth", "nested too deep") from None
    except ValueError as e:  # an integer past Python's digit limit (int_max_str_digits)
        raise JsonRefused("number", str(e)) from None
    if not isinstance(doc, dict):
        raise JsonRefused("not_object", type(doc).__name__)
    return doc
