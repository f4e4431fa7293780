"""Table cards with the phones' join link as a QR code (issue 15: "A table joins by scanning
a QR code printed on its table card (`bridgehub movement cards` prints them) that carries a
per-table one-time code"; docs/web-terminal.md "Table codes"): one card per table of every
section, each with the table's link ``http://HOST:PORT/t/A3?c=CODE``, its code in large
letters and the QR code of exactly that link; the codes are the store's, made once, so a
second printing gives the same cards."""

from __future__ import annotations

import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import pytest
import segno
from click.testing import CliRunner

from hub.cli.main import cli
from hub.store.store import Store
from hub.store.table_codes import reissue_code, table_codes

JOIN = "http://10.0.0.2:7180"
# two sections: A a Mitchell of 4 tables, B a Howell of 3
EVENT = """schema_version = 1
[event]
name = "Card night"
[rules]
scoring = "mp"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = { kind = "mitchell", tables = 4, boards_per_round = 2 }
[[sessions.sections]]
letter = "B"
movement = { kind = "howell", tables = 3, boards_per_round = 2 }
"""
TABLES = [("A", 1), ("A", 2), ("A", 3), ("A", 4), ("B", 1), ("B", 2), ("B", 3)]


@pytest.fixture
def event_db(tmp_path) -> tuple[str, int]:
    url = f"sqlite:///{tmp_path / 'cards.db'}"
    store = Store.open(url)
    try:
        return url, store.create_event(EVENT)
    finally:
        store.close()


def run(*args: object):
    return CliRunner().invoke(cli, [str(a) for a in args])


def codes_of(url: str, eid: int) -> dict[tuple[str, int], str]:
    store = Store.open(url, migrate=False)
    try:
        return {k: v.code for k, v in table_codes(store, eid).items()}
    finally:
        store.close()


def cards(page: str) -> dict[str, str]:
    """Each card's HTML by its id (section and table, "A3")."""
    found = re.findall(r'<section class="card" id="([A-Z]+\d+)">(.*?)</section>', page, re.S)
    return dict(found)


def svg_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules (row, column) of a segno SVG, read back from its path: ``M x y``
    and ``m dx dy`` move, ``h n`` draws n modules along the row; the quiet zone is taken
    off (the viewBox is the symbol plus 4 modules each side)."""
    (size,) = re.findall(r'viewBox="0 0 (\d+) \d+"', svg)
    border = 4
    (path,) = re.findall(r' d="([^"]+)"', svg)
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for k in range(int(float(a))):
                dark.add((int(y - 0.5) - border, int(x) + k - border))
            x += float(a)
    assert all(0 <= r < int(size) - 2 * border and 0 <= c < int(size) - 2 * border for r, c in dark)
    return dark


def qr_modules(link: str) -> set[tuple[int, int]]:
    """The dark modules segno makes for ``link`` (error correction M, as the cards)."""
    matrix = segno.make_qr(link, error="m").matrix
    return {(r, c) for r, row in enumerate(matrix) for c, v in enumerate(row) if v}


def decoded(link: str, tmp_path: Path) -> str | None:
    """The link read back from a picture of its QR code by zbarimg, when installed."""
    if shutil.which("zbarimg") is None:
        return None
    png = tmp_path / "qr.png"
    segno.make_qr(link, error="m").save(png, scale=6)
    out = subprocess.run(["zbarimg", "--raw", "-q", str(png)], capture_output=True, timeout=30)
    return out.stdout.decode().strip()


def test_one_card_per_table_with_its_link_code_and_qr(event_db, tmp_path):
    url, eid = event_db
    page_file = tmp_path / "cards.html"
    r = run("movement", "cards", "--db", url, "--join", JOIN + "/", "--html", page_file)
    assert r.exit_code == 0, r.output
    assert f"wrote {page_file}: 7 table cards" in r.output
    page = page_file.read_text("utf-8")
    codes = codes_of(url, eid)
    assert sorted(codes) == TABLES  # made by printing the cards
    found = cards(page)
    assert sorted(found) == sorted(f"{s}{t}" for s, t in TABLES)
    for (section, table), code in codes.items():
        card = found[f"{section}{table}"]
        link = f"{JOIN}/t/{section}{table}?c={code}"
        assert f"Section {section} · Table {table}" in unescape(card)
        assert f'<div class="code">{code}</div>' in card  # the code in large letters
        assert f'<a href="{link}">{link}</a>' in unescape(card).replace("&amp;", "&")
        (svg,) = re.findall(r"<svg.*?</svg>", card, re.S)
        assert svg_modules(svg) == qr_modules(link), f"the QR code of {section}{table}"
        assert "Rounds at this table" in card and "round" in card  # the table's rounds
    link = f"{JOIN}/t/A3?c={codes[('A', 3)]}"
    assert decoded(link, tmp_path) in (None, link)


def test_cards_printed_again_carry_the_same_codes_until_one_is_reissued(event_db, tmp_path):
    """The codes are the store's: a second printing gives the same cards (those already on
    the tables stay good); after the director re-issues A2's, only A2's card changes."""
    url, eid = event_db
    first, second, third = (tmp_path / f"{n}.html" for n in ("first", "second", "third"))
    assert run("movement", "cards", "--db", url, "--join", JOIN, "--html", first).exit_code == 0
    assert run("movement", "cards", "--db", url, "--join", JOIN, "--html", second).exit_code == 0
    assert first.read_text("utf-8") == second.read_text("utf-8")
    before = codes_of(url, eid)
    store = Store.open(url)
    try:
        reissue_code(store, eid, "A", 2)
    finally:
        store.close()
    r = run("movement", "cards", "--db", url, "--join", JOIN, "--html", third, "--table", 2)
    assert r.exit_code == 0 and "2 table cards" in r.output, r.output  # A2 and B2
    after = codes_of(url, eid)
    assert {k: v for k, v in after.items() if k != ("A", 2)} == {
        k: v for k, v in before.items() if k != ("A", 2)
    }
    assert after[("A", 2)] != before[("A", 2)]
    page = third.read_text("utf-8")
    assert sorted(cards(page)) == ["A2", "B2"]
    assert f"/t/A2?c={after[('A', 2)]}" in page and before[("A", 2)] not in page


def test_text_cards_carry_the_link_and_code(event_db):
    url, eid = event_db
    r = run("movement", "cards", "--db", url, "--join", JOIN, "--only", "tables")
    assert r.exit_code == 0, r.output
    codes = codes_of(url, eid)
    for (section, table), code in codes.items():
        assert f"  phones: {JOIN}/t/{section}{table}?c={code}  (code {code})" in r.output
    assert r.output.count("Section A, table") == 4 and r.output.count("Section B, table") == 3


def test_cards_from_a_file_print_as_before_and_as_html_without_codes(tmp_path):
    movement = tmp_path / "m.csv"
    r = run("movement", "howell", "--tables", 3, "--boards-per-round", 2, "--csv")
    movement.write_text(r.output, "utf-8")
    r = run("movement", "cards", movement, "--only", "tables")
    assert r.exit_code == 0 and r.output.count("Section A, table") == 3, r.output
    page = tmp_path / "plain.html"
    r = run("movement", "cards", movement, "--html", page)
    assert r.exit_code == 0, r.output
    assert sorted(cards(page.read_text("utf-8"))) == ["A1", "A2", "A3"]
    assert "<svg" not in page.read_text("utf-8")  # no store, no codes: no QR


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--join", JOIN), "--join needs --db"),
        (("--join", "10.0.0.2:7180"), "give the web terminals' address as http://HOST:PORT"),
        (("--join", "http://10.0.0.2:7180/?x=1"), "give the web terminals' address"),
        ((), "give a movement FILE or --db URL"),
    ],
)
def test_wrong_options_are_refused_with_what_to_give(event_db, args, said):
    url, eid = event_db
    with_db = () if args in ((), ("--join", JOIN)) else ("--db", url)
    r = run("movement", "cards", *with_db, *args)
    assert r.exit_code == 2, r.output
    assert said in r.output
    assert codes_of(url, eid) == {}  # nothing stored


def test_a_store_of_several_events_needs_the_event(event_db, tmp_path):
    url, _ = event_db
    store = Store.open(url)
    try:
        second = store.create_event(EVENT.replace("Card night", "Second night"))
    finally:
        store.close()
    r = run("movement", "cards", "--db", url, "--join", JOIN)
    assert (
        r.exit_code == 2 and "the store holds events 1, 2: choose one with --event ID" in r.output
    )
    r = run("movement", "cards", "--db", url, "--event", second, "--join", JOIN, "--only", "tables")
    assert r.exit_code == 0, r.output
    assert sorted(codes_of(url, second)) == TABLES
    r = run("movement", "cards", "--db", url, "--event", 9, "--join", JOIN)
    assert r.exit_code == 1 and "no event 9 in this store" in r.output
