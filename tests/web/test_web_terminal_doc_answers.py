"""What docs/web-terminal.md now says a phone builder can rely on ([MENDS] #25 item 7,
outside builders turn 3 §2 "Gaps"): `agreed` and `no_play` are JSON booleans, not 1/0;
which refusals count toward the wrong-code limit; what the phone that held a table is told
when another device takes it over with the director's PIN."""

from __future__ import annotations

import asyncio

from web_terminal_hub import PIN, WsTerminal, web_terminal_hub

LOGON = {"section": "A", "pin": ""}
WHERE = {"section": "A", "table": 1, "round": 1, "board": 1}


def test_mends_agreed_and_no_play_are_booleans_never_one_or_zero(tmp_path):
    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=2) as room:
            phone = WsTerminal(room.ws_url, "a-phone-at-table-1")
            await phone.connect()
            ok = await phone.ask("logon", **LOGON, table=1, code=room.codes[("A", 1)])
            assert ok["outcome"] == "ok", ok
            verify = await phone.ask("verify", **WHERE, agreed=1)
            assert (verify["reason"], verify["text"]) == (
                "bad_request",
                "verify: agreed must be true or false, not 1",
            )
            result = {"ns": 1, "ew": 1, "contract": "", "declarer": None, "lead": ""}
            sent = await phone.ask(
                "result", **WHERE, **result, tricks=None, revision=1, no_play="true"
            )
            assert sent["reason"] == "bad_request"
            assert sent["text"].startswith("result: no_play must be true or false, not ")
            await phone.close()

    asyncio.run(scenario())


def test_mends_only_a_wrong_code_counts_toward_the_limit(tmp_path):
    """Six log-ons with no code and six with a code another device used: none counts, so
    the device's next log-on with a right code is not kept waiting."""

    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=2) as room:
            first = WsTerminal(room.ws_url, "phone-that-used-a1")
            await first.connect()
            ok = await first.ask("logon", **LOGON, table=1, code=room.codes[("A", 1)])
            assert ok["outcome"] == "ok", ok
            other = WsTerminal(room.ws_url, "phone-of-table-two")
            await other.connect()
            for _ in range(6):
                none = await other.ask("logon", **LOGON, table=2, code="")
                assert none["text"].startswith("table A2 needs its code")
                used = await other.ask("logon", **LOGON, table=1, code=room.codes[("A", 1)])
                assert used["reason"] == "code_used", used
            right = await other.ask("logon", **LOGON, table=2, code=room.codes[("A", 2)])
            assert right["outcome"] == "ok", right
            await first.close()
            await other.close()

    asyncio.run(scenario())


def test_mends_the_phone_that_lost_its_table_to_a_pin_takeover_is_told_so(tmp_path):
    async def scenario() -> None:
        async with web_terminal_hub(tmp_path, tables=2) as room:
            old = WsTerminal(room.ws_url, "phone-that-held-a1")
            await old.connect()
            ok = await old.ask("logon", **LOGON, table=1, code=room.codes[("A", 1)])
            assert ok["outcome"] == "ok", ok
            new = WsTerminal(room.ws_url, "phone-taking-over-a1")
            await new.connect()
            took = await new.ask("logon", section="A", table=1, code="", pin=PIN)
            assert took["outcome"] == "ok", took
            text = "table A1 was taken over by another terminal: ask the director"
            told = await old.wait_for("message", lambda m: m["text"] == text)
            assert told["beep"] is True
            refused = await old.ask("started", **{**WHERE, "board": None})
            assert (refused["reason"], refused["text"]) == ("not_logged_on", text)
            await old.close()
            await new.close()

    asyncio.run(scenario())
