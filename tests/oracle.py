"""Loaders for the reference data in tests/data (see the provenance table there)."""

from __future__ import annotations

import csv
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class OracleRow:
    event: str
    board: int
    ns: int
    ew: int
    played: bool
    contract: str
    declarer: str
    result: str
    score_ns: int | None
    ns_value: str
    ew_value: str


def oracle_rows(name: str) -> list[OracleRow]:
    out = []
    with open(DATA / name, encoding="utf-8") as f:
        for r in csv.DictReader(f):
            ns_v = r.get("pct_ns", r.get("value_ns", ""))
            ew_v = r.get("pct_ew", r.get("value_ew", ""))
            out.append(
                OracleRow(
                    r["event"],
                    int(r["board"]),
                    int(r["pair_ns"]),
                    int(r["pair_ew"]),
                    r["kind"] == "played",
                    r["contract"],
                    r["declarer"],
                    r["result"],
                    int(r["score_ns"]) if r["score_ns"] else None,
                    ns_v,
                    ew_v,
                )
            )
    return out


def by_board(rows: list[OracleRow]) -> dict[int, list[OracleRow]]:
    out: dict[int, list[OracleRow]] = defaultdict(list)
    for r in rows:
        out[r.board].append(r)
    return dict(out)


def traveller_csv(rows: list[OracleRow], adjusted: str | None = None) -> str:
    """The rows as a bridgehub traveller CSV (artificial rows get ``adjusted`` or their
    oracle percentages)."""
    lines = ["board,ns,ew,contract,declarer,result,score_ns,adjusted"]
    for r in rows:
        if r.played:
            lines.append(
                f"{r.board},{r.ns},{r.ew},{r.contract},{r.declarer},{r.result},{r.score_ns},"
            )
        else:
            adj = adjusted or f"{float(r.ns_value):g}/{float(r.ew_value):g}"
            lines.append(f"{r.board},{r.ns},{r.ew},,,,,{adj}")
    return "\n".join(lines) + "\n"


def pbn_boards() -> list:
    """The RealBridge PBN records, parsed by endplay (a test-only dependency)."""
    from endplay.parsers import pbn

    with open(DATA / "realbridge_2021_online_qual_open_r2.pbn", encoding="utf-8") as f:
        return pbn.load(f)
