"""The pairs of each section as the console knows them during the session (issue13
"Late pairs…", "Names"; TD trial F17): the snapshot's pairs directory (label, direction,
names), what the hub answered to the director's pair commands (players with their member
numbers), and the late pairs and withdrawals the feed reported (``pairs_changed``). Pure,
so testable without a screen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hub.console.labels import pair_label
from hub.console.rows import Row

PairKey = tuple[str, int]  # section, internal pair number


def players_text(players: list[dict[str, Any]]) -> tuple[str, str]:
    """Names (``Anna Berg & Bo Ek``) and member numbers (``123, 456``) of a pair."""
    names = " & ".join(str(p.get("name") or "?") for p in players)
    numbers = ", ".join(str(p.get("number") or "-") for p in players)
    return names, numbers if any(p.get("number") for p in players) else ""


@dataclass
class PairsBook:
    """What the Pairs tab shows beyond the snapshot. Lives on the Textual app's event
    loop: the feed's worker and the command replies fold in, the tab reads it."""

    players: dict[PairKey, list[dict[str, Any]]] = field(default_factory=dict)
    added: dict[PairKey, int] = field(default_factory=dict)  # late pair → first round
    withdrawn: dict[PairKey, int] = field(default_factory=dict)  # → first round missed
    dirty: bool = True

    def apply(self, msg: dict[str, Any]) -> None:
        """Take one message from the hub's feed."""
        if msg.get("type") == "snapshot":
            self.players = {}  # the snapshot's names are the newest
            self.dirty = True
        elif msg.get("type") == "event" and msg.get("event") == "pairs_changed":
            key = (str(msg.get("section")), int(msg.get("pair") or 0))
            if msg.get("action") == "add_pair" and msg.get("from_round"):
                self.added[key] = int(msg["from_round"])
                self.withdrawn.pop(key, None)
            elif msg.get("action") == "withdraw_pair" and msg.get("from_round"):
                self.withdrawn[key] = int(msg["from_round"])
            if isinstance(msg.get("pairs"), dict):  # the section's directory: the newest names
                for known in [k for k in self.players if k[0] == key[0]]:
                    del self.players[known]
            self.dirty = True

    def took(self, section: str, reply: dict[str, Any], players: Any = None) -> None:
        """A pair command's reply: the pair's players as now stored."""
        pair = reply.get("pair")
        known = reply.get("players", players)
        if isinstance(pair, int) and isinstance(known, list):
            self.players[(section, pair)] = [dict(p) for p in known]
            self.dirty = True

    def rows(self, sections: dict[str, dict[str, Any]]) -> list[tuple[str, Row]]:
        """The Pairs tab: every pair of every section, NS field first, keyed
        ``pair:section:number``: label, direction, names, member numbers, and a note for a
        late pair or a withdrawal."""
        out: list[tuple[str, Row]] = []
        for name, sec in sorted(sections.items()):
            directory = sec.get("pairs") or {}
            numbers = [int(p) for p in directory if str(p).isdigit() and int(p) > 0]
            numbers += [p for s, p in self.added if s == name and p not in numbers]
            if not numbers:  # a hub without a directory: the pairs seated this round
                seated = {t.get(k) for t in sec.get("tables", []) for k in ("ns", "ew")}
                numbers = sorted(p for p in seated if isinstance(p, int) and p > 0)
            for pair in numbers:
                info = directory.get(str(pair)) or {}
                names, member = str(info.get("names") or ""), ""
                if isinstance(info.get("players"), list):  # a directory with member numbers
                    names, member = players_text(info["players"])
                if (name, pair) in self.players:
                    names, member = players_text(self.players[(name, pair)])
                note = ""
                if (name, pair) in self.withdrawn:
                    note = f"withdrawn from round {self.withdrawn[(name, pair)]}"
                elif (name, pair) in self.added:
                    note = f"late: plays from round {self.added[(name, pair)]}"
                out.append(
                    (
                        f"pair:{name}:{pair}",
                        (
                            name,
                            pair_label(sec, pair),
                            info.get("direction") or "",
                            names,
                            member,
                            note,
                        ),
                    )
                )
        return out
