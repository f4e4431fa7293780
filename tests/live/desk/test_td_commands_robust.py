"""Nothing a TD command can break (issue [TRUST], decisions D1): every command's arguments
are checked against its model (finite numbers in sane ranges, bounded text, known keys,
the event's sections); a refusal names the argument and what it needs; a clock event a
former hub stored unchecked (NaN) is ignored and reported at start; docs/api.md's command
table is the models'. The hub's clock is injected: no waiting on real time."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import math
from pathlib import Path
from typing import Any

import pytest
from event_text import one_section_event
from hub_stub import wait_until

from hub.api.command_models import COMMANDS, generated, parse
from hub.api.server import CommandError
from hub.console.pairs_book import PairsBook
from hub.console.state import RoomState
from hub.live.rounds.clock_log import ClockLog
from hub.live.rounds.round_clock import RoundClock, RoundTiming
from hub.live.service.hub_service import HubService
from hub.store.store import Store

# seed 004's time rule: 7.5 minutes a board, so 2 boards a round is 900 s of play
EVENT = one_section_event("Robust", 'kind = "howell", tables = 3, boards_per_round = 2')
START = 1_900_000_000.0


class FakeClock:
    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def started(tmp_path: Path, clock: FakeClock) -> tuple[Store, int, HubService]:
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT)
    hub = HubService(store, eid, [], clock=clock, auto_advance=False, tick_s=3600)
    await hub.start()
    return store, eid, hub


def test_every_command_has_one_model_and_one_handler(tmp_path):
    """One place maps a command's name to its model; every handler has one, and no model
    is without a handler."""

    async def scenario():
        store, _, hub = await started(tmp_path, FakeClock())
        try:
            assert set(hub.commands.handlers) == set(COMMANDS)
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())


BAD_ARGS = [
    # (command, args, words the refusal must hold)
    ("adjust_clock", {"section": "A", "seconds": math.nan}, "seconds: needs a number from"),
    ("adjust_clock", {"section": "A", "seconds": math.inf}, "seconds: needs a number from"),
    ("adjust_clock", {"section": "A", "seconds": -math.inf}, "seconds: needs a number from"),
    ("adjust_clock", {"section": "A", "seconds": "nan"}, "seconds: needs a number from"),
    ("adjust_clock", {"section": "A", "seconds": 1e400}, "seconds: needs a number from"),
    ("adjust_clock", {"section": "A", "seconds": 5 * 3600}, "-14400 to 14400, not 18000"),
    ("adjust_clock", {"section": "A", "seconds": True}, "seconds: needs a number"),
    ("adjust_clock", {"section": "A"}, "seconds: missing"),
    ("adjust_clock", {"section": "A", "seconds": 60, "minutes": 1}, "minutes: not an argument"),
    ("extend", {"section": "A", "minutes": math.nan}, "minutes: needs a number from -240"),
    ("start_break", {"section": "A", "minutes": 0}, "more than 0 and at most 240, not 0"),
    ("start_break", {"section": "A", "minutes": 10**9}, "minutes: needs a number"),
    ("pause", {"section": "Z"}, "section: 'Z' is not a section of this event (A)"),
    ("pause", {"section": 1}, "section: needs a section of this event"),
    ("pause", {}, "section: missing"),
    ("accept_held", {"result": 1, "rekey": {"board": "x"}}, "rekey.board: needs a whole"),
    ("accept_held", {"result": 1, "rekey": {"colour": 1}}, "rekey.colour: not an argument"),
    ("accept_held", {"result": 1, "rekey": [3]}, "rekey: needs an object of `board`"),
    ("accept_held", {"result": 2**70}, "result: needs a whole number from 1 to"),
    ("message", {"text": "x" * 100_000}, "text: needs text of 1 to 250 characters"),
    ("message", {"text": "   "}, "text: needs text of 1 to 250 characters"),
    ("td_call", {"call": 1, "status": "done"}, "in_progress, resolved or deferred"),
    ("confirm_penalty", {"penalty": 1, "payer": "nobody"}, "one of NS, EW, both or shared"),
    ("enter_result", {"section": "A", "table": 1}, "round: missing"),
    ("devices", {"verbose": True}, "verbose: not an argument of devices (it takes no"),
    ("fly", {}, "unknown command 'fly'"),
]


@pytest.mark.parametrize(("name", "args", "words"), BAD_ARGS)
def test_a_bad_argument_is_refused_naming_it_and_nothing_is_stored(tmp_path, name, args, words):
    """[TRUST]: a NaN (or any value the model refuses) never reaches a handler, the store
    or the clock; the refusal names the argument and what it needs, and the hub reads on."""
    clock = FakeClock()

    async def scenario():
        store, eid, hub = await started(tmp_path, clock)
        try:
            with pytest.raises(CommandError) as refused:
                await hub.commands.dispatch(name, args, "TD Anna")
            assert words in str(refused.value)
            kinds = [e["kind"] for e in store.clock_events(eid)]
            assert kinds == ["start"], kinds  # only the round's start: nothing refused stored
            state = await hub.snapshot()  # a NaN used to make this raise
            assert state["sections"]["A"]["clock"]["seconds_left"] == 900
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())


def test_one_refusal_lists_every_wrong_argument():
    text = str(_refusal("enter_result", {"section": "A", "table": 0, "board": "7", "x": 1}))
    for words in (
        "table: needs a whole number from 1 to 999, not 0",
        "round: missing",
        "board: needs a whole number from 1 to 9999, not '7'",
        "x: not an argument",
    ):
        assert words in text


def _refusal(name: str, args: dict) -> CommandError:
    try:
        parse(name, args, ["A"])
    except CommandError as e:
        return e
    raise AssertionError(f"{name} {args} was accepted")


# the arguments the console sends (hub/console: keys, decisions, traveller), as
# tests/console/test_console.py records them: each is accepted as it is
CONSOLE_SENDS = [
    ("pause", {"section": "A"}),
    ("resume", {"section": "A"}),
    ("adjust_clock", {"section": "A", "seconds": 60}),
    ("adjust_clock", {"section": "A", "seconds": -60}),
    ("start_break", {"section": "A", "minutes": 10}),
    ("start_clock", {"section": "A"}),
    ("next_round", {"section": "A"}),
    ("accept_held", {"result": 41}),
    ("accept_held", {"result": 41, "rekey": {"board": 3}}),
    ("reject_held", {"result": 41}),
    ("release_standings", {"section": "A"}),
    ("td_call", {"call": 7, "status": "resolved"}),
    ("confirm_penalty", {"penalty": 3, "payer": "EW"}),
    ("waive_penalty", {"penalty": 3}),
    ("allow_takeover", {"section": "A", "table": 1}),
    ("contract_valid", {"section": "A", "board": 3, "table": 1, "round": 1}),
    ("traveller", {"section": "A", "board": 3}),
    ("erase_result", {"section": "A", "table": 1, "round": 1, "board": 3}),
    (
        "enter_result",
        {"section": "A", "table": 1, "round": 1, "board": 3, "ns_pair": 1, "ew_pair": 4}
        | {"contract": "PASS", "declarer": "", "result": ""},
    ),
    (
        "enter_result",
        {"section": "A", "table": 1, "round": 1, "board": 3, "ns_pair": 1, "ew_pair": 4}
        | {"adjusted": "60/40"},
    ),
    ("devices", {}),
    ("message", {"text": "Last round", "section": "A"}),
    # issue13 [EVENING]: what the console now sends besides (hub/console/clock_keys.py,
    # decisions.py); the desk and pairs forms' arguments are built by the forms below
    ("start_clock", {"section": "A", "restart": True}),
    ("accept_held", {"result": 41, "replace": True}),
    ("td_call", {"call": 7, "status": "resolved", "ruling": "Law 16B: score stands"}),
    ("td_call", {"call": 7, "status": "deferred", "ruling": "after the round"}),
    ("td_call", {"call": 7, "status": "in_progress", "note": "at the table"}),
]


@pytest.mark.parametrize(("name", "args"), CONSOLE_SENDS)
def test_what_the_console_sends_is_accepted(name, args):
    assert parse(name, args, ["A"]).model_dump(exclude_unset=True) == args


class _Console:
    """What the console's forms read of the console: the room (no sections known)."""

    room = RoomState()


def _form_sends() -> list[tuple[str, dict[str, Any]]]:
    """The commands the console's desk and pairs forms build from what a TD types (the
    forms' own ``request``, so the hub's models are checked against the console's real
    arguments, not a copy of them)."""
    from hub.console.desk_entry import score
    from hub.console.desk_score import ScoreForm, Where
    from hub.console.pairs_forms import (
        EditPairForm,
        LatePairForm,
        MovementForm,
        SubstituteForm,
        WithdrawForm,
    )

    c, book = _Console(), PairsBook()
    score_form = ScoreForm(c, Where("A", 1, 1, 3, 1, 4))  # type: ignore[arg-type]
    blank = {line.name: "" for line in score_form.lines}
    place = {"section": "A", "table": "1", "round": "1", "board": "3"}
    typed = [
        blank | place | {"contract": "4S", "declarer": "n", "result": "-1", "lead": "HA"},
        blank | place | {"contract": "pass"},
        blank | place | {"adjusted": "a+/a-"},
        blank | place | {"adjusted": "60/40"},
        blank | place | {"w1": "1/2 4S N =", "w2": "1/4 4S N -1", "w3": "25% 3NT S +1"},
    ]
    sends = [score_form.request(v) for v in typed]
    entries = [
        {"section": "A", "table": 2, "round": 1, "board": b} | score(text)
        for b, text in ((1, "3NT S +1 D4"), (2, "A/A"), (3, "1/2 4S N =; 1/2 5Sx N -1"))
    ]
    players = {"name1": "Ann Lee", "number1": "123", "name2": "Bo Ek", "number2": ""}
    sends += [
        LatePairForm(c, book, "A", 2).request({"from_round": "2"} | players),  # type: ignore[arg-type]
        WithdrawForm(c, book, "A", 3, "EW 3", 4).request({"from_round": "4"}),  # type: ignore[arg-type]
        SubstituteForm(c, book, "A", 3, "EW 3").request(  # type: ignore[arg-type]
            {"seat": "2", "name": "Cid Moe", "number": "77"}
        ),
        EditPairForm(c, book, "A", 3, "EW 3", []).request(players),  # type: ignore[arg-type]
        MovementForm(c, book, "A", 3).request(  # type: ignore[arg-type]
            {"from_round": "3", "kind": "Mitchell", "tables": "", "pairs": "13"}
            | {"boards_per_round": "2"}
        ),
    ]
    return [(r.name, r.args) for r in sends] + [("enter_results", {"entries": entries})]


@pytest.mark.parametrize(("name", "args"), _form_sends())
def test_what_the_console_forms_send_is_accepted(name, args):
    """Issue13 review (R4): every desk and pairs form of the console sends arguments the
    hub's model takes as they are (a result, PASS, artificial, weighted Law 12C1(c), a
    round's slips, a late pair, a withdrawal, a substitute, names, a movement change)."""
    assert parse(name, args, ["A"]).model_dump(exclude_unset=True) == args


def test_the_round_clock_refuses_a_value_it_cannot_keep():
    """The clock itself (a fold over stored events) keeps no NaN, infinity or absurd
    value, so no path into it can break every later reading."""
    clock = RoundClock(RoundTiming(), {1: 2})
    clock.start_round(1, 0.0)
    for action, value in [
        (clock.adjust, math.nan),
        (clock.adjust, math.inf),
        (clock.extend, -math.inf),
        (clock.start_break, 0.0),
        (clock.start_break, 241.0),
    ]:
        with pytest.raises(ValueError, match="is not a number"):
            action(value, 10.0)
    clock.adjust(-60.0, 10.0)
    assert clock.show(20.0).seconds_left == 900 - 20 - 60


def test_the_clock_log_stores_no_value_that_is_not_finite(tmp_path):
    """The last guard before the store: a NaN that reached the clock's record would break
    every later start of the hub, so it is refused there too."""
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT)
    log = ClockLog(store, eid)
    with pytest.raises(ValueError, match="nan is not a finite number"):
        asyncio.run(log.record("A", "adjust", START, value=math.nan))
    asyncio.run(log.record("A", "adjust", START, value=30.0))
    assert [e["detail"] for e in store.clock_events(eid)] == [{"value": 30.0}]
    store.close()


@pytest.mark.parametrize(
    ("stored", "words"),
    [(math.nan, "nan is not a number"), (math.inf, "inf is not a number"), ("soon", "'soon'")],
)
def test_a_hub_starts_although_an_older_hub_stored_a_bad_clock_event(
    tmp_path, caplog, stored, words
):
    """[TRUST]: an older hub stored `adjust_clock` NaN (or infinity, or no number at all);
    a restarted hub starts, ignores that event, tells the director in an alert and the log,
    and its clock runs from the events it can read."""
    clock = FakeClock()
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT)
    at = dt.datetime.fromtimestamp(START, dt.UTC)
    store.add_clock_event(eid, "start", "A", 1, {}, at=at)
    store.add_clock_event(eid, "adjust", "A", None, {"value": stored}, at=at)
    store.add_clock_event(eid, "adjust", "A", None, {"value": 30.0}, at=at)
    clock.now += 100

    async def scenario():
        hub = HubService(store, eid, [], clock=clock, auto_advance=False, tick_s=3600)
        await hub.start()
        try:

            def alerts():
                return [e for e in hub.feed.since(0) or [] if e["event"] == "alert"]

            state = await hub.snapshot()  # a NaN in the clock made this raise
            # 900 s allowed, 100 s played, the readable +30 s adjustment kept
            assert state["sections"]["A"]["clock"]["seconds_left"] == 900 - 100 + 30
            await wait_until(lambda: alerts(), 10, "an alert for the bad clock event")
            state = await hub.snapshot()
            [alert] = alerts()
            assert alert["section"] == "A" and alert["text"] in state["alerts"]
            assert "'adjust' of" in alert["text"] and "is ignored" in alert["text"]
            assert words in alert["text"]
            out = await hub.commands.dispatch(
                "adjust_clock", {"section": "A", "seconds": 60}, "TD Anna"
            )
            assert out["seconds_left"] == 900 - 100 + 30 + 60
        finally:
            await hub.stop()
            store.close()

    with caplog.at_level(logging.WARNING, logger="hub.live.rounds.clock_ticker"):
        asyncio.run(scenario())
    assert sum("is ignored" in r.getMessage() for r in caplog.records) == 1


def test_a_restart_after_the_computers_clock_went_back_keeps_the_rounds_start(tmp_path, caplog):
    """D10 (a restarted hub replays the stored clock; the round the director moved on to
    stays current) with the computer's clock set back 5 minutes before the restart:
    round 2's start, stored later than the new "now", happened and is kept, so round 2 is
    current with its full 900 s, held until the wall clock catches up; the step is logged
    once and told to the director; the director's clock commands are taken (no "time
    order" refusal), counted no earlier than the last stored event; a further restart
    gives the same clock."""
    clock = FakeClock(START - 300)  # set back 5 minutes
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(EVENT)
    for rnd, at in ((1, START - 1800), (2, START)):
        store.add_clock_event(eid, "start", "A", rnd, {}, at=dt.datetime.fromtimestamp(at, dt.UTC))

    async def run_hub(then):
        hub = HubService(store, eid, [], clock=clock, auto_advance=False, tick_s=3600)
        await hub.start()
        try:
            return await then(hub)
        finally:
            await hub.stop()

    async def first(hub: HubService) -> list:
        section = (await hub.snapshot())["sections"]["A"]
        assert section["round"] == 2 and section["clock"]["seconds_left"] == 900

        def alerts() -> list:
            return [e for e in hub.feed.since(0) or [] if e["event"] == "alert"]

        await wait_until(alerts, 10, "an alert for the clock set back")
        out = await hub.commands.dispatch("adjust_clock", {"section": "A", "seconds": 60}, "TD")
        assert out["seconds_left"] == 900 + 60
        await hub.commands.dispatch("pause", {"section": "A"}, "TD")
        clock.now += 30  # still 270 s behind: the pause counts at round 2's start
        await hub.commands.dispatch("resume", {"section": "A"}, "TD")
        clock.now = START + 100  # caught up: 100 s of play since round 2's start
        section = (await hub.snapshot())["sections"]["A"]
        assert section["clock"]["seconds_left"] == 900 + 60 - 100
        return alerts()

    async def again(hub: HubService) -> dict:
        return (await hub.snapshot())["sections"]["A"]

    with caplog.at_level(logging.WARNING, logger="hub.live.rounds.clock_ticker"):
        alerts = asyncio.run(run_hub(first))
        section = asyncio.run(run_hub(again))
    store.close()
    [alert] = alerts
    assert "300 s behind" in alert["text"] and alert["section"] == "A"
    assert sum("300 s behind" in r.getMessage() for r in caplog.records) == 1
    assert section["round"] == 2 and section["clock"]["seconds_left"] == 900 + 60 - 100


def test_the_commands_table_of_docs_api_is_the_models():
    """docs/api.md holds the generated command table verbatim (as docs/protocol.md holds
    the message reference): name, arguments with types and ranges, the model's words."""
    doc = (Path(__file__).parents[3] / "docs" / "api.md").read_text("utf-8")
    assert doc.count("<!-- generated: commands") == 1
    assert generated() in doc, "run: python -m hub.api.command_models, paste into docs/api.md"
    for name in COMMANDS:
        assert f"| `{name}` |" in generated()
