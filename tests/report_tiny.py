"""A tiny finished evening for the printed report's and the exports' tests, with every
value worked by hand (never copied from our own output).

3-table Mitchell, one board a round (tests/data/report_tiny_mitchell.toml); internal EW
pairs 4, 5, 6 are EW 1, 2, 3. Matchpoints on the 2/1 scale, Neuberg for the adjusted board.
The generator's seating (hub/event/movement/mitchell.py), board: (table, round, NS v EW):

- Board 1 (dealer N, none vul): T1 R1 NS1 v EW1 4S N = +420, lead HA;
  T3 R2 NS3 v EW2 4S N +1 +450; T2 R3 NS2 v EW3 3NT S -1 -50.
  NS MPs (top 4): 450 -> 4, 420 -> 2, -50 -> 0; EW the rest: EW1 2, EW2 0, EW3 4.
- Board 2 (dealer E, NS vul): T2 R1 NS2 v EW2 3NT N = +600, lead SQ; T1 R2 NS1 v EW3
  3NT N = +600; T3 R3 NS3 v EW1 4H E -2 (EW not vul) +100.
  NS: 600, 600 share 3 each, 100 -> 0; EW2 1, EW3 1, EW1 4.
- Board 3 (dealer S, EW vul): T3 R1 NS3 v EW3 passed out 0; T2 R2 NS2 v EW1 adjusted
  60/40; T1 R3 NS1 v EW2 2S W = (EW +110) -110.
  The artificial score: 60% and 40% of the top 4 = 2.4 and 1.6. The two real results,
  Neuberg from n = 2 to N = 3: ((mp + 1) * 3/2) - 1: the pass 2 -> 3.5, -110 0 -> 0.5
  (NS); EW: EW3 (pass) 0.5, EW2 (+110) 3.5.

Totals out of 12: NS1 2 + 3 + 0.5 = 5.5 (45.83 %), NS2 0 + 3 + 2.4 = 5.4 (45.00 %),
NS3 4 + 0 + 3.5 = 7.5 (62.50 %); EW1 2 + 4 + 1.6 = 7.6 (63.33 %), EW2 0 + 1 + 3.5 = 4.5
(37.50 %), EW3 4 + 1 + 0.5 = 5.5 (45.83 %). Places: NS 3, 1, 2; EW 1, 3, 2.
"""

from __future__ import annotations

from pathlib import Path

from hub.store.store import ResultEntry, Store

EVENT_FILE = Path(__file__).parent / "data" / "report_tiny_mitchell.toml"

NS_PLACES = [
    ("1", "NS 3", "Eva Grön & Filip Holm", "62.50", "7.5 / 12"),
    ("2", "NS 1", "Anna Berg & Bo Ek", "45.83", "5.5 / 12"),
    ("3", "NS 2", "Cilla Dahl & Dan Fors", "45.00", "5.4 / 12"),
]
EW_PLACES = [
    ("1", "EW 1", "Greta Ivarsson & Hans Jakobsson", "63.33", "7.6 / 12"),
    ("2", "EW 3", "Karin Månsson & Lars Nyström", "45.83", "5.5 / 12"),
    ("3", "EW 2", "Ida Karlsson & Jan Lind", "37.50", "4.5 / 12"),
]


def results() -> list[ResultEntry]:
    """The nine results above, as the hub stores them (table, round, board, NS, EW)."""
    e = ResultEntry
    return [
        e("A", 1, 1, 1, 1, 4, "4S", "N", lead="HA", tricks=10, entered_by="T1"),
        e("A", 3, 2, 1, 3, 5, "4S", "N", tricks=11, entered_by="T3"),
        e("A", 2, 3, 1, 2, 6, "3NT", "S", tricks=8, entered_by="T2"),
        e("A", 2, 1, 2, 2, 5, "3NT", "N", lead="SQ", tricks=9, entered_by="T2"),
        e("A", 1, 2, 2, 1, 6, "3NT", "N", tricks=9, entered_by="T1"),
        e("A", 3, 3, 2, 3, 4, "4H", "E", tricks=8, entered_by="T3"),
        e("A", 3, 1, 3, 3, 6, "PASS", None, entered_by="T3"),
        e("A", 2, 2, 3, 2, 4, adjusted="60/40"),
        e("A", 1, 3, 3, 1, 5, "2S", "W", tricks=8, entered_by="T1"),
    ]


def tiny_event(store: Store, language: str | None = None) -> int:
    """Create the event (optionally in ``language``) and record its nine results."""
    text = EVENT_FILE.read_text("utf-8")
    if language:
        text = text.replace(
            'name = "Tuesday pairs"', f'name = "Tuesday pairs"\nlanguage = "{language}"'
        )
    eid = store.create_event(text, base_dir=EVENT_FILE.parent)
    store.record(eid, results())
    return eid
