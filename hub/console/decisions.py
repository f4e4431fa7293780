"""The TD's decisions on a row of the Room, Calls and Slow tabs: Enter on a row puts up
its choices (a table: takeover or traveller; a TD call, a held result, a suspicious
score, withheld standings, a slow-play penalty) and the pick goes to the hub as a
command."""

from __future__ import annotations

from hub.console.choice import AskScreen, ChoiceScreen
from hub.console.commands import Console

TABLE_CHOICES = [
    ("takeover", "let a replacement terminal take over this table"),
    ("traveller", "traveller of the table's first board this round"),
]
FLAG_CHOICES = [
    ("valid", "the contract is valid (clear the flag)"),
    ("traveller", "open the traveller to correct the result"),
]
RELEASE_CHOICES = [("release", "release the standings now (open boards provisional)")]
HELD_CHOICES = [
    ("accept", "accept as sent"),
    ("rekey", "accept as another board (the terminal had the wrong one)"),
    ("reject", "reject"),
]
PENALTY_CHOICES = [
    ("NS", "confirm: NS pays"),
    ("EW", "confirm: EW pays"),
    ("both", "confirm: both pay in full"),
    ("shared", "confirm: shared, half each"),
    ("waive", "waive"),
]
CALL_CHOICES = [
    ("in_progress", "director on the way / at the table"),
    ("resolved", "resolved"),
    ("deferred", "deferred (ruling later)"),
]


class Decisions:
    """The pop-ups that decide a row and the commands they send. Lives on the Textual app's
    event loop (called from the app's row-selected handler and pop-up answers)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def row_selected(self, table_id: str | None, key: str) -> None:
        """Enter on the row ``key`` (what:ident) of the table ``table_id``."""
        ask, room = self.console.ask, self.console.room
        what, _, ident = key.partition(":")
        if table_id == "room-table":
            section, _, table = key.partition(":")
            ask(
                ChoiceScreen(f"Table {section}{table}", TABLE_CHOICES),
                lambda choice: self._table_action(section, int(table), choice),
            )
            return
        if table_id == "slow-table" and what == "late":
            section, _, table = ident.partition(":")
            ask(
                ChoiceScreen(f"Table {section}{table}", TABLE_CHOICES),
                lambda choice: self._table_action(section, int(table), choice),
            )
            return
        if what == "flag":
            section, board, table, rnd = ident.split(":")
            reason = next(
                (
                    f["reason"]
                    for f in room.suspicious.get((section, int(board)), [])
                    if (f["table"], f["round"]) == (int(table), int(rnd))
                ),
                "",
            )
            ask(
                ChoiceScreen(
                    f"Suspicious score at {section}{table} board {board}: {reason}", FLAG_CHOICES
                ),
                lambda choice: self._decide_flag(section, int(board), int(table), int(rnd), choice),
            )
        elif what == "withheld":
            ask(
                ChoiceScreen(f"Standings of section {ident}", RELEASE_CHOICES),
                lambda choice: self._release(ident, choice),
            )
        elif what == "held":
            ask(
                ChoiceScreen(f"Held result {ident}", HELD_CHOICES),
                lambda choice: self._decide_held(int(ident), choice),
            )
        elif what == "penalty":
            ask(
                ChoiceScreen(f"Slow-play penalty {ident}", PENALTY_CHOICES),
                lambda choice: self._decide_penalty(int(ident), choice),
            )
        elif what == "call":
            ask(
                ChoiceScreen(f"TD call {ident}", CALL_CHOICES),
                lambda choice: self._move_call(int(ident), choice),
            )

    async def _table_action(self, section: str, table: int, choice: str | None) -> None:
        if choice == "takeover":
            await self.console.command(
                "allow_takeover",
                f"takeover allowed at {section}{table}",
                section=section,
                table=table,
            )
        elif choice == "traveller":
            self.console.action_tab("traveller")
            row = next(
                (
                    t
                    for t in self.console.room.sections.get(section, {}).get("tables", [])
                    if t["table"] == table
                ),
                None,
            )
            if row and row["boards"]:
                await self.console.fetch_traveller(section, row["boards"][0])

    async def _decide_flag(
        self, section: str, board: int, table: int, rnd: int, choice: str | None
    ) -> None:
        if choice == "valid":
            await self.console.command(
                "contract_valid",
                f"{section}{table} board {board}: contract is valid",
                section=section,
                board=board,
                table=table,
                round=rnd,
            )
        elif choice == "traveller":
            self.console.action_tab("traveller")
            await self.console.fetch_traveller(section, board)

    async def _release(self, section: str, choice: str | None) -> None:
        if choice == "release":
            await self.console.command(
                "release_standings", f"standings of {section} released", section=section
            )

    async def _decide_held(self, result: int, choice: str | None) -> None:
        if choice == "accept":
            await self.console.command("accept_held", f"accept held result {result}", result=result)
        elif choice == "reject":
            await self.console.command("reject_held", f"reject held result {result}", result=result)
        elif choice == "rekey":

            async def board(text: str | None) -> None:
                if text is None:
                    return
                if not text.isdigit():
                    self.console.room.note(
                        f"! held result {result}: {text!r} is not a board number"
                    )
                    return
                await self.console.command(
                    "accept_held",
                    f"accept held result {result} as board {text}",
                    result=result,
                    rekey={"board": int(text)},
                )

            self.console.ask(
                AskScreen(f"Held result {result}: the board actually played", "board number"),
                board,
            )

    async def _decide_penalty(self, penalty: int, choice: str | None) -> None:
        if choice == "waive":
            await self.console.command("waive_penalty", f"waive penalty {penalty}", penalty=penalty)
        elif choice is not None:
            await self.console.command(
                "confirm_penalty", f"penalty {penalty}: {choice} pay", penalty=penalty, payer=choice
            )

    async def _move_call(self, call: int, choice: str | None) -> None:
        if choice is not None:
            await self.console.command(
                "td_call", f"TD call {call} {choice.replace('_', ' ')}", call=call, status=choice
            )
