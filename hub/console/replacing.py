"""Before the director's result takes the place of one already stored ([MENDS] #25, TD trial
turn 3 G4 and G5): the console reads the board's traveller from the hub and, when the
table and round have a result there, asks the director, naming both ("A1 round 3: board 9
already has 3NT S = from TD Anna: replace it with 2S E +1?"). A held result accepted as
another board, and a score typed for any board, both ask; a board with no result there is
sent at once. Lives on the Textual app's event loop (pop-up answers, and the feed's worker
for the traveller's reply)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from hub.console.choice import ChoiceScreen
from hub.console.commands import Console
from hub.console.traveller_rows import result_text

Go = Callable[[bool], Awaitable[None]]  # send; True: a stored result is replaced
REPLACE_CHOICES = [("replace", "yes, replace it"), ("keep", "no, keep the stored result")]
PASSED = ("PASS", "P", "AP", "PASSED")


@dataclass(frozen=True)
class Place:
    """A table, round and board of a section."""

    section: str
    table: int
    round: int
    board: int

    def __str__(self) -> str:
        return f"{self.section}{self.table} round {self.round}"


def played_words(r: dict[str, Any]) -> str:
    """A result in the TD's words (a traveller row or a held result): ``3NT S =``,
    ``PASS``, ``adjusted 60/40``, ``NS +420``."""
    if r.get("adjusted"):
        return f"adjusted {r['adjusted']}"
    contract = str(r.get("contract") or "")
    if contract.upper() in PASSED:
        return "PASS"
    if contract:
        readable = {k: v for k, v in r.items() if k != "result" or isinstance(v, str)}
        words = (contract, str(r.get("declarer") or ""), result_text(readable))
        return " ".join(w for w in words if w)
    if r.get("score_ns") is not None:
        return f"NS {int(r['score_ns']):+d}"
    return "a result"


def question(place: Place, stored: dict[str, Any], new: str) -> str:
    """What the director is asked: both results, and who entered the stored one."""
    who = f" from {stored['entered_by']}" if stored.get("entered_by") else ""
    return (
        f"{place}: board {place.board} already has {played_words(stored)}{who}: "
        f"replace it with {new}?"
    )


async def unless_stored(
    console: Console, place: Place, new: str, go: Go, kept: Callable[[str], None] | None = None
) -> bool:
    """``go(False)`` when the place has no result on the board's traveller; else the
    director is asked, and ``go(True)`` when the answer is replace (keep: nothing sent, and
    said). The traveller the hub refuses (no such board): ``go(False)``, so the hub's own
    refusal names what is wrong. ``kept`` hears the director's "keep". False: the question
    could not go to the hub (logged)."""

    def answered(reply: dict[str, Any]) -> None:
        rows = reply.get("results") if reply.get("ok") else None
        stored = next(
            (
                r
                for r in rows or []
                if isinstance(r, dict)
                and (r.get("table"), r.get("round")) == (place.table, place.round)
            ),
            None,
        )
        if stored is None:
            console.call_later(go, False)
            return

        async def picked(choice: str | None) -> None:
            if choice == "replace":
                await go(True)
            else:
                text = f"{place} board {place.board} keeps {played_words(stored)} ({new} not sent)"
                console.room.note(text)
                if kept is not None:
                    kept(text)

        console.ask(ChoiceScreen(question(place, stored, new), REPLACE_CHOICES), picked)

    return await console.command(
        "traveller",
        f"traveller {place.section} board {place.board}",
        on_reply=answered,
        quiet=True,
        section=place.section,
        board=place.board,
    )
