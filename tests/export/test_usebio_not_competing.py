"""USEBIO places leave out a pair marked not competing (decisions D16, issue [MENDS] #25):
its results count for the field, but it takes no place, and the pairs behind it move up.

The tiny Mitchell of tests/report_tiny.py (its places worked by hand there: NS 3 62.50 %,
NS 1 45.83 %, NS 2 45.00 %; EW 1, EW 3, EW 2) with NS 3 marked not competing: NS 3 has no
PLACE, NS 1 is placed 1st and NS 2 2nd, with their percentages unchanged (NS 3's results
still count for the field); the EW field keeps 1, 2, 3.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path

from report_tiny import EVENT_FILE, EW_PLACES, results
from usebio_reader import read_usebio

from hub.export.usebio import competing_places, write_usebio
from hub.store.store import Store

NS3 = 'number = 3\ndirection = "NS"\n'


def test_places_among_the_competing_keep_shared_places():
    """Ranks 1, 2= (not competing), 2=, 4: the competing ones are 1st, 2nd (one competing
    pair ahead), 3rd (two ahead); the other has none."""
    ranked = [("1", True), ("2=", False), ("2=", True), ("4", True)]
    assert competing_places(ranked) == [1, None, 2, 3]


def test_a_pair_not_competing_has_no_usebio_place(tmp_path: Path):
    text = EVENT_FILE.read_text("utf-8")
    assert NS3 in text
    store = Store.open(f"sqlite:///{tmp_path / 'tiny.db'}")
    try:
        eid = store.create_event(
            text.replace(NS3, NS3 + "not_competing = true\n"), base_dir=EVENT_FILE.parent
        )
        store.record(eid, results())
        path = write_usebio(store, eid, tmp_path / "usebio.xml")
    finally:
        store.close()
    f = read_usebio(path)
    ns = {n: f.entrant(f"{n}NS") for n in (1, 2, 3)}
    assert {n: e.place for n, e in ns.items()} == {1: 1, 2: 2, 3: 0}  # 0: no PLACE
    assert {n: e.percentage for n, e in ns.items()} == {
        1: Decimal("45.83"),
        2: Decimal("45.00"),
        3: Decimal("62.50"),
    }
    for place, label, _, _, _ in EW_PLACES:
        assert f.entrant(f"{label.split()[1]}EW").place == int(place)
    pairs = ET.parse(path).getroot().iter("PAIR")
    ns3 = next(p for p in pairs if p.findtext("PAIR_NUMBER") == "3NS")
    assert ns3.find("PLACE") is None
