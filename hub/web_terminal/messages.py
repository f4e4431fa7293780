"""What a browser terminal says (docs/web-terminal.md "Browser → hub"): JSON objects read
and checked field by field, so that a message the port passes on is one the hub can take
(whether the hub accepts it is the hub's answer). Anything else raises ``BadRequest`` with
the text the page shows and the hub logs.

Pure: no I/O; any thread.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hub.api.json_reader import JsonRefused, read_object
from hub.live.port import terminal_port as tp

VERSION = 1  # of the protocol on /ws
MAX_ID = 2**53 - 1  # a request's id: an integer JavaScript keeps exact
MAX_NUMBER = 65535  # tables, rounds, boards, pairs, revisions: as on the wire (u16)
MAX_TEXT = {"text": 200, "device": 64, "code": 16, "pin": 32, "number": 16}  # else 8
DEVICE = re.compile(r"[A-Za-z0-9_-]{16,64}")  # the page's random id (22 characters)
SEATS = ("N", "E", "S", "W")

# type -> its fields, each (name, kind): "int", "str", "bool", "int?" (or null), "str?"
COMMON = (("section", "str"), ("table", "int"))
FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "hello": (("device", "str"), ("version", "int")),
    "logon": (*COMMON, ("code", "str"), ("pin", "str")),
    "result": (
        *COMMON,
        ("round", "int"),
        ("board", "int"),
        ("ns", "int"),
        ("ew", "int"),
        ("contract", "str"),
        ("declarer", "str?"),
        ("lead", "str"),
        ("tricks", "int?"),
        ("revision", "int"),
        ("no_play", "bool"),
    ),
    "verify": (*COMMON, ("round", "int"), ("board", "int"), ("agreed", "bool")),
    "erase": (*COMMON, ("round", "int"), ("board", "int"), ("revision", "int")),
    "td_call": (*COMMON, ("round", "int"), ("text", "str")),
    "player": (*COMMON, ("round", "int"), ("seat", "int"), ("number", "str")),
    "started": (*COMMON, ("round", "int"), ("board", "int?")),
}
KINDS = {"int": "a whole number", "str": "text", "bool": "true or false"}
SECRET = ("code", "pin", "device")  # never echoed in a refusal (it is logged and audited)


class BadRequest(ValueError):
    """A message the port cannot pass on; its text says what is wrong (for the page)."""


def parse(raw: str | bytes) -> dict[str, Any]:
    """One message: a JSON object in a text frame (read by ``hub/api/json_reader.py``)."""
    if isinstance(raw, bytes):
        raise BadRequest("messages are JSON text frames, not binary ones")
    try:
        return read_object(raw)
    except JsonRefused as e:  # the page's words: NaN and Infinity are "not JSON" too
        constant = e.kind == "constant"
        raise BadRequest(
            f"not JSON: {e.reason} is not a number in JSON" if constant else str(e)
        ) from None


def request_id(msg: dict[str, Any]) -> int | None:
    """The message's ``id`` when it is a usable one, else None."""
    mid = msg.get("id")
    if isinstance(mid, int) and not isinstance(mid, bool) and 0 <= mid <= MAX_ID:
        return mid
    return None


def fields(msg: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The message's type and its checked fields (``BadRequest`` when one is missing or of
    the wrong kind; fields not listed are ignored)."""
    kind = msg.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        known = ", ".join(FIELDS)
        shown = json.dumps(kind)[:40] if kind is not None else "none"
        raise BadRequest(f"unknown type {shown}: a message is one of {known}")
    out: dict[str, Any] = {}
    for name, want in FIELDS[kind]:
        if name not in msg:
            raise BadRequest(f"{kind} lacks the field {name!r}")
        out[name] = _checked(kind, name, want, msg[name])
    return kind, out


def _checked(kind: str, name: str, want: str, value: Any) -> Any:
    base, nullable = want.rstrip("?"), want.endswith("?")
    if value is None and nullable:
        return None
    if base == "int" and isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value <= MAX_NUMBER:
            raise BadRequest(f"{kind}: {name} {value} is out of range (0-{MAX_NUMBER})")
        return value
    if base == "str" and isinstance(value, str):
        limit = MAX_TEXT.get(name, 8)
        if len(value) > limit:
            raise BadRequest(
                f"{kind}: {name} is too long ({len(value)} characters; {limit} at most)"
            )
        return value
    if base == "bool" and isinstance(value, bool):
        return value
    what = KINDS[base] + (" or null" if nullable else "")
    shown = type(value).__name__ if name in SECRET else json.dumps(value)[:40]
    raise BadRequest(f"{kind}: {name} must be {what}, not {shown}")


def hello(f: dict[str, Any]) -> str:
    """The device id of a ``hello`` (``BadRequest`` if the page is of another version)."""
    if f["version"] != VERSION:
        raise BadRequest(
            f"this hub speaks version {VERSION} of the terminal protocol, not "
            f"{f['version']}: reload the page"
        )
    if not DEVICE.fullmatch(f["device"]):
        raise BadRequest("hello: device must be 16-64 letters, digits, '-' or '_'")
    return str(f["device"])


def request(
    kind: str, f: dict[str, Any], ref: tp.TerminalRef, token: object, session: int, serial: str
) -> tp.Request:
    """The port request a checked message stands for (not ``hello``: its ``Joined`` is made by
    the port, which knows the serial)."""
    s, t = f["section"].strip().upper(), f["table"]
    if kind == "logon":
        return tp.LogonRequest(ref, token, serial, s, t, f["pin"], session=session)
    if kind == "result":
        return _result(ref, token, session, s, t, f)
    if kind == "verify":
        return tp.VerifyNotice(
            ref, token, s, t, f["round"], f["board"], f["agreed"], session=session
        )
    if kind == "erase":
        return tp.EraseRequest(
            ref, token, s, t, f["round"], f["board"], f["revision"], session=session
        )
    if kind == "td_call":
        return tp.DirectorCall(ref, token, s, t, f["round"], f["text"], session=session)
    if kind == "player":
        if f["seat"] > 3:
            raise BadRequest(f"player: seat {f['seat']} is not a seat (0 N, 1 E, 2 S, 3 W)")
        return tp.PlayerKeyed(
            ref, token, s, t, f["round"], f["seat"], f["number"].strip(), session=session
        )
    assert kind == "started", kind
    return tp.PlayStarted(ref, token, s, t, f["round"], f["board"], session=session)


def _result(
    ref: tp.TerminalRef, token: object, session: int, s: str, t: int, f: dict[str, Any]
) -> tp.ResultSubmission:
    """A result: ``contract`` "" is a board not played (so is ``no_play``), "PASS" a
    pass-out; a declarer is a seat letter."""
    contract, declarer = f["contract"].strip().upper(), f["declarer"]
    if declarer is not None and declarer.strip().upper() not in SEATS:
        raise BadRequest(f"result: declarer {json.dumps(declarer)} must be N, E, S, W or null")
    if f["no_play"] and contract:
        raise BadRequest(f'result: a board not played has contract "", not {contract!r}')
    return tp.ResultSubmission(
        ref,
        token,
        s,
        t,
        f["round"],
        f["board"],
        f["ns"],
        f["ew"],
        contract,
        declarer.strip().upper() if declarer else None,
        f["lead"].strip(),
        f["tricks"],
        f["revision"],
        no_play=f["no_play"] or not contract,
        session=session,
    )
