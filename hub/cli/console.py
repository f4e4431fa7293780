"""``bridgehub console``: the TD console, a client of a running hub."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from hub.console.state import RoomState


@click.command("console")
@click.option("--api", "url", default="ws://127.0.0.1:7170/v1", show_default=True)
@click.option(
    "--pin",
    envvar="BRIDGEHUB_TD_PIN",
    default=None,
    help="The director's PIN (for commands such as pausing the clock). Prefer the "
    "environment variable BRIDGEHUB_TD_PIN: an option shows in process lists. Without "
    "it the console asks for it, and asks again when the hub refuses it.",
)
@click.option(
    "--guide",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    hidden=True,
    help="Lines shown on opening, in the log and over the first screen (the demo's guide).",
)
def console(url: str, pin: str | None, guide: Path | None) -> None:
    """The TD console (keys: r room, s standings, c calls and held results, w slow tables,
    t traveller, e scores, a pairs, d devices, l log, g start the clock, p pause, i log
    in, ? every key, q quit)."""
    from hub.api.client import Send, Source, websocket_source
    from hub.console.app import ConsoleApp

    def connect(typed: str) -> tuple[Source, Send]:  # a PIN typed in the console: a new connection
        return websocket_source(url, typed)

    source, send = websocket_source(url, pin)
    app = ConsoleApp(source, send if pin else None, connect=connect, ask_pin=not pin)
    if guide is not None:  # TD trial G13: the guide where the TD looks, not behind the screen
        show_guide(app.room, [x for x in guide.read_text("utf-8").splitlines() if x.strip()])
    app.run()


def show_guide(room: RoomState, lines: list[str]) -> None:
    """The guide's lines at the top of the console's log, and together in one notice over
    its first screen (the demo's: which key settles which incident)."""
    for line in lines:
        room.note(f"guide: {line}")
    room.news.append("\n".join(lines) + "\n(this guide stays on the Log tab: l)")
