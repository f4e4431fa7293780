"""The hub API (decisions D1) as a client drives it: snapshot, numbered events, resume,
TD log-in with the PIN, and commands (held results, clock, TD entries)."""

from __future__ import annotations

import asyncio
import json
from fractions import Fraction

from event_text import one_section_event
from hub_stub import wait_until
from websockets.asyncio.client import connect

from drivers.protocol.messages import PlayerName, PlayerNumber, TDMessage
from hub.live.service.hub_service import HubService
from hub.store.store import Store
from simulator.bots import PlayerBot
from simulator.line import PtyLine
from simulator.station import VirtualBaseStation
from simulator.terminal import VirtualTerminal

EVENT = one_section_event("API session", 'kind = "howell", tables = 3, boards_per_round = 2')


class Client:
    def __init__(self, ws):
        self.ws = ws
        self.events: list[dict] = []
        self.replies: dict[str, dict] = {}
        self.other: list[dict] = []
        self.task = asyncio.get_running_loop().create_task(self._read())
        self.n = 0

    async def _read(self):
        async for raw in self.ws:
            msg = json.loads(raw)
            if msg["type"] == "event":
                self.events.append(msg)
            elif msg.get("id") is not None:
                self.replies[msg["id"]] = msg
            else:
                self.other.append(msg)

    async def ask(self, message):
        self.n += 1
        mid = f"m{self.n}"
        await self.ws.send(json.dumps({**message, "id": mid}))
        await wait_until(lambda: mid in self.replies, 10, f"the reply to {message}")
        return self.replies[mid]


def test_td_api_end_to_end(tmp_path):
    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in (1, 2, 3):
            bot = PlayerBot(seed=t, wrong_board_rate=1.0 if t == 1 else 0.0)
            station.add_terminal(VirtualTerminal(t, f"BM-{t}", "A", t, bot, speed=50_000))
        hub = HubService(
            store, eid, [str(line.path)], api=("127.0.0.1", 0), td_pin="2468", tick_s=0.2
        )
        await hub.start()
        url = f"ws://127.0.0.1:{hub.api.port}/v1"
        try:
            async with connect(url) as ws:
                c = Client(ws)
                await ws.send(json.dumps({"type": "hello", "version": 1}))
                await wait_until(lambda: c.other, 10, "the snapshot")
                snap = c.other[0]
                assert snap["type"] == "snapshot"
                room = snap["state"]["sections"]["A"]
                assert room["round"] == 1 and len(room["tables"]) == 3
                station.start()
                refused = await c.ask(
                    {"type": "command", "name": "pause", "args": {"section": "A"}}
                )
                assert not refused["ok"] and "PIN" in refused["error"]
                wrong = await c.ask({"type": "login", "pin": "0000"})
                assert not wrong["ok"] and wrong["error"] == "wrong PIN"
                token = (await c.ask({"type": "login", "pin": "2468", "name": "Anna"}))["token"]

                def cmd(name, **args):
                    return c.ask({"type": "command", "token": token, "name": name, "args": args})

                await wait_until(
                    lambda: any(e["event"] == "alert" and e["held"] for e in c.events),
                    20,
                    "a held result",
                )
                assert {
                    e["table"] for e in c.events if e["event"] == "table_online" and e["online"]
                } == {1, 2, 3}  # every terminal logged on
                held = next(e for e in c.events if e["event"] == "alert" and e["held"])
                assert "is not played at table 1" in held["text"]
                ok = await cmd(
                    "accept_held", result=held["result"], rekey={"board": held["board"] - 100}
                )
                assert ok["ok"] and ok["board"] == held["board"] - 100
                await wait_until(
                    lambda: any(e["event"] == "board_changed" for e in c.events),
                    10,
                    "the board to be rescored",
                )
                paused = await cmd("pause", section="A")
                assert paused["ok"] and paused["phase"] == "paused"
                bad = await cmd(
                    "enter_result",
                    section="A",
                    table=2,
                    round=1,
                    board=room["tables"][1]["boards"][0],
                    ns_pair=room["tables"][1]["ns"],
                    ew_pair=room["tables"][1]["ew"],
                    contract="9NT",
                    declarer="N",
                    result="=",
                )
                assert not bad["ok"] and "level 1-7" in bad["error"]
                unknown = await cmd("fly")
                assert not unknown["ok"] and "accept_held" in unknown["error"]
                sent = await cmd("message", text="Last round: 3 boards")
                assert sent["ok"] and sent["terminals"] == 3
                await wait_until(
                    lambda: all(
                        any(isinstance(x, TDMessage) for x in t.log.received)
                        for t in station.terminals.values()
                    ),
                    10,
                    "the director's message at every table",
                )
                station.terminals[2].send(PlayerNumber("A", 2, 1, 0, "1001"))
                await wait_until(
                    lambda: any(
                        isinstance(x, PlayerName) for x in station.terminals[2].log.received
                    ),
                    10,
                    "the name for the member number",
                )
                last = c.events[-1]["seq"]
                c.task.cancel()
            async with connect(url) as ws:  # reconnect and resume: no snapshot
                c2 = Client(ws)
                await ws.send(json.dumps({"type": "hello", "version": 1, "resume_from": last}))
                await wait_until(lambda: c2.events, 10, "events after the resume point")
                assert not c2.other and c2.events[0]["seq"] == last + 1
                c2.task.cancel()
        finally:
            await station.stop()
            await hub.stop()
            store.close()
            line.close()
        actions = [
            a["action"] for a in Store.open(f"sqlite:///{tmp_path / 'event.db'}").audit_log(eid)
        ]
        assert "command accept_held" in actions and "command pause" in actions
        assert "player_set" in actions

    asyncio.run(scenario())


SLOW_EVENT = EVENT.replace(
    'scoring = "mp"',
    """scoring = "mp"
[rules.slow_play]
steps = [
  { above_minutes = 0, up_to_minutes = 5, penalty = 10, unit = "percent_of_top" },
  { above_minutes = 5, up_to_minutes = 10, penalty = 20, unit = "percent_of_top" },
]""",
)


def test_a_slow_table_is_proposed_a_penalty_that_the_td_confirms(tmp_path):
    """D10: lateness from the official start; the scale proposes, the TD confirms (NS pays)
    and the standings change by 20 % of a top."""
    now = [0.0]

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(SLOW_EVENT)
        line = PtyLine(tmp_path / "base-1")
        station = VirtualBaseStation(line)
        for t in (1, 2, 3):
            station.add_terminal(
                VirtualTerminal(t, f"BM-{t}", "A", t, PlayerBot(seed=t), speed=50_000)
            )
        hub = HubService(
            store,
            eid,
            [str(line.path)],
            api=("127.0.0.1", 0),
            td_pin="1",
            clock=lambda: now[0],
            tick_s=0.2,
            auto_advance=False,
        )
        await hub.start()  # round 1 starts at 0 s: 2 boards, 15 minutes allowed
        now[0] = 21 * 60.0  # every table finishes 6 minutes late
        station.start()
        async with connect(f"ws://127.0.0.1:{hub.api.port}/v1") as ws:
            c = Client(ws)
            await ws.send(json.dumps({"type": "hello", "version": 1}))
            await wait_until(
                lambda: sum(e["event"] == "penalty_proposed" for e in c.events) == 3,
                20,
                "three proposals",
            )
            proposal = next(e for e in c.events if e["event"] == "penalty_proposed")
            assert "6.0 min late" in proposal["text"] and "20% of a top" in proposal["text"]
            token = (await c.ask({"type": "login", "pin": "1"}))["token"]
            before = {(r["pair"]): Fraction(r["total"]) for r in hub.standings_rows("A")}
            reply = await c.ask(
                {
                    "type": "command",
                    "token": token,
                    "name": "confirm_penalty",
                    "args": {"penalty": proposal["id"], "payer": "NS"},
                }
            )
            assert reply["ok"] and reply["applied_to_standings"]
            bad = await c.ask(
                {
                    "type": "command",
                    "token": token,
                    "name": "confirm_penalty",
                    "args": {"penalty": proposal["id"], "payer": "nobody"},
                }
            )
            assert not bad["ok"] and "NS, EW, both or shared" in bad["error"]
            after = {(r["pair"]): Fraction(r["total"]) for r in hub.standings_rows("A")}
            c.task.cancel()
        penalty = next(p for p in store.penalties(eid) if p["id"] == proposal["id"])
        await station.stop()
        await hub.stop()
        store.close()
        line.close()
        return before, after, penalty

    before, after, penalty = asyncio.run(scenario())
    ns = penalty["contestants"][0]
    assert penalty["status"] == "confirmed" and penalty["payer"] == "NS"
    # 20 % of a top: a board's top is 2 × (3 tables − 1) = 4 MPs, so 0.8 MP off the pair's
    # points; over its tops (2 boards × 4) that is 10 percentage points.
    assert before[ns] - after[ns] == 10
    assert all(after[p] == before[p] for p in before if p != ns)


BAD_MESSAGES = [
    # (what the client sends, raw text or an object; words the error must hold)
    ("NaN", "NaN is not a number in JSON"),
    ("Infinity", "Infinity is not a number in JSON"),
    ('{"type": "command", "token": TOKEN, "name": "adjust_clock",'
     ' "args": {"section": "A", "seconds": NaN}}', "NaN is not a number in JSON"),
    ('{"type": "command", "token": TOKEN, "name": "adjust_clock",'
     ' "args": {"section": "A", "seconds": -Infinity}}', "-Infinity is not a number in JSON"),
    ("[1, 2]", "a message is a JSON object, not list"),
    ("42", "a message is a JSON object, not int"),
    ('"adjust_clock"', "a message is a JSON object, not str"),
    ("null", "a message is a JSON object, not NoneType"),
    ("{not json", "not JSON"),
    ({"type": 5}, "messages are hello, login or command"),
    ({"type": "comand", "name": "pause"}, "messages are hello, login or command"),
    ({"name": "pause", "args": ["A"]}, "args must be an object"),
    ({"name": "pause", "args": {"section": 7}}, "section: needs a section of this event"),
    ({"name": "pause", "args": {"section": "Q"}}, "'Q' is not a section of this event (A)"),
    ({"name": "adjust_clock", "args": {"section": "A", "seconds": "60"}},
     "seconds: needs a number from -14400 to 14400, not '60'"),
    ({"name": "adjust_clock", "args": {"section": "A", "seconds": 1e300}},
     "seconds: needs a number from -14400 to 14400"),
    ({"name": "adjust_clock", "args": {"section": "A"}}, "seconds: missing"),
    ({"name": "adjust_clock", "args": {"section": "A", "seconds": 1, "why": "x"}},
     "why: not an argument of adjust_clock"),
    ({"name": "accept_held", "args": {"result": 1, "rekey": {"board": "x"}}},
     "rekey.board: needs a whole number"),
    ({"name": "fly", "args": {}}, "unknown command 'fly'"),
    ({"name": "f" * 200_000, "args": {}}, "unknown command 'fffff"),
    ({"name": "message", "args": {"text": "x" * 200_000}}, "text: needs text of 1 to 250"),
    ({"name": "td_call", "args": {"call": 1, "status": "resolved", "note": "n" * 10_000}},
     "note: needs text of at most 500 characters"),
    ({"name": "devices", "args": {}, "token": "forged"}, "log in with the director's PIN"),
]  # fmt: skip


def test_no_message_breaks_the_api_and_the_connection_stays_open(tmp_path):
    """[TRUST] "nothing a TD command can break": NaN and Infinity, JSON that is not an
    object, wrong types, unknown commands, missing, extra and huge arguments, a forged
    token and a command that fails inside the hub are each answered with an error, and
    the next valid command on the same connection succeeds. The clock shows every valid
    adjustment and nothing else: 2 boards × 7.5 minutes (seed 004) is 900 s, plus 1 s
    for each of the adjustments."""
    now = [1_900_000_000.0]

    async def scenario():
        store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        eid = store.create_event(EVENT)
        hub = HubService(
            store,
            eid,
            [],
            api=("127.0.0.1", 0),
            td_pin="2468",
            clock=lambda: now[0],
            tick_s=3600,
            auto_advance=False,
        )
        await hub.start()
        url = f"ws://127.0.0.1:{hub.api.port}/v1"

        async def answer(ws, text):
            """The next message that is not a feed event (the answer to ``text``)."""
            await ws.send(text)
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg["type"] not in ("event", "snapshot"):
                    return msg

        try:
            async with connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "version": 1}))
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "snapshot"
                login = {"type": "login", "pin": "2468", "name": "Anna"}
                token = (await answer(ws, json.dumps(login)))["token"]
                valid = {"type": "command", "token": token, "name": "adjust_clock"}
                valid["args"] = {"section": "A", "seconds": 1}
                good = 0
                for i, (sent, words) in enumerate(BAD_MESSAGES):
                    if isinstance(sent, dict):
                        sent = json.dumps({"type": "command", "token": token, "id": i, **sent})
                    sent = sent.replace("TOKEN", json.dumps(token))
                    got = await answer(ws, sent)
                    assert got.get("ok") is not True and words in got["error"], (sent[:80], got)
                    assert len(got["error"]) < 2000  # a huge argument is not echoed back
                    ok = await answer(ws, json.dumps({**valid, "id": f"ok{i}"}))
                    assert ok["ok"], (sent[:80], ok)
                    good += 1
                state = await hub.snapshot()
                assert state["sections"]["A"]["clock"]["seconds_left"] == 900 + good

                def broken(args, actor):
                    raise RuntimeError("a fault of the hub")

                hub.commands.handlers["devices"] = broken
                devices = {"type": "command", "token": token, "name": "devices", "id": "d"}
                got = await answer(ws, json.dumps(devices))
                assert not got["ok"] and got["id"] == "d"
                assert got["error"] == "internal error in devices: RuntimeError: a fault of the hub"
                ok = await answer(ws, json.dumps({**valid, "id": "after the fault"}))
                assert ok["ok"] and ok["seconds_left"] == 900 + good + 1
            for first in ("[]", "NaN", '"hello"'):  # a bad hello: an answer, not a crash
                async with connect(url) as ws:
                    await ws.send(first)
                    got = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    assert got["type"] == "error" and got["error"], got
        finally:
            await hub.stop()
            store.close()
        again = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
        kinds = [e["kind"] for e in again.clock_events(eid)]
        again.close()
        assert kinds.count("adjust") == len(BAD_MESSAGES) + 1  # only the valid ones stored

    asyncio.run(scenario())
