"""The Traveller tab: the board the TD typed (or opened from a table or a suspicious
score), read from the hub with every result and its scores, and the TD's changes to one
result: correct the contract, erase it, or adjust the board (audited and re-scored by the
hub, decisions D1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text

from hub.console.choice import AskScreen, ChoiceScreen
from hub.console.commands import Console
from hub.console.rows import Row
from hub.console.tables import TravellerTable
from scoring.board import Seat, board_vulnerability
from scoring.contract import Play, parse_contract
from scoring.errors import ScoringInputError
from scoring.law77 import score_ns

RESULT_CHOICES = [
    ("correct", "correct the contract or the tricks"),
    ("erase", "erase (the table plays it again or the TD rules)"),
    ("60/40", "adjust: 60 % NS, 40 % EW"),
    ("50/50", "adjust: 50 % each"),
    ("40/60", "adjust: 40 % NS, 60 % EW"),
    ("A+/A-", "adjust: A+ NS, A- EW"),
    ("A-/A+", "adjust: A- NS, A+ EW"),
]


class Traveller:
    """The board open on the Traveller tab and its results, as the hub last sent them.
    Lives on the Textual app's event loop (key and pop-up handlers, and the feed's
    worker for replies and changed boards)."""

    def __init__(self, console: Console, table: Callable[[], TravellerTable]) -> None:
        self.console = console
        self.table = table
        self.board: tuple[str, int] | None = None  # (section, board)
        self.results: list[dict[str, Any]] = []

    async def open_typed(self, typed: str) -> None:
        """The board the TD typed: its number, or section and number (``B 7``); without a
        section, the one the room is filtered to, or the first."""
        room = self.console.room
        words = typed.split()
        sections = sorted(room.sections)
        section = self.console.section_filter or (sections[0] if sections else "A")
        if len(words) == 2 and words[0].upper() in room.sections:
            section, words = words[0].upper(), words[1:]
        if len(words) != 1 or not words[0].isdigit():
            room.note(f"! traveller: give a board number, not {typed!r}")
            return
        await self.fetch(section, int(words[0]))
        self.table().focus()

    async def fetch(self, section: str, board: int) -> None:
        """Ask the hub for the board's traveller; it shows when the reply comes."""
        self.board = (section, board)
        await self.console.command(
            "traveller",
            f"traveller {section} board {board}",
            on_reply=self.show,
            section=section,
            board=board,
        )

    def show(self, reply: dict[str, Any]) -> None:
        """The hub's traveller on the tab, suspicious scores marked for checking."""
        if not reply.get("ok"):
            return  # the refusal is in the log
        self.results = reply["results"]
        flagged = {
            (f["table"], f["round"])
            for f in self.console.room.suspicious.get((reply["section"], reply["board"]), [])
        }
        self.table().fill(
            (f"result:{i}", traveller_row(r, (r["table"], r["round"]) in flagged, reply["board"]))
            for i, r in enumerate(self.results)
        )

    def change_result(self, i: int) -> None:
        """Enter on the ``i``-th result: correct, erase or adjust it."""
        r = self.results[i]
        assert self.board is not None
        section, board = self.board
        where = {"section": section, "table": r["table"], "round": r["round"], "board": board}
        label = f"{section}{r['table']} board {board}"
        command = self.console.command

        async def chosen(choice: str | None) -> None:
            if choice == "erase":
                await command("erase_result", f"erase {label}", **where)
            elif choice == "correct":
                self.console.ask(
                    AskScreen(
                        f"Correct {label}: contract, declarer, result", "4S N =   3NTx S -2   PASS"
                    ),
                    corrected,
                )
            elif choice is not None:
                await command(
                    "enter_result",
                    f"{label} adjusted {choice}",
                    ns_pair=r["ns"],
                    ew_pair=r["ew"],
                    adjusted=choice,
                    **where,
                )

        async def corrected(text: str | None) -> None:
            if text is None:
                return
            parts = text.split()
            contract, declarer, result = [*parts, "", "", ""][:3]
            await command(
                "enter_result",
                f"{label} corrected to {text}",
                ns_pair=r["ns"],
                ew_pair=r["ew"],
                contract=contract,
                declarer=declarer,
                result=result,
                **where,
            )

        self.console.ask(ChoiceScreen(f"Result at {label}", RESULT_CHOICES), chosen)


def traveller_row(r: dict[str, Any], flagged: bool, board: int) -> Row:
    """One result as the traveller shows it; a suspicious score gets a ``?`` to check."""
    played: str | Text = r["adjusted"] or f"{r['contract'] or ''}"
    if flagged:
        played = Text(f"{played} ?", style="bold yellow")
    return (
        r["table"],
        r["round"],
        r["ns"],
        r["ew"],
        played,
        r["declarer"] or "",
        "" if r["tricks"] is None else r["tricks"],
        _blank(ns_score(r, board)),
        _two_places(r["ns_score"]),
        _two_places(r["ew_score"]),
        r["entered_by"],
    )


def _two_places(x: float | None) -> str:
    return "" if x is None else f"{x:.2f}"


def ns_score(r: dict[str, Any], board: int) -> int | None:
    """NS's score at the table (Law 77): the score keyed instead of a contract, else the
    contract's on this board's vulnerability (the hub sends the contract, not its score);
    None for an adjusted score, or a result the scoring rules cannot read."""
    if r["score_ns"] is not None:
        return int(r["score_ns"])
    if r["adjusted"] or not r["contract"]:
        return None
    try:
        contract = parse_contract(r["contract"])
        if contract is None:
            return 0  # passed out
        if r["declarer"] is None or r["tricks"] is None:
            return None
        play = Play(contract, Seat.parse(r["declarer"]), int(r["tricks"]))
    except (ScoringInputError, ValueError, TypeError):  # odd data never stops the console
        return None
    return score_ns(play, board_vulnerability(board))


def _blank(x: int | None) -> str | int:
    return "" if x is None else x
