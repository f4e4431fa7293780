"""The printed report on an odd night (issue [EVENING] "Odd numbers and sit-outs", TD
trial F2): a pair's score card shows the round it sits out, and a stored line against the
sit-out (pair 0, as an older store may hold) is left off rather than stopping the report.

5 pairs, 3-table Mitchell, one board a round (tests/data/report_sit_out_mitchell.toml);
EW 1, EW 2 are internal 4, 5. Seating (hub/event/movement/mitchell.py): round 1 T1 NS1 v
EW1 b1, T2 NS2 v EW2 b2, NS3 sits out; round 2 T2 NS2 v EW1 b3, T3 NS3 v EW2 b1, NS1 sits
out; round 3 T1 NS1 v EW2 b3, T3 NS3 v EW1 b2, NS2 sits out. Each board is played twice:
top 2 on the 2/1 scale.
- b1 (none vul): NS1 4S N = +420, NS3 4S N +1 +450: NS3 2, NS1 0; EW1 2, EW2 0.
- b2 (NS vul): NS2 3NT N = +600, NS3 4H E -2 +100: NS2 2, NS3 0; EW2 0, EW1 2.
- b3 (EW vul): NS2 2S W = -110, NS1 passed out 0: NS1 2, NS2 0; EW1 2, EW2 0.
NS1 2/4, NS2 2/4, NS3 2/4: all 50.00 % (1=); EW1 6/6 100.00 %, EW2 0/6 0.00 %.
"""

from __future__ import annotations

import re
from pathlib import Path

from hub.report.build import build_report
from hub.report.final import standings_text
from hub.report.render import render_html
from hub.store.store import ResultEntry, Store

EVENT = Path(__file__).parents[1] / "data" / "report_sit_out_mitchell.toml"


def test_the_sit_out_round_is_on_the_card_and_a_pair_0_line_never_stops_the_report(
    tmp_path,
):
    store = Store.open(f"sqlite:///{tmp_path / 'odd.db'}")
    eid = store.create_event(EVENT.read_text("utf-8"))
    e = ResultEntry
    store.record(
        eid,
        [
            e("A", 1, 1, 1, 1, 4, "4S", "N", tricks=10),
            e("A", 2, 1, 2, 2, 5, "3NT", "N", tricks=9),
            e("A", 2, 2, 3, 2, 4, "2S", "W", tricks=8),
            e("A", 3, 2, 1, 3, 5, "4S", "N", tricks=11),
            e("A", 1, 3, 3, 1, 5, "PASS", None),
            e("A", 3, 3, 2, 3, 4, "4H", "E", tricks=8),
        ],
    )
    # a line against the sit-out, as an older store may hold one (F2)
    store.record(eid, [e("A", 3, 1, 3, 3, 0, "3NT", "N", tricks=9)])
    model = build_report(store, eid)
    text = " ".join(standings_text(model).split())
    assert "1= NS 1 50.00 2 / 4" in text and "1= NS 3 Eva Grön & Filip Holm 50.00 2 / 4" in text
    assert "1 EW 1 100.00 6 / 6" in text and "2 EW 2 0.00 0 / 6" in text
    (section,) = model.sections
    board3 = next(t for t in section.travellers if t.board == 3)
    assert [(r.table, r.ns, r.ew) for r in board3.rows] == [
        (1, "NS 1", "EW 2"),
        (2, "NS 2", "EW 1"),
    ]
    card = next(c for c in section.cards if c.label == "NS 3")
    assert [(r.round, r.board, r.opponents) for r in card.rows] == [
        (1, 0, "sit out"),
        (2, 1, "EW 2"),
        (3, 2, "EW 1"),
    ]
    html = render_html(model)
    assert re.search(r"<td[^>]*>1</td><td[^>]*></td><td>sit out</td>", html)
    store.close()
