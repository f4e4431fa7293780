"""``P`` (or Enter on a table in the Room, "a procedural penalty"): the director gives a
procedural penalty ([MENDS] #25, TD trial G9: "No console key adds a procedural penalty").

The TD names the table, then in turn who pays (the side sitting NS or EW there, both, or
shared half each: decisions D10), the unit (at teams VP off the total or IMP off the
match of the round; at pairs % of a top or IMP), the exact amount, the reason and the
round (the current one unless typed), confirms, and the console sends ``add_penalty``. The
hub checks it again and answers in the log; the standings change once it is stored.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Any

from hub.console.choice import AskScreen, ChoiceScreen
from hub.console.commands import Console
from hub.console.draw_keys import known_team_names
from hub.console.labels import pair_label, pair_names

AMOUNT = re.compile(r"^[0-9]{1,4}([./][0-9]{1,4})?$")  # as add_penalty takes it
TEAM_UNITS = [("VP", "in VP, off the team's total"), ("IMP", "in IMP, off its match")]
PAIR_UNITS = [("percent_of_top", "in % of a top"), ("IMP", "in IMP")]
UNIT_WORDS = {"VP": "VP", "IMP": "IMP", "percent_of_top": "% of a top"}


@dataclass(frozen=True)
class Penalty:
    """What the TD has said so far."""

    section: str
    table: int
    round: int
    sides: tuple[str, str]  # who sits NS and EW there, as the TD knows them
    payer: str = ""
    unit: str = ""
    amount: str = ""
    reason: str = ""

    def payer_text(self) -> str:
        ns, ew = self.sides
        return {
            "NS": ns,
            "EW": ew,
            "both": f"{ns} and {ew}, each",
            "shared": f"{ns} and {ew}, half each",
        }.get(self.payer, "")


class PenaltyKeys:
    """The penalty flow: pop-ups one after the other, then ``add_penalty``. Lives on the
    Textual app's event loop."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def ask_table(self) -> None:
        """``P``: which table (in the one section shown, or typed as A3)."""
        only = self.console.section_filter
        letters = sorted(self.console.room.sections)
        section = only or (letters[0] if len(letters) == 1 else "")
        where = f"section {section}" if section else "the room (as A3)"
        self.console.ask(
            AskScreen(f"Penalty: the table in {where} (its number)", "3"),
            functools.partial(self._table_typed, section),
        )

    async def _table_typed(self, section: str, answer: str | None) -> None:
        if answer is None:
            return
        m = re.fullmatch(r"([A-Za-z]?)\s*([0-9]{1,3})", answer)
        letter = (m.group(1).upper() if m and m.group(1) else section) if m else ""
        if m is None or letter not in self.console.room.sections:
            self.console.room.warn(
                f"! {answer!r} is not a table of the room: type its number"
                + ("" if section else " after its section (A3)")
            )
            return
        self.start(letter, int(m.group(2)))

    def start(self, section: str, table: int) -> None:
        """The flow for a table of the room (the Room's Enter menu starts here too)."""
        sec = self.console.room.sections.get(section) or {}
        row = next((t for t in sec.get("tables", []) if t.get("table") == table), None)
        if row is None or not (row.get("ns") and row.get("ew")):
            self.console.room.warn(
                f"! table {section}{table} has no match or pairs this round: a penalty is "
                "given to the sides that play there"
            )
            return
        rnd = int(sec.get("round") or 1)
        sides = (self._side(sec, row["ns"]), self._side(sec, row["ew"]))
        p = Penalty(section, table, rnd, sides)
        choices = [
            ("NS", f"NS pays: {sides[0]}"),
            ("EW", f"EW pays: {sides[1]}"),
            ("both", "both pay in full"),
            ("shared", "shared, half each"),
        ]
        self.console.ask(
            ChoiceScreen(f"Penalty at table {section}{table}: who pays?", choices),
            functools.partial(self._payer, p),
        )

    @staticmethod
    def _side(sec: dict[str, Any], number: int) -> str:
        if sec.get("kind") == "teams":
            name = known_team_names(sec).get(int(number), "")
            return f"team {number} {name}".strip()
        label = pair_label(sec, number)
        shown = f"pair {label}" if label.isdigit() else label  # a Howell's 7, or NS 3
        names = pair_names(sec, {"pair": number})
        return f"{shown} ({names})" if names else shown

    async def _payer(self, p: Penalty, choice: str | None) -> None:
        if choice is None:
            return
        p = replace(p, payer=choice)
        teams = (self.console.room.sections.get(p.section) or {}).get("kind") == "teams"
        self.console.ask(
            ChoiceScreen(f"Penalty to {p.payer_text()}: in", TEAM_UNITS if teams else PAIR_UNITS),
            functools.partial(self._unit, p),
        )

    async def _unit(self, p: Penalty, choice: str | None) -> None:
        if choice is None:
            return
        p = replace(p, unit=choice)
        self.console.ask(
            AskScreen(f"How many {UNIT_WORDS[choice]} (exact: 3, 1.5 or 1/2)", "3"),
            functools.partial(self._amount, p),
        )

    async def _amount(self, p: Penalty, answer: str | None) -> None:
        if answer is None:
            return
        if not AMOUNT.match(answer) or answer.strip("0./") == "":
            self.console.room.warn(f"! {answer!r} is not an amount above 0 (3, 1.5 or 1/2)")
            return
        p = replace(p, amount=answer)
        self.console.ask(
            AskScreen("The reason (the players are told it)", "mobile phone"),
            functools.partial(self._reason, p),
        )

    async def _reason(self, p: Penalty, answer: str | None) -> None:
        if answer is None:
            return
        p = replace(p, reason=answer[:200])
        self.console.ask(
            AskScreen(f"Round (Enter: round {p.round}, the current one)", str(p.round), True),
            functools.partial(self._round, p),
        )

    async def _round(self, p: Penalty, answer: str | None) -> None:
        if answer is None:
            return
        if answer and not (answer.isdigit() and 1 <= int(answer) <= 999):
            self.console.room.warn(f"! {answer!r} is not a round number")
            return
        p = replace(p, round=int(answer) if answer else p.round)
        title = (
            f"{p.payer_text()} at table {p.section}{p.table}, round {p.round}: "
            f"{p.amount} {UNIT_WORDS[p.unit]} off, for {p.reason}"
        )
        choices = [("give", "Give the penalty"), ("keep", "Not now")]
        self.console.ask(ChoiceScreen(title, choices), functools.partial(self._give, p))

    async def _give(self, p: Penalty, choice: str | None) -> None:
        if choice != "give":
            return
        await self.console.command(
            "add_penalty",
            f"penalty of {p.amount} {UNIT_WORDS[p.unit]} to {p.payer_text()} "
            f"(table {p.section}{p.table}, round {p.round})",
            section=p.section,
            table=p.table,
            round=p.round,
            amount=p.amount,
            unit=p.unit,
            payer=p.payer,
            reason=p.reason,
        )
