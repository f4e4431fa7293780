"""The boards awaiting the director's score (issue13 "not played", TD trial F4), as the
console last heard them: the snapshot's ``not_played`` list, the boards a round ended
without (``round_complete``'s ``unplayed``), less every board since scored (a result
from a table, or the director's own score). Pure, so testable without a screen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hub.console.labels import pair_label
from hub.console.rows import Row

Key = tuple[str, int, int, int]  # section, table, round, board


@dataclass
class NotPlayed:
    """Boards of finished rounds with no result and no score. Lives on the Textual app's
    event loop: the feed's worker folds messages in, the Scores tab reads them."""

    boards: dict[Key, dict[str, Any]] = field(default_factory=dict)
    dirty: bool = True
    # listed boards the director changed elsewhere (the traveller, another console): their
    # travellers are read again to see which tables now have a score
    to_check: set[tuple[str, int]] = field(default_factory=set)

    def apply(self, msg: dict[str, Any], sections: dict[str, dict[str, Any]]) -> None:
        """Take one message from the hub's feed (``sections``: the room's, for the pairs
        of a round that has just ended)."""
        if msg.get("type") == "snapshot":
            self.boards = {}
            for b in msg["state"].get("not_played") or []:
                self._add(b)
            self.dirty = True
        elif msg.get("type") != "event":
            return
        elif msg.get("event") == "not_played":  # the hub's list again, in full
            self.boards = {}
            for b in msg.get("boards") or msg.get("not_played") or []:
                self._add(b)
            self.dirty = True
        elif msg.get("event") == "round_complete" and msg.get("unplayed"):
            section, rnd = msg["section"], msg["round"]
            sec = sections.get(section) or {}
            seating = {t["table"]: t for t in sec.get("tables", [])}
            same_round = sec.get("round") == rnd
            for u in msg["unplayed"]:
                t = seating.get(u["table"], {}) if same_round else {}
                for board in u.get("boards", []):
                    self._add(
                        {
                            "section": section,
                            "table": u["table"],
                            "round": rnd,
                            "board": board,
                            "ns_pair": t.get("ns"),
                            "ew_pair": t.get("ew"),
                        }
                    )
            self.dirty = True
        elif msg.get("event") == "board_changed":
            listed = {(k[0], k[3]) for k in self.boards}
            if (msg.get("section"), msg.get("board")) in listed:
                self.to_check.add((str(msg["section"]), int(msg["board"])))
        elif msg.get("event") == "result" and msg.get("status") == "accepted":
            where = (msg.get("table"), msg.get("round"), msg.get("board"))
            self.scored(str(msg.get("section", "")), *where)

    def _add(self, b: dict[str, Any]) -> None:
        key = (str(b["section"]), int(b["table"]), int(b["round"]), int(b["board"]))
        self.boards[key] = dict(b)

    def scored(self, section: str, table: Any, rnd: Any, board: Any) -> None:
        """A board scored (by a table, or by the director's command): off the list."""
        if self.boards.pop((section, table, rnd, board), None) is not None:
            self.dirty = True

    def checked(self, reply: dict[str, Any]) -> None:
        """A board's traveller read again: the tables with a score leave the list."""
        if reply.get("ok"):
            for r in reply.get("results") or []:
                self.scored(
                    str(reply.get("section")), r.get("table"), r.get("round"), reply.get("board")
                )

    def rows(self, sections: dict[str, dict[str, Any]]) -> list[tuple[str, Row]]:
        """The Scores tab's rows, keyed ``not:section:table:round:board``, by round and
        table; the pairs as the room numbers them (``sections``' pairs directory)."""
        out = []
        for (section, table, rnd, board), b in sorted(self.boards.items()):
            sec = sections.get(section) or {}
            ns, ew = b.get("ns_pair"), b.get("ew_pair")
            ns = None if ns is None else pair_label(sec, ns, "NS")
            ew = None if ew is None else pair_label(sec, ew, "EW")
            out.append(
                (
                    f"not:{section}:{table}:{rnd}:{board}",
                    (
                        section,
                        table,
                        rnd,
                        board,
                        "" if ns is None else ns,
                        "" if ew is None else ew,
                        "not played: Enter to score",
                    ),
                )
            )
        return out
