"""The parts of the club-evening acceptance run (issue 13 [EVENING],
tests/evening/test_club_evening_e2e.py): the event (a 13-pair Mitchell with named pairs and hand
records), the deals, a room of simulated terminals on a real pty whose tables the test lets
play round by round, the hub as a ``bridgehub run`` process, and the director at the API
(``hub/api/client.py``).

The 14 deals are dealt here by a seeded shuffle (``random.Random(13)``): any deals do, the
evening checks the leads against them, not the players' judgement (the RealBridge file in
tests/data has only 10 boards, the evening needs 14)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from drivers.protocol.messages import NakCode
from hub.api.client import websocket_source
from hub.store.store import Store
from hub.store.values import StoredResult
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

PIN = "CLUB7EVE"
TD = "Anna"  # the session's name; the hub records the director as "TD Anna"
TABLES = 7
BOARDS_PER_ROUND = 2
NS_NAMES = [
    ("Anna Berg", "Bo Ek"),
    ("Cleo Dahl", "Dan Falk"),
    ("Eva Gran", "Filip Holm"),
    ("Greta Ivarsson", "Hugo Jung"),
    ("Ida Karlsson", "Jon Lind"),
    ("Karin Moberg", "Lars Nord"),
    ("Maja Olsson", "Nils Persson"),
]
EW_NAMES = [
    ("Olga Quist", "Per Rask"),
    ("Rut Sand", "Sven Tell"),
    ("Tora Ulf", "Ulf Vik"),
    ("Vera Wall", "Wilhelm Ygg"),
    ("Xenia Zorn", "Yngve Ahl"),
    ("Zara Brink", "Axel Cederholm"),
]
LATE_PAIR = ("Lena Sen", "Lars Sen")  # arrives during round 1: EW 7, the sit-out's place


def deals() -> dict[int, str]:
    """Boards 1-14, each a PBN deal (``N:`` then the hands N E S W, suits S.H.D.C)."""
    rng = random.Random(13)
    cards = [suit + rank for suit in "SHDC" for rank in "AKQJT98765432"]
    out = {}
    for board in range(1, 15):
        rng.shuffle(cards)
        hands = []
        for seat in range(4):
            hand = set(cards[seat * 13 : seat * 13 + 13])
            hands.append(
                ".".join("".join(r for r in "AKQJT98765432" if s + r in hand) for s in "SHDC")
            )
        out[board] = "N:" + " ".join(hands)
    return out


def rotated(deal: str) -> str:
    """The deal written one seat clockwise: the file's North hand is the room's East hand."""
    hands = deal.split(":", 1)[1].split()  # N E S W as in the room
    return "N:" + " ".join(hands[1:] + hands[:1])


def pbn(boards: dict[int, str]) -> str:
    return "".join(f'[Board "{b}"]\n[Deal "{d}"]\n\n' for b, d in sorted(boards.items()))


def event_text() -> str:
    """The club's event file: 7 NS and 6 EW pairs by name (EW 7 missing: a sit-out)."""
    pairs = []
    for direction, names in (("NS", NS_NAMES), ("EW", EW_NAMES)):
        for n, (first, second) in enumerate(names, 1):
            pairs.append(
                f'[[sessions.sections.pairs]]\nnumber = {n}\ndirection = "{direction}"\n'
                f'players = [{{ name = "{first}", number = "{100 + len(pairs) + 1}" }}, '
                f'{{ name = "{second}" }}]\n'
            )
    return (
        'schema_version = 1\n[event]\nname = "Club evening"\n[rules]\nscoring = "mp"\n'
        '[[sessions]]\nname = "Evening"\nhand_records = "hands.pbn"\n'
        '[[sessions.sections]]\nletter = "A"\n'
        f'movement = {{ kind = "mitchell", pairs = 13, boards_per_round = {BOARDS_PER_ROUND} }}\n'
        + "".join(pairs)
    )


def exe() -> str:
    return shutil.which("bridgehub") or str(Path(sys.executable).parent / "bridgehub")


def load_hand_records(file: Path, url: str) -> subprocess.CompletedProcess[str]:
    """`bridgehub hand-records FILE --api URL`, the PIN in the environment (docs/api.md)."""
    return subprocess.run(
        [exe(), "hand-records", str(file), "--api", url],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "BRIDGEHUB_TD_PIN": PIN},
        check=False,
    )


async def until(
    check: Callable[[], Any], timeout: float, what: str, detail: Callable[[], str] = str
) -> Any:
    """Poll ``check`` (sync) until it returns something true; fail naming ``what``."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}\n{detail()}")
        await asyncio.sleep(0.05)


class Plan:
    """Which tables may play which round (the test lets the room play step by step), and
    which table-rounds leave their boards unplayed."""

    def __init__(self) -> None:
        self._gates: dict[tuple[int, int], asyncio.Event] = {}
        self.skip: set[tuple[int, int]] = set()  # (round, table): nothing entered

    def gate(self, rnd: int, table: int) -> asyncio.Event:
        return self._gates.setdefault((rnd, table), asyncio.Event())

    def open(self, rnd: int, tables: range | list[int] = range(1, TABLES + 1)) -> None:
        for table in tables:
            self.gate(rnd, table).set()


class EveningTerminal(VirtualTerminal):
    """A simulated terminal whose players know the deals and wait for the test's go for
    each round (the simulator's own loop, with a gate and skipped rounds)."""

    def __init__(self, table: int, plan: Plan, room_deals: dict[int, str]) -> None:
        bot = PlayerBot(seed=table, deals=room_deals)
        super().__init__(table, f"BM-{table}", "A", table, bot, speed=50_000)
        self.plan = plan

    async def play(self) -> None:
        from drivers.protocol.messages import BoardStarted, RoundStarted

        while True:
            await self._assigned.wait()
            self._assigned.clear()
            a = self.assignment
            assert a is not None
            self.round_done.clear()
            if 0 in (a.ns_pair, a.ew_pair):  # a sit-out: nothing to enter this round
                self.round_done.set()
                continue
            await self.plan.gate(a.round, self.table).wait()
            if (a.round, self.table) not in self.plan.skip:
                self.send(RoundStarted(a.section, a.table, a.round, self.now_ms()))
                for board in a.boards:
                    self.send(BoardStarted(a.section, a.table, a.round, board, self.now_ms()))
                    await asyncio.sleep(0.01)
                    e = self.bot.play(board)
                    self.enter(a, board, e.contract, e.declarer, e.lead, e.tricks)
            self.round_done.set()


class Room:
    """The simulated base station on a real pty with one terminal a table."""

    def __init__(self, folder: Path, plan: Plan, room_deals: dict[int, str]) -> None:
        self.line = PtyLine(folder / "base-1")
        self.station = VirtualBaseStation(self.line)
        self.terminals = [EveningTerminal(t, plan, room_deals) for t in range(1, TABLES + 1)]
        for terminal in self.terminals:
            self.station.add_terminal(terminal)

    def describe(self) -> str:
        """What each terminal showed and what was refused, for a failure's message."""
        return "\n".join(
            f"table {t.table}: shown {t.log.shown[-6:]}, refused {t.log.refused[-3:]}"
            for t in self.terminals
        )

    def refused(self) -> list[tuple[int, str]]:
        """Refusals a table would see, but "log on first" (the restarted hub does not know
        the terminals yet: they log on again and resend, docs/protocol.md)."""
        return [
            (t.table, text)
            for t in self.terminals
            for _, code, text in t.log.refused
            if code != NakCode.NOT_LOGGED_ON
        ]

    async def stop(self) -> None:
        await self.station.stop()
        self.line.close()


class HubProcess:
    """``bridgehub run`` as the TD starts it, its output in files."""

    def __init__(self, folder: Path, station: str, port: int) -> None:
        self.folder, self.station, self.port = folder, station, port
        self.db = f"sqlite:///{folder / 'club.db'}"
        self.results = folder / "results"
        self.out, self.err = folder / "hub.out", folder / "hub.err"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "BRIDGEHUB_TD_PIN": PIN, "PYTHONUNBUFFERED": "1"}
        args = ["run", "--event", str(self.folder / "club.toml"), "--db", self.db]
        args += ["--station", self.station, "--api", f"127.0.0.1:{self.port}"]
        args += ["--results-dir", str(self.results)]
        with self.out.open("a") as out, self.err.open("a") as err:
            self.proc = subprocess.Popen([exe(), *args], stdout=out, stderr=err, env=env)

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    def output(self) -> str:
        return self.out.read_text("utf-8") if self.out.exists() else ""

    def tail(self) -> str:
        err = self.err.read_text("utf-8")[-3000:] if self.err.exists() else ""
        rows = [(r.table, r.round, r.board, r.status) for r in self.stored()]
        return f"stored: {rows}\nhub stdout:\n{self.output()[-2000:]}\nhub stderr:\n{err}"

    def stored(self) -> list[StoredResult]:
        """Every stored row (held and accepted revisions), read as another process would."""
        if not (self.folder / "club.db").exists():
            return []
        store = Store.open(self.db)
        try:
            return store.results(1) if store.event_ids() else []
        finally:
            store.close()

    def live(self) -> list[StoredResult]:
        store = Store.open(self.db)
        try:
            return store.live_results(1)
        finally:
            store.close()


class Director:
    """The TD at the API: the feed followed and the commands sent through the hub's client
    (``websocket_source``), which logs in again by itself after the hub's restart."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.source, self._send = websocket_source(url, PIN, name=TD, retry_s=0.2)
        self.messages: list[dict[str, Any]] = []
        self.replies: dict[str, dict[str, Any]] = {}
        self.logged_in = False
        self._n = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._follow())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _follow(self) -> None:
        async for msg in self.source():
            self.messages.append(msg)
            kind = msg.get("type")
            if kind == "session":
                self.logged_in = True
            elif kind == "link":
                self.logged_in = False
            elif kind == "reply" and isinstance(msg.get("id"), str):
                self.replies[msg["id"]] = msg

    def events(self, name: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m.get("type") == "event" and m.get("event") == name]

    def alerts(self, containing: str) -> list[str]:
        return [e["text"] for e in self.events("alert") if containing in str(e.get("text"))]

    async def command(self, name: str, timeout: float = 30, **args: Any) -> dict[str, Any]:
        """Send a director's command and return the hub's reply (``ok`` and the rest)."""
        await until(lambda: self.logged_in, timeout, f"a director's session to send {name}")
        self._n += 1
        cid = f"td{self._n}"
        await self._send({"id": cid, "name": name, "args": args})
        return await until(lambda: self.replies.get(cid), timeout, f"the reply to {name} {args}")


async def snapshot(url: str) -> dict[str, Any]:
    """The room as a client joining now sees it (the feed's first message, docs/api.md)."""
    from websockets.asyncio.client import connect

    async with asyncio.timeout(20), connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "version": 1}))
        async for raw in ws:
            msg = json.loads(raw)
            if msg.get("type") == "snapshot":
                return dict(msg["state"])
    raise ConnectionError("the hub closed the feed before its snapshot")


async def wait_snapshot(
    url: str, check: Callable[[dict[str, Any]], Any], timeout: float, what: str
) -> dict[str, Any]:
    """Fresh snapshots until ``check`` holds; fail naming ``what`` and the last one's keys."""
    end = time.monotonic() + timeout
    last: dict[str, Any] = {}
    while True:
        try:
            last = await snapshot(url)
            if check(last):
                return last
        except (OSError, TimeoutError, ConnectionError):
            pass
        if time.monotonic() > end:
            brief = {k: last.get(k) for k in ("held", "not_played", "alerts")}
            section = last.get("sections", {}).get("A", {})
            brief["A"] = {k: section.get(k) for k in ("round", "clock", "final", "tables")}
            raise AssertionError(f"timed out after {timeout} s waiting for {what}\n{brief}")
        await asyncio.sleep(0.1)
