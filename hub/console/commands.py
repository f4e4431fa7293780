"""The director's commands to the hub (decisions D1): each numbered, remembered until the
hub answers, the answer told to the TD in the log and to whoever asked for it; and what
the keys and pop-ups may use of the console (``Console``), so they depend on no more."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from hub.api.client import Send
from hub.api.command_models import COMMANDS
from hub.console.choice import PopUp
from hub.console.state import RoomState

Reply = Callable[[dict[str, Any]], None]
Answer = Callable[[str | None], Awaitable[None]]  # what to do with the TD's pick


class Commands:
    """Sends the TD's commands and hands each reply to its ``on_reply``. Lives on the
    Textual app's event loop: commands go out from key and pop-up handlers, replies come
    in through the feed's worker on the same loop."""

    def __init__(
        self, send: Send | None, room: RoomState, no_session: Callable[[], None] | None = None
    ) -> None:
        self._send = send
        self.room = room
        self.no_session = no_session  # asks the TD for the PIN, when the console can
        self._n = 0
        self._on_reply: dict[str, Reply] = {}

    def use(self, send: Send | None) -> None:
        """Send through this connection from now on (a new log-in)."""
        self._send = send

    async def send(
        self,
        name: str,
        what: str,
        /,
        on_reply: Reply | None = None,
        quiet: bool = False,
        **args: Any,
    ) -> bool:
        """Send a director's command; its reply lands in the log (and in ``on_reply``);
        ``quiet`` logs only a refusal (for reads repeated every few seconds). False when
        it could not go out (a read-only console, the hub out of reach: the TD is told)."""
        if self._send is None:
            self.room.warn(f"! {what}: this console is read-only (no PIN)")
            if self.no_session is not None:
                self.no_session()
            return False
        self._n += 1
        command_id = f"console-{self._n}"
        self.room.sent(command_id, what, quiet)
        if on_reply is not None:
            self._on_reply[command_id] = on_reply
        try:
            await self._send({"id": command_id, "name": name, "args": args})
        except (ConnectionError, OSError) as e:
            self.room.pending.pop(command_id, None)
            self.room.warn(f"! {what} not sent: {e}")
            if self.no_session is not None and "PIN" in str(e):
                self.no_session()
            return False
        return True

    async def request(self, name: str, args: dict[str, Any], on_reply: Reply) -> bool:
        """A read-only request of the hub (docs/api.md "Read-only requests": no log line,
        the reply to ``on_reply``); False when it could not go out (no session yet)."""
        if self._send is None:
            return False
        self._n += 1
        request_id = f"console-{self._n}"
        self._on_reply[request_id] = on_reply
        try:  # the client's send names it a command unless told: "type" says otherwise
            await self._send({"type": "request", "id": request_id, "name": name, "args": args})
        except (ConnectionError, OSError):
            self._on_reply.pop(request_id, None)
            return False
        return True

    def take_reply(self, msg: dict[str, Any]) -> None:
        """Hand a reply from the feed to the one who asked for it, if anyone did."""
        if msg.get("type") == "reply" and msg.get("id") in self._on_reply:
            self._on_reply.pop(msg["id"])(msg)


def accepts(command: str, arg: str) -> bool:
    """Whether the hub's ``command`` takes ``arg`` (an argument added in a later version
    of the API is sent only to a hub that knows it)."""
    model = COMMANDS.get(command)
    return model is not None and arg in model.model_fields


class Console(Protocol):
    """What the keys and pop-up flows use of the console app (its event loop)."""

    room: RoomState

    @property
    def section_filter(self) -> str | None: ...

    async def command(
        self,
        name: str,
        what: str,
        /,
        on_reply: Reply | None = None,
        quiet: bool = False,
        **args: Any,
    ) -> bool: ...

    def ask(self, popup: PopUp, then: Answer) -> None:
        """Put a pop-up over the console; the TD's answer goes to ``then``."""

    def call_later(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
        """Run ``callback`` (a coroutine function too) on the app's loop once idle."""

    def action_tab(self, tab: str) -> None: ...

    async def fetch_traveller(self, section: str, board: int) -> None: ...
