"""The command line for a stopped hub, the review's follow-ups (issue 13 "Names", TD trial
F2, "Exports a scoring program can take"; reviewer R1):

- `event edit` names a pair the event file did not list (an unnamed event: the TD names
  its pairs as they arrive), as long as the movement seats it;
- `event standings` prints the stored lines it left out of scoring, with the reason;
- `event export --travellers FILE` writes the traveller CSV `bridgehub score` reads.
"""

from __future__ import annotations

import csv
from pathlib import Path

from click.testing import CliRunner, Result
from event_text import one_section_event

from hub.cli.main import cli
from hub.store.store import ResultEntry, Store


def bridgehub(*args: object) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_event_edit_names_a_pair_of_an_unnamed_event(tmp_path):
    """A 3-table Mitchell with no pairs listed: `--pair "EW 2"` is the hub's pair 5 (3
    tables + 2). Before the review: "section A has no pair 5 in the store"."""
    file = tmp_path / "event.toml"
    file.write_text(
        one_section_event("Unnamed", 'kind = "mitchell", tables = 3, boards_per_round = 2'),
        encoding="utf-8",
    )
    url = f"sqlite:///{tmp_path / 'event.db'}"
    assert bridgehub("event", "create", file, "--db", url).exit_code == 0
    out = bridgehub("event", "edit", "--db", url, "--event", 1, "--pair", "EW 2",
                    "--player", 2, "--name", "Bo Ek", "--number", "4711")  # fmt: skip
    assert out.exit_code == 0, out.output
    store = Store.open(url, migrate=False)
    players = {c["number"]: c["players"] for c in store.contestants(1, "A")}
    assert players[5] == [{"name": ""}, {"name": "Bo Ek", "number": "4711"}]
    edits = [a for a in store.audit_log(1) if a["action"] == "pair_edited"]
    assert len(edits) == 1
    store.close()
    out = bridgehub("event", "edit", "--db", url, "--event", 1, "--pair", "EW 4",
                    "--player", 1, "--name", "X")  # fmt: skip
    assert out.exit_code != 0 and "has no pair EW 4" in out.output  # still the movement's


EVENT = """schema_version = 1
[event]
name = "Five pairs"
[rules]
scoring = "mp"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = "m.csv"
"""


def movement_csv() -> str:
    """A 3-table Mitchell of 5 pairs (NS 1-3 stationary, EW 4-6 up one table, boards
    down), EW 6 replaced by 0, the sit-out: round 1 T1 1-4 boards 1-2, T2 2-5 boards 3-4,
    T3 3-0; round 2 T1 1-0, T2 2-4 boards 5-6, T3 3-5 boards 1-2; round 3 T1 1-5 boards
    5-6, T2 2-0 boards 1-2, T3 3-4 boards 3-4."""
    rows = []
    for r in (1, 2, 3):
        for t in (1, 2, 3):
            ew = 3 + ((t - r) % 3) + 1
            s = ((t + r - 2) % 3) + 1
            rows.append(f"A,{t},{r},{t},{0 if ew == 6 else ew},{2 * s - 1},{2 * s}")
    head = (
        "# kind: mitchell\n# winners: 2\nsection,table,round,ns_pair,ew_pair,low_board,high_board"
    )
    return "\n".join([head, *rows]) + "\n"


def older_store(tmp_path: Path) -> str:
    """The 5-pair Mitchell above; board 1 as an older hub stored it:
    T1 r1 1-4 4S by N 10 tricks (NS +420), T3 r2 3-5 3NT by N 9 tricks (NS +400), and the
    bad line T2 r3 2-0 1NT by N 7 tricks (against the sit-out)."""
    (tmp_path / "m.csv").write_text(movement_csv(), "utf-8")
    url = f"sqlite:///{tmp_path / 'event.db'}"
    store = Store.open(url)
    eid = store.create_event(EVENT, base_dir=tmp_path)
    store.record(
        eid,
        [
            ResultEntry("A", 1, 1, 1, 1, 4, contract="4S", declarer="N", tricks=10),
            ResultEntry("A", 3, 2, 1, 3, 5, contract="3NT", declarer="N", tricks=9),
            ResultEntry("A", 2, 3, 1, 2, 0, contract="1NT", declarer="N", tricks=7),
        ],
    )
    store.close()
    return url


def test_event_standings_names_the_line_it_left_out(tmp_path):
    """F2: the standings are printed from the two real results, and the pair-0 line is
    named with its reason (before: left out silently, the TD never knew to erase it)."""
    url = older_store(tmp_path)
    out = bridgehub("event", "standings", "--db", url, "--event", 1)
    assert out.exit_code == 0, out.output
    left = [line for line in out.output.splitlines() if "left out" in line]
    assert len(left) == 1
    assert "table A2 round 3 board 1" in left[0]
    assert "pair 0 is the sit-out" in left[0]


def test_event_export_writes_the_scorers_travellers(tmp_path):
    """`event export --travellers FILE`: board 1's rows as `bridgehub score` reads them,
    by round: 4S by N with 10 tricks is "=", 3NT by N with 9 tricks is "=" (worked from the
    contracts: 6 + level tricks needed); the older store's line against pair 0 (the
    sit-out) is left out, since `bridgehub score` refuses pair 0."""
    url = older_store(tmp_path)
    target = tmp_path / "travellers.csv"
    out = bridgehub("event", "export", "--db", url, "--event", 1, "--travellers", target)
    assert out.exit_code == 0, out.output
    assert f"wrote {target}" in out.output
    with target.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    got = [(r["board"], r["ns"], r["ew"], r["contract"], r["declarer"], r["result"]) for r in rows]
    assert got == [
        ("1", "1", "4", "4S", "N", "="),
        ("1", "3", "5", "3NT", "N", "="),
    ]
    out = bridgehub("event", "export", "--db", url, "--event", 1)
    assert out.exit_code != 0 and "--travellers FILE" in out.output
