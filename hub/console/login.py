"""The director's log-in from the console (TD trial F15): the PIN is asked for in the app
when it was not given or the hub refused it (its refusal shown), and the console logs in
again over a new connection with the PIN typed; Escape keeps a read-only console (``i``
asks again)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from hub.api.client import Send, Source
from hub.console.choice import AskScreen, PopUp
from hub.console.commands import Answer
from hub.console.state import RoomState

Connect = Callable[[str], tuple[Source, Send]]  # a PIN → the feed and commands with it


class LoginHost(Protocol):
    """What the log-in uses of the console app (its event loop)."""

    room: RoomState

    def ask(self, popup: PopUp, then: Answer) -> None: ...

    def reconnect(self, source: Source, send: Send) -> None: ...


class Login:
    """Asks for the PIN and reconnects with it. Lives on the Textual app's event loop
    (the feed's worker and key handlers)."""

    def __init__(self, host: LoginHost, connect: Connect | None) -> None:
        self.host = host
        self.connect = connect
        self.asking = False

    def ask(self, why: str = "") -> None:
        """Put the PIN prompt up (once at a time), saying why it is asked."""
        if self.connect is None:
            self.host.room.warn("! this console cannot log in: start it with the PIN")
            return
        if self.asking:
            return
        self.asking = True
        title = f"{why}\nThe director's PIN:" if why else "The director's PIN (Escape: read-only):"
        self.host.ask(AskScreen(title, "PIN", password=True), self._typed)

    async def _typed(self, pin: str | None) -> None:
        self.asking = False
        if pin is None or self.connect is None:
            self.host.room.note("the console is read-only: i logs in")
            return
        self.host.room.note("logging in")
        self.host.reconnect(*self.connect(pin))

    def seen(self, msg: dict[str, Any]) -> None:
        """A message from the feed: a refused log-in brings the prompt back."""
        if msg.get("type") == "reply" and msg.get("id") == "login" and not msg.get("ok"):
            self.ask(f"The hub refused the PIN: {msg.get('error') or 'no reason given'}")
        elif msg.get("type") == "login_required" or (
            msg.get("type") == "link" and "log in" in str(msg.get("error") or "")
        ):
            self.ask(str(msg.get("error") or "The hub asks for the director's PIN"))
