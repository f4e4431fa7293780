"""The hub's one reader of untrusted JSON (``hub/api/json_reader.py``): one object, or
``JsonRefused`` saying why; and each of its callers (the API server, the browser terminals'
messages, the results pages' link to the hub) still words a refusal as it always did."""

from __future__ import annotations

import pytest

from hub.api.json_reader import JsonRefused, read_object
from hub.api.server import parse_message
from hub.web_results.hub_link import _unreadable
from hub.web_terminal import messages

LONG_NUMBER = '{"a": ' + "1" * 5000 + "}"
DEEP = "[" * 100_000 + "]" * 100_000


def short(value: object) -> str | None:
    """A test's id: the start of a long input (a nest 100,000 deep), not all of it."""
    return value[:24] if isinstance(value, str) else None


DIGITS = "Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits"


def refusal(raw: str | bytes) -> JsonRefused:
    with pytest.raises(JsonRefused) as refused:
        read_object(raw)
    return refused.value


HELLO = '{"type": "hello", "version": 1}'


@pytest.mark.parametrize(
    "raw", [HELLO, HELLO.encode(), HELLO.encode("utf-16"), HELLO.encode("utf-8-sig")]
)
def test_an_object_is_read_from_text_or_bytes(raw):
    assert read_object(raw) == {"type": "hello", "version": 1}


def test_nothing_but_the_object_is_changed():
    doc = read_object('{"a": [1, 2.5, "x", null, true], "b": {"c": -0.0}, "a2": 1, "a2": 2}')
    assert doc == {"a": [1, 2.5, "x", None, True], "b": {"c": -0.0}, "a2": 2}


@pytest.mark.parametrize(
    ("raw", "constant"),
    [("NaN", "NaN"), ('{"seconds": NaN}', "NaN"), ('{"a": [1, Infinity]}', "Infinity"),
     ('{"a": {"b": -Infinity}}', "-Infinity"), (b'{"a": NaN}', "NaN")],
)  # fmt: skip
def test_nan_and_infinity_are_refused_wherever_they_stand(raw, constant):
    refused = refusal(raw)
    assert (refused.kind, refused.reason) == ("constant", constant)
    assert str(refused) == f"{constant} is not a number in JSON: send a finite number"


@pytest.mark.parametrize(
    ("raw", "kind"),
    [("[1, 2]", "list"), ("42", "int"), ("4.5", "float"), ('"hello"', "str"),
     ("null", "NoneType"), ("true", "bool"), (b"[]", "list")],
)  # fmt: skip
def test_a_top_level_that_is_not_an_object_is_refused(raw, kind):
    refused = refusal(raw)
    assert (refused.kind, refused.reason) == ("not_object", kind)
    assert str(refused) == f"a message is a JSON object, not {kind}"


@pytest.mark.parametrize(
    ("raw", "reason"),
    [("{", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
     ("", "Expecting value: line 1 column 1 (char 0)"),
     ('{"a": 1} x', "Extra data: line 1 column 10 (char 9)"),
     ("<html>hello</html>", "Expecting value: line 1 column 1 (char 0)"),
     (b"\xff", "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte")],
)  # fmt: skip
def test_what_is_not_json_is_refused_in_the_decoders_words(raw, reason):
    refused = refusal(raw)
    assert (refused.kind, refused.reason, str(refused)) == ("syntax", reason, f"not JSON: {reason}")


def test_json_nested_too_deep_or_with_a_number_too_long_is_refused():
    deep = refusal(DEEP)
    assert (deep.kind, str(deep)) == ("depth", "not JSON: nested too deep")
    long = refusal(LONG_NUMBER)
    assert long.kind == "number" and long.reason.startswith(DIGITS)
    assert str(long) == f"not JSON: {long.reason}"


def test_a_refusal_is_a_value_error():
    """So every caller that caught ``ValueError`` from ``json.loads`` still catches it."""
    assert issubclass(JsonRefused, ValueError)


def words(read, raw: str | bytes) -> str:
    with pytest.raises(ValueError) as refused:
        read(raw)
    return str(refused.value)


# Each caller's words, as before the one reader (docs/api.md, docs/bad-input.md,
# docs/web-terminal.md): the API server, the browser terminals' messages.
CALLERS = [
    ("{", "not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
     "not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ("[1, 2]", "a message is a JSON object, not list", "a message is a JSON object, not list"),
    ("null", "a message is a JSON object, not NoneType",
     "a message is a JSON object, not NoneType"),
    ("NaN", "NaN is not a number in JSON: send a finite number",
     "not JSON: NaN is not a number in JSON"),
    ('{"a": -Infinity}', "-Infinity is not a number in JSON: send a finite number",
     "not JSON: -Infinity is not a number in JSON"),
    (DEEP, "not JSON: nested too deep", "not JSON: nested too deep"),
]  # fmt: skip


@pytest.mark.parametrize(("raw", "api", "terminal"), CALLERS, ids=short)
def test_the_api_and_the_terminals_word_a_refusal_as_before(raw, api, terminal):
    assert words(parse_message, raw) == api
    assert words(messages.parse, raw) == terminal


def test_a_number_too_long_keeps_each_callers_words():
    """The API answers Python's words alone; the browser terminals prefix "not JSON"."""
    assert words(parse_message, LONG_NUMBER).startswith(DIGITS)
    assert words(messages.parse, LONG_NUMBER).startswith(f"not JSON: {DIGITS}")


def test_binary_frames_stay_the_callers_own_matter():
    """The API reads a binary frame's JSON; a browser terminal speaks text frames only."""
    assert parse_message(b'{"type": "hello"}') == {"type": "hello"}
    assert words(parse_message, b"\xff").startswith("not JSON: 'utf-8' codec can't decode")
    assert words(messages.parse, b"{}") == "messages are JSON text frames, not binary ones"


@pytest.mark.parametrize(
    ("raw", "said"),
    [("<html>hello</html>", "Expecting value: line 1 column 1 (char 0)"),
     ("[1, 2]", "not the hub's API: a message '[1, 2]'"),
     ("NaN", "not the hub's API: a message 'NaN'"),
     ('{"a": NaN}', """not the hub's API: a message '{"a": NaN}'"""),
     (DEEP, "not JSON: nested too deep")],
    ids=short,
)  # fmt: skip
def test_the_results_link_says_why_a_message_is_not_the_hubs(raw, said):
    """docs/web-results.md "When the hub is not there": the link's error, logged once."""
    with pytest.raises(JsonRefused) as refused:
        read_object(raw)
    assert _unreadable(refused.value, raw) == said


def test_a_feed_message_that_is_no_json_object_is_a_link_down_not_a_crash():
    """docs/api.md: the console and the screens show a lost link and open it again; a
    message they cannot read (NaN here) must not end their feed."""
    import asyncio

    from websockets.asyncio.server import serve

    from hub.api.client import websocket_source

    async def hub(ws):
        await ws.recv()  # the client's hello
        await ws.send('{"type": "event", "event": "clock", "remaining": NaN}')
        await asyncio.sleep(5)

    async def follow() -> list[dict]:
        async with serve(hub, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            source, _ = websocket_source(f"ws://127.0.0.1:{port}/v1", retry_s=0.05)
            feed = source()
            first = await asyncio.wait_for(anext(feed), 5)
            await feed.aclose()
            return [first]

    (first,) = asyncio.run(follow())
    assert first["type"] == "link" and first["up"] is False
    assert "NaN" in first["error"]
