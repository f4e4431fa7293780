"""A small form over the console for one director's command: labelled lines the TD fills
with the keyboard (Enter or Tab moves on, Enter on the last line or Ctrl+S sends), what
is wrong shown next to the line it concerns (checked here first, then the hub's
refusal), a confirmation first where the command changes the event, and Escape to leave
without sending. The score form and the pair forms are made of it."""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from inspect import Parameter
from typing import Any, ClassVar

from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from hub.console.choice import ChoiceScreen
from hub.console.commands import Console
from hub.console.desk_entry import FieldError
from hub.console.state import RoomState

CONFIRM_CHOICES = [("send", "yes, send it"), ("back", "no, back to the form")]


@dataclass(frozen=True)
class Line:
    """One line of a form: its key (the ``FieldError.field`` that points at it), label,
    value already filled in, and what to type."""

    name: str
    label: str
    value: str = ""
    placeholder: str = ""


@dataclass(frozen=True)
class Request:
    """The command a filled form sends: its name, what the log calls it, its arguments,
    and the question put to the TD before sending (None: send at once)."""

    name: str
    what: str
    args: dict[str, Any] = field(default_factory=dict)
    confirm: str | None = None


def failures_since(room: RoomState, seen: int) -> list[str]:
    """The log's complaints since it had ``seen`` lines (a command that could not go out:
    a read-only console, the hub out of reach)."""
    new = room.logged - seen
    return [x for x in room.log[-new:] if x.startswith("!")] if new > 0 else []


def _reserved(console: Console) -> set[str]:
    """The console's own parameter names a command's arguments cannot use while they are
    not positional-only (``substitute`` has a ``name``)."""
    out: set[str] = set()
    for send in (console.command, getattr(getattr(console, "commands", None), "send", None)):
        if send is None:
            continue
        params = inspect.signature(send).parameters.values()
        named = (Parameter.POSITIONAL_OR_KEYWORD, Parameter.KEYWORD_ONLY)
        out |= {p.name for p in params if p.kind in named}
    return out


def carries(console: Console, args: dict[str, Any]) -> bool:
    """Whether the console's ``command`` can send these arguments as they are."""
    return not _reserved(console) & set(args)


class FormScreen(ModalScreen[str | None]):
    """A form for one command; ``request`` turns its lines into the command or raises a
    ``FieldError`` for a line. Answers what was done (for the tab's status line), or None
    when the TD left it. Lives on the Textual app's event loop (key handlers, and the
    feed's worker for the hub's reply)."""

    DEFAULT_CSS = """
    FormScreen { align: center middle; }
    FormScreen > Vertical { width: 96; max-width: 100%; height: auto; max-height: 100%;
                            border: thick $accent; background: $surface; padding: 0 1; }
    FormScreen VerticalScroll { height: auto; max-height: 30; }
    FormScreen .line { height: auto; }
    FormScreen .line Label { width: 14; }
    FormScreen .line Input { width: 30; height: 1; border: none; padding: 0 1; }
    FormScreen .line Input:focus { background: $accent 40%; }
    FormScreen .error { width: 1fr; height: auto; color: $error; text-style: bold; }
    FormScreen #status { color: $warning; }
    """
    BINDINGS: ClassVar = [
        Binding("escape", "cancel", "Leave (nothing sent)"),
        Binding("ctrl+s", "submit", "Send"),
        # handled as the app reads the key, before it hands on the next ones ([MENDS] #25)
        Binding("enter", "next_line", "Next line", show=False, priority=True),
    ]
    # words in a refusal from the hub that point at a line, the most telling first
    # (without them: each line's own key)
    ERROR_WORDS: ClassVar[dict[str, tuple[str, ...]]] = {}

    def __init__(self, console: Console, title: str, lines: list[Line], hint: str = "") -> None:
        super().__init__()
        self.console = console
        self.title_text = title
        self.lines = lines
        self.hint = hint
        self.sending = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text)
            with VerticalScroll():
                for line in self.lines:
                    with Horizontal(classes="line"):
                        yield Label(line.label)
                        yield Input(line.value, placeholder=line.placeholder, id=f"f-{line.name}")
                        yield Static("", id=f"e-{line.name}", classes="error")
            yield Static("", id="status")
            yield Static(self.hint or "Enter: next line, and on the last sends   Escape: leave")

    def on_mount(self) -> None:
        """The cursor on the first empty line: the one the TD types in (forms put the lines
        filled in for them after it, or they are the place: a score's table and board)."""
        empty = next((x for x in self.lines if not x.value), self.lines[0])
        self.query_one(f"#f-{empty.name}", Input).focus()

    def action_next_line(self) -> None:
        """Enter on a line moves the cursor to the next line at once, while the app reads
        the key, so the keys typed after it land there however fast they come (a keypad, a
        barcode reader: ``2 Enter 4 Enter`` was ``table 24``, TD trial turn 3 G6). On the
        last line the key goes on to the line, which sends the form once its keys are in."""
        focused, names = self.focused, [x.name for x in self.lines]
        here = (focused.id or "").removeprefix("f-") if isinstance(focused, Input) else ""
        if here not in names or names.index(here) + 1 == len(names):
            raise SkipAction()
        self.set_focus(self.query_one(f"#f-{names[names.index(here) + 1]}", Input))

    def values(self) -> dict[str, str]:
        """What is typed in each line, by the line's key."""
        return {x.name: self.query_one(f"#f-{x.name}", Input).value for x in self.lines}

    def request(self, values: dict[str, str]) -> Request:
        """The command these values make; a ``FieldError`` for a line that is wrong."""
        raise NotImplementedError

    def done(self, request: Request, reply: dict[str, Any]) -> str:
        """What the tab's status line says once the hub has done it."""
        return f"{request.what}: done"

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        names = [x.name for x in self.lines]
        here = (event.input.id or "").removeprefix("f-")
        if here in names and names.index(here) + 1 < len(names):
            self.query_one(f"#f-{names[names.index(here) + 1]}", Input).focus()
        else:
            await self.action_submit()

    def show_error(self, line: str | None, message: str) -> None:
        """A message next to the line it concerns, the cursor there to put it right (TD
        trial turn 3 G6: it stayed on another line); or on the status line."""
        names = {x.name for x in self.lines}
        if line in names:
            self.query_one(f"#e-{line}", Static).update(message)
            self.set_focus(self.query_one(f"#f-{line}", Input))
        else:
            self.status(f"! {message}")

    def status(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    def clear_errors(self) -> None:
        for x in self.lines:
            self.query_one(f"#e-{x.name}", Static).update("")
        self.status("")

    async def action_submit(self) -> None:
        """Check the lines; ask first where the form says so; then send."""
        if self.sending:
            return
        self.clear_errors()
        try:
            request = self.request(self.values())
        except FieldError as e:
            self.show_error(e.field, e.message)
            return
        if request.confirm is None:
            await self.send(request)
            return

        async def confirmed(choice: str | None) -> None:
            if choice == "send":
                await self.send(request)

        self.app.push_screen(ChoiceScreen(request.confirm, CONFIRM_CHOICES), confirmed)

    async def send(self, request: Request) -> None:
        """Send the command; its reply closes the form, or its refusal shows next to the
        line it names. A command that could not go out says why on the status line."""
        if not carries(self.console, request.args):
            self.status(
                f"! {request.what}: this console cannot send the argument "
                f"{sorted(_reserved(self.console) & set(request.args))} (update the console)"
            )
            return
        self.sending = True
        self.status(f"sending: {request.what} …")
        seen = self.console.room.logged
        went = await self.console.command(
            request.name,
            request.what,
            on_reply=lambda reply: self.replied(request, reply),
            **request.args,
        )
        if not went:  # read-only console, or the hub out of reach (an alert meanwhile is not)
            failed = failures_since(self.console.room, seen)
            self.sending = False
            self.status(failed[-1] if failed else f"! {request.what}: not sent")

    def replied(self, request: Request, reply: dict[str, Any]) -> None:
        self.sending = False
        if not self.is_attached:
            return  # the TD left the form; the log has the reply
        if reply.get("ok"):
            self.dismiss(self.done(request, reply))
            return
        error = str(reply.get("error") or "refused, no reason given")
        line = self.field_of(error)
        self.show_error(line, error)
        if line is not None:  # "sending …" must not stay up over a refusal
            self.status("! refused by the hub: the reason is next to its line")

    def field_of(self, error: str) -> str | None:
        """The line a refusal names: the first whose key or words it mentions."""
        text = error.lower()
        names = {x.name for x in self.lines}
        words = self.ERROR_WORDS or {x.name: (x.name.replace("_", " "),) for x in self.lines}
        return next(
            (n for n, ws in words.items() if n in names and any(w in text for w in ws)), None
        )

    def action_cancel(self) -> None:
        self.dismiss(None)
