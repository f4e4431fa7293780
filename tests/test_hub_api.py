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
from hub.live.service import HubService
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
