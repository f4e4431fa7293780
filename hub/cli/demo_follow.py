"""``bridgehub demo`` without the console: it follows the hub's API feed, prints the
standings after every round and does the director's work over the API, saying which console
key would have done it (TD trial F19)."""

from __future__ import annotations

import asyncio
import json
from fractions import Fraction
from typing import Any

import click
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

FINAL_WAIT_S = 60.0  # after the last standings, for the hub's "final results written to …"


class Director:
    """The TD in a demo without the console: says what happened and which console key
    settles it, then settles it over the API as the TD would (F19: the TD's work shown). On
    the demo's asyncio loop."""

    def __init__(self, ws: ClientConnection, pin: str) -> None:
        self.ws, self.pin = ws, pin
        self.token: str | None = None
        self.sent = 0
        self.checked: set[tuple[Any, ...]] = set()  # flags settled (an event lists them all)

    async def login(self) -> None:
        await self.ws.send(json.dumps({"type": "login", "pin": self.pin, "name": "demo TD"}))

    async def command(self, name: str, **args: Any) -> None:
        if self.token is None:
            return
        self.sent += 1
        msg = {"type": "command", "id": f"demo-{self.sent}", "token": self.token}
        await self.ws.send(json.dumps(msg | {"name": name, "args": args}))

    async def handle(self, msg: dict[str, Any]) -> None:
        ev = msg["event"]
        if ev == "alert" and msg.get("held") and msg.get("result"):
            click.echo(f"  ! {msg['text']}\n    held result: press c, then Enter on it")
            board = msg.get("board") or 0
            rekey = {"board": board - 100} if board > 100 else None  # the slip the room makes
            await self.command("accept_held", result=msg["result"], rekey=rekey)
        elif ev == "alert":
            click.echo(f"  ! {msg['text']}")
        elif ev == "suspicious" and msg.get("section"):
            for flag in msg.get("flags") or []:
                key = (msg["section"], flag["board"], flag["table"], flag["round"])
                if key in self.checked:
                    continue
                self.checked.add(key)
                click.echo(
                    f"  ? board {flag['board']} table {flag['table']}: {flag['reason']}\n"
                    "    suspicious score: press c, then Enter on it"
                )
                await self.command(
                    "contract_valid",
                    section=msg["section"],
                    table=flag["table"],
                    round=flag["round"],
                    board=flag["board"],
                )
        elif ev == "td_call" and msg.get("table") and msg.get("call"):  # a new call
            click.echo(f"  * TD call from table {msg['table']}: press c, then Enter on it")
            await self.command("td_call", call=msg["call"], status="resolved")
        elif ev == "behind":
            late = [f"table {t} {m:+.0f} min" for t, m in msg.get("tables") or [] if m >= 5]
            if late:  # (table, minutes behind) that changed; 5 minutes behind is worth a look
                click.echo(f"  ~ slow play: {', '.join(late)} behind: press w")
        elif ev == "penalty_proposed" and msg.get("text"):
            click.echo(f"  ~ {msg['text']}\n    penalty proposed: press w, then Enter on it")


async def follow(port: int, rounds: int, show: int, pin: str) -> None:
    """Follow the hub's API feed until the final results are written: the standings after
    every round (the top ``show``), the director's work as it is done."""
    for _ in range(100):  # the hub may still be starting
        try:
            ws = await connect(f"ws://127.0.0.1:{port}/v1")
            break
        except OSError:
            await asyncio.sleep(0.1)
    else:
        raise click.ClickException("the hub's API did not come up")
    async with ws:
        td = Director(ws, pin)
        await ws.send(json.dumps({"type": "hello", "version": 1}))
        await td.login()
        results = 0
        final = False  # the last standings are out: wait for where the final results went
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), FINAL_WAIT_S if final else None)
            except (TimeoutError, ConnectionClosed):
                return
            msg = json.loads(raw)
            sections = (msg.get("state") or {}).get("sections") or {}
            if (
                msg.get("type") == "snapshot"
                and sections
                and all(s.get("final") for s in sections.values())
            ):  # an earlier demo in this folder played the session to its end
                click.echo("this folder's session is over already: give the demo a new --dir")
                return
            if msg.get("type") == "session":
                td.token = msg["token"]
                click.echo("  the director starts round 1's clock (console: g)")
                await td.command("start_clock", section="A")
            elif msg.get("type") == "reply" and not msg.get("ok", True):
                click.echo(f"  (the hub refused the director's command: {msg.get('error')})")
            if msg.get("type") != "event":
                continue
            ev = msg["event"]
            if ev == "result":
                results += 1
            elif ev == "standings":
                top = sorted(msg["rows"], key=lambda r: -Fraction(r["total"]))[:show]
                line = ", ".join(
                    f"{r['rank']} {r.get('name') or 'pair ' + str(r['pair'])} {r['text']}%"
                    for r in top
                )
                click.echo(f"after round {msg['round']:>2} ({results} results): {line}")
                final = final or msg["round"] >= rounds
            else:
                try:
                    await td.handle(msg)
                except (KeyError, TypeError, ValueError) as e:  # a feed event of another shape
                    click.echo(f"  (the demo could not read a {ev!r} event: {e!r})")
                said = str(msg.get("text")) if ev == "alert" else ""
                if final and ("results written to" in said or "could not be written" in said):
                    return  # where the hub wrote the final results (or why it could not)
