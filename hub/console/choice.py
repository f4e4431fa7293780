"""Small pop-ups: a list of choices (how the TD decides a penalty, moves a TD call on,
adjusts a result) and a line of text (a corrected contract)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option


class PopUp(ModalScreen[str | None]):
    """A titled box over the console; Escape cancels (the answer is then None). Lives on
    the Textual app's event loop."""

    DEFAULT_CSS = """
    PopUp { align: center middle; }
    PopUp > Vertical { width: 60; height: auto; border: thick $accent;
                       background: $surface; padding: 0 1; }
    PopUp Label { width: 100%; }
    PopUp OptionList { height: auto; max-height: 12; }
    """
    BINDINGS: ClassVar = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text)
            yield self.body()

    def body(self) -> Widget:
        raise NotImplementedError

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoiceScreen(PopUp):
    """Pick one of ``choices`` (id, label) with the arrows and Enter. Lives on the Textual
    app's event loop."""

    def __init__(self, title: str, choices: list[tuple[str, str]]) -> None:
        super().__init__(title)
        self.choices = choices

    def body(self) -> Widget:
        return OptionList(*[Option(label, id=key) for key, label in self.choices])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)


class AskScreen(PopUp):
    """One line of text from the TD (a corrected contract, say). Lives on the Textual app's
    event loop."""

    def __init__(
        self, title: str, placeholder: str = "", allow_empty: bool = False, password: bool = False
    ) -> None:
        super().__init__(title)
        self.placeholder = placeholder
        self.allow_empty = allow_empty  # Enter on an empty line answers "" (Escape: None)
        self.password = password

    def body(self) -> Widget:
        return Input(placeholder=self.placeholder, password=self.password)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.dismiss(text if text or self.allow_empty else None)
