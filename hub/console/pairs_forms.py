"""The director's forms on the pairs during a session (issue13, TD trial F17): a late pair,
a pair withdrawing, a substitute player, names and member numbers, another movement from
round N. Each checked here, confirmed by the TD, then sent (``add_pair``,
``withdraw_pair``, ``substitute``, ``edit_pair``, ``change_movement``); the hub's reply is
told on the Pairs tab, its refusal next to the line it concerns."""

from __future__ import annotations

from typing import Any, ClassVar

from hub.console.commands import Console
from hub.console.desk_entry import FieldError, number
from hub.console.desk_form import FormScreen, Line, Request
from hub.console.pairs_book import PairsBook

KINDS = ("mitchell", "howell", "barometer")


def _players(values: dict[str, str], need: int) -> list[dict[str, Any]]:
    """The players typed (name, member number), at least ``need`` of them; a member
    number alone is named by the hub from the event or the club roster ([MENDS] #25)."""
    out: list[dict[str, Any]] = []
    for seat in (1, 2):
        name, member = values[f"name{seat}"].strip(), values[f"number{seat}"].strip()
        if name or member:
            out.append(({"name": name} if name else {}) | ({"number": member} if member else {}))
    if len(out) < need:
        raise FieldError("name1", "type the players' names or member numbers")
    return out


def _who(players: list[dict[str, Any]]) -> str:
    """``Bertil Late (1027) & member 1028`` (a number alone: the hub finds the name)."""
    return " & ".join(
        f"{p['name']} ({p['number']})" if p.get("name") and p.get("number")
        else str(p.get("name") or f"member {p.get('number')}")
        for p in players
    )  # fmt: skip


def _player_lines(names: list[str]) -> list[Line]:
    names = [*names, "", ""]
    return [
        Line("name1", "player 1", names[0], "name"),
        Line("number1", "number", "", "member number, or empty"),
        Line("name2", "player 2", names[1], "name"),
        Line("number2", "number", "", "member number, or empty"),
    ]


class PairForm(FormScreen):
    """A form on one section's pairs; the reply goes to the book and the tab. Lives on the
    Textual app's event loop."""

    ERROR_WORDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "from_round": ("round",),
        "number2": ("player 2: member number",),  # a number nobody has (the hub's)
        "number1": ("player 1: member number",),
        "name1": ("name",),
        "kind": ("kind", "movement"),
        "boards_per_round": ("boards",),
        "tables": ("table",),
    }

    def __init__(
        self,
        console: Console,
        book: PairsBook,
        section: str,
        title: str,
        lines: list[Line],
    ) -> None:
        super().__init__(console, title, lines)
        self.book = book
        self.section = section

    def done(self, request: Request, reply: dict[str, Any]) -> str:
        self.book.took(self.section, reply, request.args.get("players"))
        return f"{request.what}: done"


class LatePairForm(PairForm):
    """A late pair, in the sit-out's place from a round on. Lives on the Textual app's
    event loop. The players come first, where the cursor starts, and the round (filled
    in) after them: with the round above the cursor, a round typed there became player
    1's name (TD trial turn 3 G6)."""

    def __init__(self, console: Console, book: PairsBook, section: str, rnd: int) -> None:
        lines = [*_player_lines([]), Line("from_round", "from round", str(rnd))]
        super().__init__(console, book, section, f"Late pair in section {section}", lines)

    def request(self, values: dict[str, str]) -> Request:
        first = number("from_round", values["from_round"], "the first round")
        players = _players(values, 1)
        return Request(
            "add_pair",
            f"late pair {_who(players)} in {self.section} from round {first}",
            {"section": self.section, "from_round": first, "players": players},
            confirm=f"Add {_who(players)} in section {self.section} from round {first}, "
            "in the sit-out's place?",
        )

    def done(self, request: Request, reply: dict[str, Any]) -> str:
        super().done(request, reply)
        tables = ", ".join(f"r{t['round']} t{t['table']}" for t in reply.get("tables", [])[:6])
        return f"{request.what}: pair {reply.get('pair')} added" + (
            f" (plays {tables}…)" if tables else ""
        )


class WithdrawForm(PairForm):
    """A pair leaving: their opponents sit out from a round on. Lives on the Textual app's
    event loop."""

    def __init__(
        self, console: Console, book: PairsBook, section: str, pair: int, label: str, rnd: int
    ) -> None:
        self.pair, self.label = pair, label
        lines = [Line("from_round", "from round", str(rnd), "the first round they miss")]
        super().__init__(console, book, section, f"Withdraw {label} (section {section})", lines)

    def request(self, values: dict[str, str]) -> Request:
        first = number("from_round", values["from_round"], "the first round missed")
        return Request(
            "withdraw_pair",
            f"{self.label} in {self.section} withdrawn from round {first}",
            {"section": self.section, "pair": self.pair, "from_round": first},
            confirm=f"Withdraw {self.label} from round {first}? Their opponents sit out; "
            "the rounds played stay.",
        )


class SubstituteForm(PairForm):
    """A substitute for one player of a pair, from now on. Lives on the Textual app's
    event loop."""

    def __init__(
        self, console: Console, book: PairsBook, section: str, pair: int, label: str
    ) -> None:
        self.pair, self.label = pair, label
        lines = [
            Line("seat", "replaces", "", "player 1 or 2"),
            Line("name", "substitute", "", "name"),
            Line("number", "number", "", "member number, or empty"),
        ]
        super().__init__(console, book, section, f"Substitute in {label} ({section})", lines)

    def request(self, values: dict[str, str]) -> Request:
        seat = values["seat"].strip()
        if seat not in ("1", "2"):
            raise FieldError("seat", "which player is replaced: 1 or 2")
        name, member = values["name"].strip(), values["number"].strip()
        if not name:
            raise FieldError("name", "type the substitute's name")
        args: dict[str, Any] = {"section": self.section, "pair": self.pair, "seat": int(seat)}
        args |= {"name": name} | ({"number": member} if member else {})
        who = name + (f" ({member})" if member else "")
        return Request(
            "substitute",
            f"{who} substitutes for player {seat} of {self.label} in {self.section}",
            args,
            confirm=f"{who} plays for player {seat} of {self.label} from now on?",
        )


class EditPairForm(PairForm):
    """Correct a pair's names and member numbers. Lives on the Textual app's
    event loop."""

    def __init__(
        self,
        console: Console,
        book: PairsBook,
        section: str,
        pair: int,
        label: str,
        names: list[str],
    ) -> None:
        self.pair, self.label = pair, label
        title = f"Names and numbers of {label} (section {section})"
        super().__init__(console, book, section, title, _player_lines(names))

    def request(self, values: dict[str, str]) -> Request:
        players = _players(values, 1)
        return Request(
            "edit_pair",
            f"{self.label} in {self.section} is {_who(players)}",
            {"section": self.section, "pair": self.pair, "players": players},
            confirm=f"{self.label} in section {self.section}: {_who(players)}?",
        )


class MovementForm(PairForm):
    """Another movement from a round on; the rounds played stay (decisions D19). Lives on
    the Textual app's event loop; the round (filled in) comes after the movement, as for a
    late pair."""

    def __init__(self, console: Console, book: PairsBook, section: str, rnd: int) -> None:
        lines = [
            Line("kind", "movement", "", "mitchell, howell, barometer"),
            Line("tables", "tables", "", "(or pairs below)"),
            Line("pairs", "pairs", "", "(or tables above)"),
            Line("boards_per_round", "boards/round", "", "boards a round"),
            Line("from_round", "from round", str(rnd)),
        ]
        super().__init__(console, book, section, f"Change the movement of {section}", lines)

    def request(self, values: dict[str, str]) -> Request:
        first = number("from_round", values["from_round"], "the first round")
        kind = values["kind"].strip().lower()
        if kind not in KINDS:
            raise FieldError("kind", "the movement: mitchell, howell or barometer")
        spec: dict[str, Any] = {"kind": kind}
        for key in ("tables", "pairs"):
            if values[key].strip():
                spec[key] = number(key, values[key], key)
        if not ("tables" in spec) ^ ("pairs" in spec):
            raise FieldError("tables", "give the tables or the pairs (one of them)")
        spec["boards_per_round"] = number(
            "boards_per_round", values["boards_per_round"], "boards a round"
        )
        counted = "tables" if "tables" in spec else "pairs"
        size = f"{spec[counted]} {counted}"
        what = f"{self.section}: {kind} of {size}, {spec['boards_per_round']} boards a round"
        return Request(
            "change_movement",
            f"{what} from round {first}",
            {"section": self.section, "from_round": first, "movement": spec},
            confirm=f"Change section {self.section} to a {kind} of {size} from round {first}? "
            "The rounds played stay; the tables get their new seats.",
        )

    def done(self, request: Request, reply: dict[str, Any]) -> str:
        return f"{request.what}: done ({reply.get('rounds')} rounds, {reply.get('tables')} tables)"
