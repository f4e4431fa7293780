"""`bridgehub event export --pbn FILE --usebio FILE` (issue 14 [PUBLISH]): a TD's one
command after the session writes the files the club website and the national body take,
from the event's store; each file read back by an outside reader (endplay for PBN, the
reader of the reference USEBIO files), its results those the store holds."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from export_readers import open_event, read_back
from usebio_reader import read_usebio

from hub.cli.main import cli

pytest.importorskip("endplay")


def test_one_command_writes_pbn_and_usebio(tmp_path: Path) -> None:
    store, eid, _ = open_event(tmp_path)
    played = {(r.board, r.table) for r in store.live_results(eid)}
    store.close()
    pbn, xml = tmp_path / "out" / "event.pbn", tmp_path / "out" / "event.xml"
    pbn.parent.mkdir()
    out = CliRunner().invoke(
        cli,
        [
            *("event", "export", "--db", f"sqlite:///{tmp_path / 'event.db'}"),
            *("--event", str(eid), "--pbn", str(pbn), "--usebio", str(xml)),
        ],
    )
    assert out.exit_code == 0, out.output
    assert f"wrote {pbn}" in out.output and f"wrote {xml}" in out.output
    boards = read_back(pbn)
    assert {b.board_num for b in boards} == {board for board, _ in played}
    usebio = read_usebio(xml)
    assert usebio.program == "bridgehub"
    assert {(b.number, len(b.lines)) for b in usebio.boards} == {
        (board, sum(1 for b, _ in played if b == board)) for board, _ in played
    }


def test_an_export_that_cannot_be_written_names_the_file(tmp_path: Path) -> None:
    """Bad input never ends in a traceback: a destination under a file, not a folder."""
    store, eid, _ = open_event(tmp_path)
    store.close()
    (tmp_path / "notafolder").write_text("", "utf-8")
    out = CliRunner().invoke(
        cli,
        [
            *("event", "export", "--db", f"sqlite:///{tmp_path / 'event.db'}"),
            *("--event", str(eid), "--usebio", str(tmp_path / "notafolder" / "e.xml")),
        ],
    )
    assert out.exit_code == 1 and "cannot write" in out.output and "notafolder" in out.output


def test_two_exports_to_one_file_are_refused(tmp_path: Path) -> None:
    """The USEBIO file would silently replace the PBN file written a moment before."""
    store, eid, _ = open_event(tmp_path)
    store.close()
    same = str(tmp_path / "event.out")
    out = CliRunner().invoke(
        cli,
        [
            *("event", "export", "--db", f"sqlite:///{tmp_path / 'event.db'}"),
            *("--event", str(eid), "--pbn", same, "--usebio", same),
        ],
    )
    assert out.exit_code == 2 and "give each export its own file" in out.output
    assert not (tmp_path / "event.out").exists()
