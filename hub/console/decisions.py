"""The TD's decisions on a row of the Room, Calls and Slow tabs: Enter on a row puts up
its choices (a table: takeover, a new code for its phones, or traveller; a TD call, a held
result, a suspicious score, withheld standings, a slow-play penalty) and the pick goes to
the hub as a command."""

from __future__ import annotations

from typing import Any

from hub.console.choice import AskScreen, ChoiceScreen
from hub.console.commands import Console, accepts
from hub.console.held import can_accept_as_sent, held_title
from hub.console.penalty_keys import PenaltyKeys
from hub.console.replacing import Place, played_words, unless_stored

TABLE_CHOICES = [
    ("takeover", "let a replacement terminal take over this table"),
    ("traveller", "traveller of the table's first board this round"),
    ("code", "a new code for this table's phones (a lost phone): shown to read out"),
    ("penalty", "a procedural penalty to a side at this table (VP, IMP or % of a top)"),
]
FLAG_CHOICES = [
    ("valid", "the contract is valid (clear the flag)"),
    ("traveller", "open the traveller to correct the result"),
]
RELEASE_CHOICES = [("release", "release the standings now (open boards provisional)")]
HELD_CHOICES = [
    ("accept", "accept as sent"),
    ("rekey", "accept as another board (the terminal had the wrong one)"),
    ("reject", "reject (the table is asked to enter it again)"),
]
REPLACE_CHOICES = [("replace", "replace it with this result"), ("keep", "keep the stored result")]
PENALTY_CHOICES = [
    ("NS", "confirm: NS pays"),
    ("EW", "confirm: EW pays"),
    ("both", "confirm: both pay in full"),
    ("shared", "confirm: shared, half each"),
    ("waive", "waive"),
]
CALL_CHOICES = [
    ("in_progress", "director on the way / at the table"),
    ("resolved", "resolved (then the ruling, if any)"),
    ("deferred", "deferred (ruling later)"),
    ("note", "add a note"),
]
CALL_STATUSES = ("in_progress", "resolved", "deferred")


async def _closed(choice: str | None) -> None:
    """Nothing to do when the director closes the box showing a new code."""


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
            held = next((h for h in room.held if str(h.get("id")) == ident), {"id": ident})
            choices = [c for c in HELD_CHOICES if c[0] != "accept" or can_accept_as_sent(held)]
            ask(
                ChoiceScreen(held_title(room, held), choices),
                lambda choice: self._decide_held(int(ident), choice, held),
            )
        elif what == "penalty":
            ask(
                ChoiceScreen(f"Slow-play penalty {ident}", PENALTY_CHOICES),
                lambda choice: self._decide_penalty(int(ident), choice),
            )
        elif what == "call":
            call = next((c for c in room.td_calls if str(c.get("id")) == ident), {})
            title = f"TD call {ident} at table {call.get('section') or ''}{call.get('table')}"
            ask(ChoiceScreen(title, CALL_CHOICES), lambda choice: self._move_call(call, choice))

    async def _table_action(self, section: str, table: int, choice: str | None) -> None:
        if choice == "penalty":  # [MENDS] #25
            PenaltyKeys(self.console).start(section, table)
        elif choice == "takeover":
            await self.console.command(
                "allow_takeover",
                f"takeover allowed at {section}{table}",
                section=section,
                table=table,
            )
        elif choice == "code":
            await self.console.command(
                "reissue_table_code",
                f"new code for table {section}{table}",
                on_reply=lambda reply: self._show_code(f"{section}{table}", reply),
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

    def _show_code(self, where: str, reply: dict[str, Any]) -> None:
        """The re-issued code, to read out or write down: in the log, as a notification,
        and in a box that stays until the director closes it (issue 15)."""
        code = reply.get("code")
        if not reply.get("ok") or not isinstance(code, str):
            return  # a refusal is told like any other
        text = f"table {where}: new code {code} (the old code no longer works)"
        self.console.room.tell(text)
        shown = [("close", f"close (a phone joins at the hub's /t/{where}?c={code})")]
        self.console.ask(ChoiceScreen(f"Table {where}: new code {code}", shown), _closed)

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

    async def _decide_held(self, result: int, choice: str | None, held: dict[str, Any]) -> None:
        if choice == "accept" and held.get("conflict"):

            async def replace(answer: str | None) -> None:
                if answer == "replace":
                    await self.console.command(
                        "accept_held",
                        f"accept held result {result}, replacing the stored one",
                        result=result,
                        replace=True,
                    )

            title = f"{held['conflict']}: replace it with {played_words(held)}?"
            self.console.ask(ChoiceScreen(title, REPLACE_CHOICES), replace)
        elif choice == "accept":
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
                await self._accept_as_board(result, int(text), held)

            self.console.ask(
                AskScreen(f"Held result {result}: the board actually played", "board number"),
                board,
            )

    async def _accept_as_board(self, result: int, board: int, held: dict[str, Any]) -> None:
        """Accept a held result as the board actually played; when that board already has
        a result at the table and round, the director is asked first, naming both, and
        replace is sent only then ([MENDS] #25, TD trial turn 3 G4: refused, with no
        replace offered)."""

        async def go(replace: bool) -> None:
            what = f"accept held result {result} as board {board}"
            extra: dict[str, Any] = {"replace": True} if replace else {}
            await self.console.command(
                "accept_held",
                what + (", replacing the stored one" if replace else ""),
                result=result,
                rekey={"board": board},
                **extra,
            )

        try:
            place = Place(str(held["section"]), int(held["table"]), int(held["round"]), board)
        except (KeyError, TypeError, ValueError):  # a row the hub sent without its place
            await go(False)  # the hub says what is stored there, if anything
            return
        await unless_stored(self.console, place, played_words(held), go)

    async def _decide_penalty(self, penalty: int, choice: str | None) -> None:
        if choice == "waive":
            await self.console.command("waive_penalty", f"waive penalty {penalty}", penalty=penalty)
        elif choice is not None:
            await self.console.command(
                "confirm_penalty", f"penalty {penalty}: {choice} pay", penalty=penalty, payer=choice
            )

    async def _move_call(self, call: dict[str, Any], choice: str | None) -> None:
        """A TD call moved on, with a note and the ruling (TD trial F21): in progress at
        once; resolved or deferred after the ruling (Enter alone: none); a note on its own
        keeps the call where it is."""
        if choice is None or call.get("id") is None:
            return
        ident = int(call["id"])
        if choice == "in_progress":
            await self.console.command(
                "td_call", f"TD call {ident} in progress", call=ident, status=choice
            )
            return
        status = choice if choice in CALL_STATUSES else call.get("status")
        if status not in CALL_STATUSES:
            status = "in_progress"  # a note on a new call: the director has it
        ruling = choice != "note" and accepts("td_call", "ruling")
        prompt = "the ruling" if ruling else "a note"

        async def written(text: str | None) -> None:
            if text is None:
                return  # Escape: nothing sent
            args: dict[str, Any] = {"call": ident, "status": status}
            if text:
                args["ruling" if ruling else "note"] = text
            what = f"TD call {ident} {str(status).replace('_', ' ')}"
            await self.console.command("td_call", what + (f": {text}" if text else ""), **args)

        self.console.ask(
            AskScreen(f"TD call {ident}: {prompt} (Enter alone: none)", prompt, allow_empty=True),
            written,
        )
