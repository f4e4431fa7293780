"""Store speed: durable result commits and rebuilding every view from 100,000 results.

Run: ``.venv/bin/python bench/store.py [--pg URL] [--quick]`` (``bash dev.sh bench-store``).

1. Durable commits: one result per transaction through ``Store.record`` (revision lookup,
   key check, append) against a baseline measured in the same run: a bare INSERT + COMMIT
   with the same durability settings. Commits per second and latency p50/p99, on SQLite
   (WAL, synchronous FULL) and PostgreSQL; then group commits of 25 results.
2. Rebuild: every view (travellers, scores, standings) from 100,000 stored results
   (40 sections of a 25-table Mitchell, 100 boards each); target under 3 s.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

from sqlalchemy import create_engine, insert, text
from sqlalchemy.engine import make_url

from hub.standings.rebuild import rebuild
from hub.store import schema as t
from hub.store.engine import make_engine
from hub.store.store import ResultEntry, Store

EVENT = """schema_version = 1
[event]
name = "bench"
[rules]
scoring = "mp"
[[sessions]]
name = "bench"
{sections}
"""
SECTION = """[[sessions.sections]]
letter = "{letter}"
movement = {{ kind = "mitchell", tables = 25, boards_per_round = 4 }}
"""


def letters(n: int) -> list[str]:
    out = []
    for i in range(n):
        a, b = divmod(i, 26)
        out.append((chr(65 + a - 1) if a else "") + chr(65 + b))
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_commits(url: str, n: int) -> None:
    store = Store.open(url)
    eid = store.create_event(EVENT.format(sections=SECTION.format(letter="A")))
    movement = store.movement(eid, "A")
    rows = [r for r in movement.rows]
    lat = []
    for i in range(n):
        r = rows[i % len(rows)]
        entry = ResultEntry(
            "A",
            r.table,
            r.round,
            r.boards[i % 4],
            r.ns_pair,
            r.ew_pair,
            "4S",
            "N",
            tricks=10,
            entered_by="bench",
            submission_key=f"b:{uuid.uuid4().hex}",
        )
        t0 = time.perf_counter()
        store.record(eid, [entry])
        lat.append(time.perf_counter() - t0)
    # baseline: a bare INSERT + COMMIT on the same engine settings
    engine = make_engine(url)
    base = []
    now = dt.datetime.now(dt.UTC)
    with engine.connect() as conn:
        for i in range(n):
            t0 = time.perf_counter()
            conn.execute(
                insert(t.AuditEntry).values(
                    event_id=eid, at=now, actor="bench", action="baseline", detail={"i": i}
                )
            )
            conn.commit()
            base.append(time.perf_counter() - t0)
    batch_lat = []
    for k in range(max(4, n // 25)):
        entries = [
            ResultEntry(
                "A",
                r.table,
                r.round,
                r.boards[k % 4],
                r.ns_pair,
                r.ew_pair,
                "3NT",
                "S",
                tricks=9,
                entered_by="bench",
                submission_key=f"g:{uuid.uuid4().hex}",
            )
            for r in rows[(k * 25) % len(rows) : (k * 25) % len(rows) + 25]
        ]
        t0 = time.perf_counter()
        store.record(eid, entries)
        batch_lat.append(time.perf_counter() - t0)
    name = make_url(url).get_backend_name()
    med, bmed = statistics.median(lat), statistics.median(base)
    print(
        f"   {name:<10} one result per commit: {1 / med:8.0f}/s  p50 {med * 1000:6.2f} ms  "
        f"p99 {pct(lat, 0.99) * 1000:6.2f} ms"
    )
    print(
        f"   {name:<10} bare INSERT+COMMIT:    {1 / bmed:8.0f}/s  p50 {bmed * 1000:6.2f} ms"
        f"  (store/bare latency {med / bmed:.1f}×)"
    )
    gmed = statistics.median(batch_lat)
    print(
        f"   {name:<10} group commit of 25:    {25 / gmed:8.0f} results/s  p50 "
        f"{gmed * 1000:6.2f} ms per commit"
    )
    store.close()
    engine.dispose()


def bench_rebuild(url: str, sections: int) -> None:
    store = Store.open(url)
    text_ = EVENT.format(sections="".join(SECTION.format(letter=x) for x in letters(sections)))
    eid = store.create_event(text_)
    now = dt.datetime.now(dt.UTC)
    values = []
    rng = __import__("random").Random(7)
    for letter in store.sections(eid):
        for r in store.movement(eid, letter).rows:
            for b in r.boards:
                tricks = rng.choice((8, 9, 9, 10, 10, 10, 11))
                values.append(
                    dict(
                        event_id=eid,
                        section=letter,
                        table_no=r.table,
                        round=r.round,
                        board=b,
                        revision=1,
                        status="accepted",
                        erased=False,
                        ns_pair=r.ns_pair,
                        ew_pair=r.ew_pair,
                        contract=rng.choice(("4S", "3NT", "4H")),
                        declarer="N",
                        tricks=tricks,
                        entered_by="bench",
                        received_at=now,
                    )
                )
    with store.engine.begin() as conn:
        for i in range(0, len(values), 5000):
            conn.execute(insert(t.ResultRecord), values[i : i + 5000])
    store.close()
    times = []
    for _ in range(3):
        fresh = Store.open(url)  # as after a restart: nothing cached
        t0 = time.perf_counter()
        views = rebuild(fresh, eid)
        times.append(time.perf_counter() - t0)
        fresh.close()
    n = sum(len(v.boards) for v in views.values())
    med = statistics.median(times)
    print(
        f"   {make_url(url).get_backend_name():<10} rebuild {len(values):,} results "
        f"({n} boards, {sections} sections): {med:6.2f} s (target < 3 s: "
        f"{3 / med:.1f}× inside)"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--pg",
        default=os.environ.get("BRIDGEHUB_TEST_PG_URL"),
        help="PostgreSQL URL (a scratch database is created and dropped)",
    )
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n = 100 if args.quick else 400
    sections = 8 if args.quick else 40
    with tempfile.TemporaryDirectory() as tmp:
        urls = [f"sqlite:///{Path(tmp) / 'commits.db'}"]
        rebuild_urls = [f"sqlite:///{Path(tmp) / 'rebuild.db'}"]
        admin = None
        scratch = None
        if args.pg:
            scratch = f"bridgehub_bench_{uuid.uuid4().hex[:8]}"
            admin = create_engine(args.pg, isolation_level="AUTOCOMMIT")
            with admin.connect() as c:
                c.execute(text(f'CREATE DATABASE "{scratch}"'))
            pg = make_url(args.pg).set(database=scratch).render_as_string(hide_password=False)
            urls.append(pg)
            rebuild_urls.append(pg)
        try:
            print("1. Durable result commits (latency per commit)")
            for url in urls:
                bench_commits(url, n)
            print("\n2. Rebuild every view from the store")
            for url in rebuild_urls:
                bench_rebuild(url, sections)
        finally:
            if admin is not None:
                with admin.connect() as c:
                    c.execute(text(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)'))
                admin.dispose()
        if not args.pg:
            print("\n(PostgreSQL skipped: pass --pg URL or set BRIDGEHUB_TEST_PG_URL)")


if __name__ == "__main__":
    main()
