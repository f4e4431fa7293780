"""What the export tests share (issue 14 [PUBLISH]): the event they export and the readers
of the files written.

``open_event``: the report's tiny 3-table Mitchell (tests/report_tiny.py) with hand records
for boards 1 and 2 (RealBridge's boards 11 and 12, tests/data) and its nine results.
``read_back`` and ``table_rows``: a PBN file read back with endplay's reader. ``COMPSCORE``,
``NOT_HELD`` and ``left_out``: a USEBIO file against the reference files of Compscore3
(tests/data/usebio), less the elements the hub does not hold."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from report_tiny import EVENT_FILE, results
from usebio_reader import UsebioFile, read_usebio

from hub.event.hand_records import read_hand_records
from hub.store.store import Store

DATA = Path(__file__).parent / "data"
REALBRIDGE = DATA / "realbridge_2021_online_qual_open_r2.pbn"


def open_event(tmp_path: Path, scoring: str = "mp") -> tuple[Store, int, dict[int, str]]:
    """The tiny event with hand records for boards 1 and 2, its nine results recorded."""
    theirs = read_hand_records(REALBRIDGE)
    deals = {1: theirs[11], 2: theirs[12]}
    (tmp_path / "hands.pbn").write_text(
        "".join(f'[Board "{b}"]\n[Deal "{d}"]\n\n' for b, d in deals.items()), "utf-8"
    )
    text = EVENT_FILE.read_text("utf-8")
    text = text.replace("date = 2026-12-01", 'date = 2026-12-01\nhand_records = "hands.pbn"')
    text = text.replace('scoring = "mp"', f'scoring = "{scoring}"')
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    eid = store.create_event(text, base_dir=tmp_path)
    store.record(eid, results())
    return store, eid, deals


# -- PBN, read back with endplay's reader ------------------------------------------------------
def read_back(path: Path) -> list[Any]:
    """The boards of a PBN file, as endplay reads them (endplay imported here: a test module
    without it skips before calling this)."""
    from endplay.parsers import pbn

    with path.open(encoding="utf-8") as f:
        return pbn.load(f)


def table_rows(board: Any, tag: str) -> list[dict[str, str]]:
    """A table's rows by column name; the last column (``Names``, a string token with spaces
    that endplay splits) joined again and unquoted."""
    table = board.info[tag]
    names = [h["name"] if isinstance(h, dict) else h for h in table["headers"]]
    out = []
    for row in table["rows"]:
        cells = [*row[: len(names) - 1], " ".join(row[len(names) - 1 :])]
        out.append(dict(zip(names, cells, strict=True)))
    return out


# -- USEBIO, compared with the reference files -------------------------------------------------
USEBIO = DATA / "usebio"
COMPSCORE = USEBIO / "cobalt_compscore3"
NZ = USEBIO / "nz_scorer_to_usebio"

# Compscore3's elements the hub has no value for (module docstring of hub/export/usebio.py)
NOT_HELD = {
    "USEBIO/EVENT/MASTER_POINT_SCALE",
    "USEBIO/EVENT/MASTER_POINT_TYPE",
    "USEBIO/EVENT/P2P_CHARGE_RATE",
    "USEBIO/EVENT/CONTACT",
    "USEBIO/EVENT/CONTACT/FULL_NAME",
    "USEBIO/EVENT/CONTACT/SCORER",
    "USEBIO/EVENT/CONTACT/TELEPHONE",
    "USEBIO/EVENT/CONTACT/EMAIL",
    "USEBIO/EVENT/PARTICIPANTS/PAIR/MASTER_POINTS_AWARDED",
    "USEBIO/EVENT/PARTICIPANTS/PAIR/MASTER_POINT_TYPE",
    "USEBIO/EVENT/PARTICIPANTS/PAIR/PLAYER/CLUB_ID_NUMBER",
}


def left_out(ours: UsebioFile, reference: Path) -> set[str]:
    """Reference element paths our file does not have; ours must have no path of its own."""
    theirs = read_usebio(reference).paths
    assert ours.paths - theirs == set(), "elements the reference file does not have"
    return set(theirs - ours.paths)
