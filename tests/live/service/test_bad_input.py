"""The bad-input catalogue (issue 12 [FAULTS]): one test per class of tests/bad_input_cases.py,
each fed to the real code path (the hub's Link; the base-station adapter, intake and a real
SQLite store; a running hub behind a base station's line; the API's message and command
checks; a running hub's commands; the event file parser; the command line), checking the
exact error, that nothing escaped and nothing was stored; and docs/bad-input.md is the
text generated from the catalogue."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest
from bad_input_cases import CASES, DOC, EVENT, Case, generated
from click.testing import CliRunner
from hostile import Sent, expect, hostile_room

from drivers.protocol.link import Garbage, Link, Received, Refused
from drivers.protocol.messages import Message, NakCode, Result
from hub.api.command_models import parse
from hub.api.server import CommandError, parse_message
from hub.cli.main import cli
from hub.event.event_file import EventFileError, parse_event
from hub.live.port.base_station import REFUSALS, request
from hub.live.port.terminal_port import Outcome, ResultSubmission
from hub.live.results.intake import Intake, IntakeResult, Pending
from hub.live.results.result_writer import store_pending
from hub.live.results.stored import Stored
from hub.live.service.hub_service import HubService
from hub.store.store import Store


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding examples/club_howell.toml as event 1, copied by each test."""
    path = tmp_path_factory.mktemp("bad_input") / "event.db"
    store = Store.open(f"sqlite:///{path}")
    assert store.create_event(EVENT) == 1
    store.close()
    return path


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "store" / "event.db"
    copy.parent.mkdir()
    shutil.copy(template, copy)
    return copy


# -- the paths ---------------------------------------------------------------------------------
def frames(data: bytes) -> str:
    """The hub's Link fed the bytes: what it made of the last frame."""
    events = Link(lambda: 0.0, epoch=100).feed(data)
    assert events, "the link said nothing"
    last = events[-1]
    if isinstance(last, Garbage):
        return f"dropped: {last.fault.name}"
    assert isinstance(last, Refused), last
    return f"NAK {last.code.name}: {last.reason}"


def terminal(db: Path, *steps: tuple[Any, ...]) -> str:
    """Log-ons and results as a base station hands them to the hub: the adapter's domain
    request, intake, the result writer's store; the answer to the last step."""
    store = Store.open(f"sqlite:///{db}")
    try:
        movements = {s: store.movement(1, s) for s in store.sections(1)}
        intake = Intake(movements, lambda who, what, d: store.audit(1, who, what, d))
        intake.load(store.live_results(1), Stored.read(store, 1).deals)
        answer = ""
        for step in steps:
            if step[0] == "logon":
                verdict = intake.logon(*step[1:])
                out = IntakeResult(verdict)
            else:
                out = _submit(store, intake, step[1], step[2])
            answer = _said(out)
        if answer.startswith("NAK") and steps[-1][0] == "result":  # audited (log-ons are
            assert store.audit_log(1)[-1]["action"] == "refused"  # counted per link, D20)
        held = [r for r in store.results(1) if r.status == "held"]
        assert not answer.startswith("HELD") or held, "a held result is stored in quarantine"
        return answer
    finally:
        store.close()


def _submit(store: Store, intake: Intake, serial: str, msg: Result) -> IntakeResult:
    sub = request("line", Received(1, 1, 1, msg))
    assert isinstance(sub, ResultSubmission)
    out = intake.prepare(serial, sub)
    if isinstance(out, IntakeResult):
        return out
    assert isinstance(out, Pending), out  # no catalogued class is a NO PLAY
    (stored,) = store_pending(store, 1, [out])
    return intake.stored(out, stored)


def _said(out: IntakeResult) -> str:
    v = out.verdict
    if v.outcome is Outcome.REFUSED:
        assert v.reason is not None
        return f"NAK {REFUSALS[v.reason].name}: {v.text}"
    if v.outcome is Outcome.HELD:
        return f"HELD: {out.alert}"
    return f"{v.outcome.name}: {v.text}"


def wire(folder: Path, *steps: tuple[int, Message]) -> str:
    """Messages from terminals on a base station's line into a running hub (its driver and
    adapter, table requests, intake; tests/hostile.py's room): the answer to the last, as
    the terminal reads it; nothing logged at ERROR."""

    async def scenario() -> str:
        async with hostile_room(folder) as room:
            sent = [Sent("case", expect(), message=msg) for _, msg in steps]
            for s, (address, _) in zip(sent, steps, strict=True):
                room.send(s, room.devices[address])
            await room.drain(0)
            assert room.errors.records == [], room.errors.records
            assert sent[-1].answer is not None
            verdict, text = sent[-1].answer
            kind, code = verdict.split()
            return (
                f"NAK {NakCode(int(code)).name}: {text}" if kind == "NAK" else f"{verdict}: {text}"
            )

    return asyncio.run(scenario())


def message(raw: str) -> str:
    with pytest.raises(ValueError) as refused:
        parse_message(raw)
    return str(refused.value)


def args(name: str, arguments: dict[str, Any]) -> str:
    with pytest.raises(CommandError) as refused:
        parse(name, arguments, ["A"])
    return str(refused.value)


def hub(db: Path, name: str, arguments: dict[str, Any]) -> str:
    """The command on a running hub (the console's and `bridgehub hand-records`' path)."""

    async def scenario() -> str:
        store = Store.open(f"sqlite:///{db}")
        service = HubService(store, 1, [], auto_advance=False, tick_s=3600)
        await service.start()
        try:
            before = len(store.results(1)), store.hand_records(1)
            with pytest.raises(CommandError) as refused:
                await service.commands.dispatch(name, arguments, "TD Anna")
            assert (len(store.results(1)), store.hand_records(1)) == before, "nothing stored"
            return str(refused.value)
        finally:
            await service.stop()
            store.close()

    return asyncio.run(scenario())


def toml(text: str) -> str:
    with pytest.raises(EventFileError) as refused:
        parse_event(text, "event.toml")
    return f"Error: {refused.value}"  # as `bridgehub event create event.toml` prints it


def command_line(
    db: Path, tmp_path: Path, files: dict[str, str | bytes], argv: list[str]
) -> list[str]:
    """`bridgehub …` in a folder holding ``files``: its output lines (exit status 1, no
    traceback)."""
    work = tmp_path / "work"
    work.mkdir()
    for name, content in files.items():
        if isinstance(content, bytes):
            (work / name).write_bytes(content)
        else:
            (work / name).write_text(content, "utf-8")
    argv = [a.replace("{db}", f"sqlite:///{db}") for a in argv]
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(work)
        r = CliRunner().invoke(cli, argv)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exc_info
    assert r.exit_code in (1, 2), r.output
    assert "Traceback" not in r.output and "internal error" not in r.output, r.output
    return r.output.splitlines()


def matches(got: str, expected: str) -> bool:
    """Word for word; an expected text ending in "…" is the start of a longer one (a list)."""
    return got.startswith(expected[:-1]) if expected.endswith("…") else got == expected


@pytest.mark.parametrize("case", CASES, ids=[f"{c.kind.name.lower()}-{c.name}" for c in CASES])
def test_each_bad_input_class_gets_its_exact_error(case: Case, db: Path, tmp_path: Path):
    """Issue 12 [FAULTS] bad-input catalogue: the class reaches its real path and gets the
    catalogued error, word for word; nothing escapes as an exception."""
    path, *rest = case.input
    if path == "cli":
        lines = command_line(db, tmp_path, *rest)
        assert any(matches(line, case.error) for line in lines), "\n".join(lines)
        return
    run = {
        "frames": frames,
        "terminal": lambda *steps: terminal(db, *steps),
        "wire": lambda *steps: wire(tmp_path, *steps),
        "message": message,
        "args": args,
        "hub": lambda *a: hub(db, *a),
        "toml": toml,
    }[path]
    got = run(*rest)
    assert matches(got, case.error), got


def test_the_catalogue_document_is_the_generated_text():
    """docs/bad-input.md is generated from the cases; regenerate with
    `python tests/bad_input_cases.py --write`."""
    assert DOC.read_text("utf-8") == generated(), "run: python tests/bad_input_cases.py --write"


def test_the_catalogue_covers_every_kind_with_distinct_classes():
    from bad_input_cases import Kind

    ids = [(c.kind, c.name) for c in CASES]
    assert len(ids) == len(set(ids))
    assert {c.kind for c in CASES} == set(Kind)
    assert len(CASES) >= 60
