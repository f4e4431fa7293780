"""`bridgehub run --event FILE` after the TD edited FILE between evenings: the refusal says
exactly what to type (issue [TRUST], review of `_event_to_run`): the stored event's own
number, that the edits are then not used, and a store of its own for the edited file."""

from __future__ import annotations

from click.testing import CliRunner
from event_text import one_section_event

from hub.cli.main import cli

TUESDAY = one_section_event("Tuesday Pairs", 'kind = "howell", tables = 3, boards_per_round = 2')


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], env={"BRIDGEHUB_TD_PIN": "x7-run-x"})


def test_an_edited_file_of_a_one_event_store_is_told_the_exact_event_id(tmp_path, monkeypatch):
    monkeypatch.setenv("BRIDGEHUB_LOCK_DIR", str(tmp_path))
    event = tmp_path / "tuesday.toml"
    event.write_text(TUESDAY, "utf-8")
    db = f"sqlite:///{tmp_path / 'tuesday.db'}"
    assert run("event", "create", event, "--db", db).exit_code == 0
    event.write_text(TUESDAY.replace("Tuesday Pairs", "Tuesday Pairs (sub)"), "utf-8")
    r = run("run", "--event", event, "--db", db, "--station", tmp_path / "no-line")
    assert r.exit_code == 1, r.output
    text = " ".join(r.output.split())  # click wraps nothing, but be safe
    assert "add --event-id 1" in text, text
    assert "--event-id N" not in text, text
    assert "your edits to the file are not used" in text, text
    assert f"--db sqlite:///{tmp_path / 'tuesday-new.db'}" in text, text


def test_an_event_id_for_an_empty_store_says_the_store_holds_none(tmp_path, monkeypatch):
    """A mistyped --db opens an empty store: the refusal says so instead of "(it holds )"."""
    monkeypatch.setenv("BRIDGEHUB_LOCK_DIR", str(tmp_path))
    event = tmp_path / "tuesday.toml"
    event.write_text(TUESDAY, "utf-8")
    db = f"sqlite:///{tmp_path / 'tusday.db'}"
    r = run("run", "--event", event, "--db", db, "--event-id", 1, "--station", tmp_path / "x")
    assert r.exit_code == 1, r.output
    assert "no event 1 in this store (it holds no event: check --db)" in r.output, r.output
