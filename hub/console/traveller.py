"""The Traveller tab: the board the TD typed (or opened from a table or a suspicious
score), read from the hub with every result and its scores, and the TD's changes to one
result: correct the contract, erase it, or adjust the board (audited and re-scored by the
hub, decisions D1)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.css.query import NoMatches
from textual.widgets import Input, Static

from hub.console.choice import AskScreen, ChoiceScreen
from hub.console.commands import Console
from hub.console.replacing import played_words
from hub.console.tables import TravellerTable
from hub.console.traveller_rows import double_dummy_line, traveller_row, with_team_imps

RESULT_CHOICES = [
    ("correct", "correct the contract or the tricks"),
    ("erase", "erase (the table plays it again or the TD rules)"),
    ("60/40", "adjust: 60 % NS, 40 % EW"),
    ("50/50", "adjust: 50 % each"),
    ("40/60", "adjust: 40 % NS, 60 % EW"),
    ("A+/A-", "adjust: A+ NS, A- EW"),
    ("A-/A+", "adjust: A- NS, A+ EW"),
]
ERASE_CHOICES = [("erase", "yes, erase it"), ("keep", "no, keep it")]


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
            room.warn(f"! traveller: give a board number, not {typed!r}")
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
        opened = self.board
        if opened is None or (reply.get("section"), reply.get("board")) != opened:
            return  # an answer for a board no longer open
        if not isinstance(reply.get("results"), list):
            return
        section, board = opened
        self.results = reply["results"]
        room = self.console.room
        shown = self.results
        if room.sections.get(section, {}).get("kind") == "teams":  # IMPs against the other room
            shown = with_team_imps(shown, board)
        self._name_the_board(section, board)
        self._show_double_dummy(reply.get("double_dummy"))
        flagged = {(f["table"], f["round"]) for f in room.suspicious.get((section, board), [])}
        self.table().fill(
            (
                f"result:{r['table']}:{r['round']}",
                traveller_row(
                    r, (r["table"], r["round"]) in flagged, board, room.sections.get(section, {})
                ),
            )
            for r in shown
        )

    def _name_the_board(self, section: str, board: int) -> None:
        """The board box names the board shown (opened from a table or a suspicious score,
        it still held the number typed before); left alone while the TD types another."""
        box = self.table().screen.query_one("#board-input", Input)
        words = box.value.split()
        typing = box.has_focus and (not words or words[-1] != str(board))
        if not typing:
            box.value = f"{section} {board}" if len(self.console.room.sections) > 1 else str(board)

    def _show_double_dummy(self, dd: Any) -> None:
        """The board's makeable contracts and par above its results; hidden when the hub
        sends none (no hand record, or no endplay)."""
        try:
            line = self.table().screen.query_one("#traveller-dd", Static)
        except NoMatches:
            return
        text = double_dummy_line(dd) if isinstance(dd, dict) else ""
        line.update(text)
        line.display = bool(text)

    def change_result(self, ident: str) -> None:
        """Enter on the result ``ident`` (table:round): correct, erase or adjust it."""
        r = next((r for r in self.results if f"{r['table']}:{r['round']}" == ident), None)
        if r is None or self.board is None:
            return
        section, board = self.board
        where = {"section": section, "table": r["table"], "round": r["round"], "board": board}
        label = f"{section}{r['table']} board {board}"
        command = self.console.command

        async def erase(answer: str | None) -> None:
            if answer == "erase":
                await command("erase_result", f"erase {label}", **where)

        async def chosen(choice: str | None) -> None:
            if choice == "erase":  # asked first ([MENDS] #25, TD trial turn 3 G4)
                title = (
                    f"Erase {played_words(r)} at {label} (round {r['round']})? "
                    "The table enters the board again."
                )
                self.console.ask(ChoiceScreen(title, ERASE_CHOICES), erase)
            elif choice == "correct":
                self.console.ask(
                    AskScreen(
                        f"Correct {label}: contract, declarer, result, lead (kept when left out)",
                        "4S N =   3NTx S -2 HA   PASS",
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
            contract, declarer, result, lead = [*parts, "", "", "", ""][:4]
            lead = lead or r.get("lead") or ""
            passed = contract.upper() in ("PASS", "P", "AP", "PASSED")
            kept: dict[str, Any] = {"lead": lead} if lead and not passed else {}
            await command(
                "enter_result",
                f"{label} corrected to {text}",
                ns_pair=r["ns"],
                ew_pair=r["ew"],
                contract=contract,
                declarer=declarer,
                result=result,
                **kept,  # a correction of the tricks does not lose the lead
                **where,
            )

        self.console.ask(ChoiceScreen(f"Result at {label}", RESULT_CHOICES), chosen)
