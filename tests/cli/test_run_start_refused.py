"""A start the store refuses (here its boot counter has run out, docs/protocol.md §3: the
clock was once set far in the future) is told to the TD as a plain message, not a
traceback, and the hub's locks go with it (issue [TRUST]: one hub per event; the lock is
released on every way out)."""

from __future__ import annotations

import datetime as dt

from click.testing import CliRunner
from event_text import one_section_event
from sqlalchemy import insert

from drivers.line_lock import LineLock
from hub.cli.main import cli
from hub.store import schema as t
from hub.store.boots import EPOCH_MAX
from hub.store.hub_lock import HubLock
from hub.store.store import Store

EVENT = one_section_event("Refused", 'kind = "howell", tables = 3, boards_per_round = 2')


def test_a_start_the_store_refuses_is_a_plain_message_and_releases_the_locks(tmp_path, monkeypatch):
    monkeypatch.setenv("BRIDGEHUB_LOCK_DIR", str(tmp_path))
    event = tmp_path / "club.toml"
    event.write_text(EVENT, "utf-8")
    url = f"sqlite:///{tmp_path / 'club.db'}"
    assert CliRunner().invoke(cli, ["event", "create", str(event), "--db", url]).exit_code == 0
    store = Store.open(url)
    with store.engine.begin() as conn:  # the last epoch a u32 holds: no next one
        conn.execute(insert(t.HubBoot).values(epoch=EPOCH_MAX, started_at=dt.datetime.now(dt.UTC)))
    store.close()
    r = CliRunner().invoke(
        cli,
        ["run", "--event", str(event), "--db", url, "--station", str(tmp_path / "no-line"),
         "--api", "127.0.0.1:0"],
        env={"BRIDGEHUB_TD_PIN": "x7-refused"},
    )  # fmt: skip
    assert r.exit_code == 1, (r.output, r.exception)
    assert "the hub cannot start: the hub's boot counter has reached its end" in r.output
    assert "Traceback" not in r.output
    store = Store.open(url)
    try:
        HubLock.acquire(store.engine, 1).release()
        LineLock.acquire(str(tmp_path / "no-line")).release()
    finally:
        store.close()
