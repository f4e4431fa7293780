"""The status line at the bottom of the console: which key settles the row under the
cursor (issue13: "held result 23: Enter to decide"), or what the tab's keys do. Pure."""

from __future__ import annotations

TAB_HINTS = {
    "room": "Enter on a table: takeover, phone code or traveller · o order · f section",
    "standings": "v one ranking of every section · m MP % or matchpoints",
    "calls": "nothing waits for the director",
    "slow": "no table is behind",
    "traveller": "type a board number (B 7: section B), Enter · Escape leaves the box",
    "devices": "refreshed every 5 s",
    "log": "the event log, with times",
    "help": "every key",
    "desk": "no board awaits a score · e score any table, round and board · k a round's slips",
    "pairs": "a a late pair · M another movement from round N",
}


def row_hint(table_id: str | None, key: str) -> str:
    """What Enter does on the row ``key`` (what:ident) of the table ``table_id``."""
    what, _, ident = key.partition(":")
    if table_id == "room-table":
        return (
            f"table {what}{ident}: Enter for takeover, phone code or traveller"
            " · o order · f section"
        )
    if what == "held":
        return f"held result {ident}: Enter to decide (accept, accept as another board, reject)"
    if what == "call":
        return f"TD call {ident}: Enter to move it on, give the ruling or a note"
    if what == "flag":
        section, board, table, _ = [*ident.split(":"), "", "", "", ""][:4]
        return f"suspicious score {section}{table} board {board}: Enter to decide"
    if what == "withheld":
        return f"standings of {ident} withheld: Enter to release them now"
    if what == "penalty":
        return f"slow-play penalty {ident}: Enter to say who pays, or waive"
    if what == "late":
        section, _, table = ident.partition(":")
        return f"table {section}{table} is late: Enter for takeover, phone code or traveller"
    if what == "result":
        table, _, rnd = ident.partition(":")
        return f"result of table {table}, round {rnd}: Enter to correct, erase or adjust"
    if what == "not":
        section, table, rnd, board = [*ident.split(":"), "", "", "", ""][:4]
        return (
            f"board {board} at {section}{table}, round {rnd}, awaits a score: Enter to score it"
            " · e any board · k a round's slips"
        )
    if what == "pair":
        return (
            "Enter on the pair: names and numbers, a substitute, a withdrawal"
            " · a a late pair · M another movement"
        )
    return ""
