"""The director's score for one table, round and board (issue13, TD trial F4): a result
as played (contract, declarer, result, lead), an artificial score (A+/A-, A/A, A+/A+,
A-/A-, A-/A+, 60/40, 40/60, 50/50 or the event's percentages) or a Law 12C1(c)
weighted score, one result a line; sent as ``enter_result``. Opened on a board nobody
played (the pairs known) or blank for any board (the hub fills the pairs in from the
movement)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from hub.console.commands import Console
from hub.console.desk_entry import (
    ARTIFICIAL_HINT,
    FieldError,
    artificial,
    describe,
    number,
    played,
    weighted,
    weighted_line,
)
from hub.console.desk_form import FormScreen, Line, Request, failures_since
from hub.console.labels import pair_label
from hub.console.replacing import Place, unless_stored

WEIGHTED_LINES = ("w1", "w2", "w3")


@dataclass(frozen=True)
class Where:
    """A table, round and board to score, with its pairs when known (a board not played)."""

    section: str = ""
    table: int | None = None
    round: int | None = None
    board: int | None = None
    ns_pair: int | None = None
    ew_pair: int | None = None

    @property
    def label(self) -> str:
        return f"{self.section}{self.table} round {self.round} board {self.board}"


def _text(x: int | None) -> str:
    return "" if x is None else str(x)


class ScoreForm(FormScreen):
    """One board's score from the director. Lives on the Textual app's event loop."""

    ERROR_WORDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "lead": ("lead",),
        "declarer": ("declarer",),
        "contract": ("contract",),
        "w1": ("weight",),
        "adjusted": ("adjusted", "artificial"),
        "result": ("result", "tricks"),
        "board": ("board",),
        "round": ("round",),
        "table": ("table", "pair", "sit"),
        "section": ("section",),
    }

    def __init__(
        self,
        console: Console,
        where: Where,
        on_stored: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        sec = console.room.sections.get(where.section) or {}
        pairs = ""
        if where.ns_pair is not None and where.ew_pair is not None:
            ns, ew = pair_label(sec, where.ns_pair, "NS"), pair_label(sec, where.ew_pair, "EW")
            pairs = f" (NS {ns} v EW {ew})"
        title = f"Score {where.label}{pairs}" if where.board else "Score any table, round and board"
        lines = [
            Line("section", "section", where.section, "A"),
            Line("table", "table", _text(where.table), "table number"),
            Line("round", "round", _text(where.round), "round number"),
            Line("board", "board", _text(where.board), "board number"),
            Line("contract", "contract", "", "4S, 3NTX, PASS"),
            Line("declarer", "declarer", "", "N E S W"),
            Line("result", "result", "", "= +1 -2 or tricks"),
            Line("lead", "lead", "", "HA, S10 (may stay empty)"),
            Line("adjusted", "or artificial", "", "A+/A- A/A 60/40 …"),
            *(Line(w, "or weighted", "", "1/2 4S N =") for w in WEIGHTED_LINES),
        ]
        hint = (
            "Fill the result, OR an artificial score (" + ARTIFICIAL_HINT + "), OR two or "
            "more weighted lines (Law 12C1(c)).  Enter: next line; Ctrl+S sends; Escape: leave"
        )
        super().__init__(console, title, lines, hint)
        self.where = where
        self.on_stored = on_stored

    def request(self, values: dict[str, str]) -> Request:
        args = self.place(values)
        result_typed = any(values[k].strip() for k in ("contract", "declarer", "result", "lead"))
        adjusted_typed = bool(values["adjusted"].strip())
        weighted_typed = [values[w] for w in WEIGHTED_LINES if values[w].strip()]
        kinds = result_typed + adjusted_typed + bool(weighted_typed)
        if kinds == 0:
            raise FieldError("contract", "type the result, an artificial score or weighted lines")
        if kinds > 1:
            raise FieldError(
                "status", "one kind of score: the result, OR artificial, OR weighted lines"
            )
        if adjusted_typed:
            args |= artificial(values["adjusted"])
        elif weighted_typed:
            for w in WEIGHTED_LINES:  # a mistake shown on its own line
                if values[w].strip():
                    try:
                        weighted_line(values[w])
                    except FieldError as e:
                        raise FieldError(w, e.message) from None
            try:
                args["weighted"] = weighted(weighted_typed)
            except FieldError as e:
                raise FieldError("w1", e.message) from None
        else:
            args |= played(values["contract"], values["declarer"], values["result"], values["lead"])
        label = f"{args['section']}{args['table']} round {args['round']} board {args['board']}"
        return Request("enter_result", f"{label}: {describe(args)}", args)

    def place(self, values: dict[str, str]) -> dict[str, Any]:
        """The table, round and board typed (and the pairs when the board was listed)."""
        section = values["section"].strip().upper()
        sections = self.console.room.sections
        if not section or (sections and section not in sections):
            known = ", ".join(sorted(sections)) or "A"
            raise FieldError("section", f"section {section!r} is not in this event ({known})")
        args: dict[str, Any] = {"section": section}
        for key in ("table", "round", "board"):
            args[key] = number(key, values[key], key)
        w = self.where
        same = (w.section, w.table, w.round, w.board) == (
            section,
            args["table"],
            args["round"],
            args["board"],
        )
        if same and w.ns_pair is not None and w.ew_pair is not None:
            args |= {"ns_pair": w.ns_pair, "ew_pair": w.ew_pair}
        return args

    async def send(self, request: Request) -> None:
        """Send the score; when the board already has a result at that table and round
        (a terminal's, or one scored before), the director is asked first, naming both
        ([MENDS] #25, TD trial turn 3 G5: it was replaced without asking)."""
        args = request.args
        place = Place(args["section"], args["table"], args["round"], args["board"])
        self.sending = True
        self.status(f"sending: {request.what} … (what the board has there first)")
        seen = self.console.room.logged

        async def go(replace: bool) -> None:
            self.sending = False
            if self.is_attached:
                await FormScreen.send(self, request)

        def kept(text: str) -> None:
            self.sending = False
            if self.is_attached:
                self.status(text)

        if not await unless_stored(self.console, place, describe(args), go, kept):
            self.sending = False
            failed = failures_since(self.console.room, seen)
            self.status(failed[-1] if failed else f"! {request.what}: not sent")

    def done(self, request: Request, reply: dict[str, Any]) -> str:
        if self.on_stored is not None:
            self.on_stored(request.args)
        return f"{request.what}: stored"
