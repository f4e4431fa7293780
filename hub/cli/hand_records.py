"""``bridgehub hand-records FILE.pbn``: the director replaces the running hub's hand records
(TD trial F3: the stored file was rotated or of another set). It sends the file's text as
the director's command ``load_hand_records`` over the API (decisions D1, D20: with the
PIN), and prints what the hub did: the boards loaded, and the held results whose lead now
fits (accepted) or still does not (left for the director).

Also ``python -m hub.cli.hand_records``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import click


class HubClosedLink(ConnectionError):
    """The hub was reached and closed the link without answering (it says why)."""


async def send_hand_records(
    url: str,
    pin: str,
    pbn: str,
    session: int | None,
    timeout: float = 60.0,
    force: bool = False,
) -> dict[str, Any]:
    """Log in, send ``load_hand_records``, return the hub's reply (``ok`` and the result or
    the ``error``); ``OSError`` / ``TimeoutError`` when the hub cannot be reached,
    ``HubClosedLink`` when it closes the link (a file past the API's message limit)."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    try:
        return await _send(connect, url, pin, pbn, session, timeout, force)
    except ConnectionClosed as e:  # 1009: the file is bigger than the API takes
        raise HubClosedLink(f"the hub closed the link: {e}") from None


async def _send(
    connect: Any, url: str, pin: str, pbn: str, session: int | None, timeout: float, force: bool
) -> dict[str, Any]:
    async with asyncio.timeout(timeout), connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "version": 1}))
        await ws.send(json.dumps({"type": "login", "pin": pin, "name": "hand records"}))
        async for raw in ws:
            msg = json.loads(raw)
            if msg.get("type") == "session":
                args: dict[str, Any] = {"pbn": pbn}
                if session is not None:
                    args["session"] = session
                if force:
                    args["force"] = True
                command = {"name": "load_hand_records", "args": args}
                await ws.send(
                    json.dumps({"type": "command", "id": "hr", "token": msg["token"], **command})
                )
            elif msg.get("type") == "reply":
                return dict(msg)
    raise HubClosedLink("the hub closed the link before answering")


@click.command("hand-records")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--api", "url", default="ws://127.0.0.1:7170/v1", show_default=True)
@click.option("--session", type=click.IntRange(1, 99), default=None, help="Counted from 1.")
@click.option(
    "--pin",
    envvar="BRIDGEHUB_TD_PIN",
    default=None,
    help="The director's PIN (prefer the environment variable BRIDGEHUB_TD_PIN).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Load the file even if it leaves out boards of the session or the stored opening "
    "leads do not fit it.",
)
def hand_records(file: Path, url: str, session: int | None, pin: str | None, force: bool) -> None:
    """Replace the running hub's hand records with FILE (PBN); held results whose lead now
    fits the leader's hand are accepted. A file that leaves out boards of the session, or
    that the stored opening leads say is another set, is refused unless --force."""
    try:
        pbn = file.read_text("utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise click.ClickException(f"cannot read {file}: {e}") from None
    pin = pin or click.prompt("director's PIN", hide_input=True)
    try:
        reply = asyncio.run(send_hand_records(url, pin, pbn, session, force=force))
    except HubClosedLink as e:
        raise click.ClickException(f"the hub at {url} did not take the file: {e}") from None
    except (OSError, TimeoutError) as e:
        raise click.ClickException(f"cannot reach the hub at {url}: {e}") from None
    if not reply.get("ok"):
        raise click.ClickException(f"the hub refused the hand records: {reply.get('error')}")
    click.echo(
        f"hand records loaded: {reply.get('boards')} boards"
        + (f"; not in the file: boards {reply['missing']}" if reply.get("missing") else "")
    )
    leads = reply.get("leads") or {}
    if leads.get("not_in_hand"):  # loaded with --force though the leads do not fit
        click.echo(
            f"stored opening leads not in the leader's hand by this file: "
            f"{leads['not_in_hand']} of {leads.get('checked')}"
        )
    click.echo(
        f"held results accepted (their lead now fits): {reply.get('accepted') or 'none'}; "
        f"still held for the director: {reply.get('still_held') or 'none'}"
    )


if __name__ == "__main__":
    hand_records()
