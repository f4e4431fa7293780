"""BWS-shaped interchange both ways (issue [PUBLISH]): a RoundData CSV as Bridgemate writes
it (tests/data/bws/README.md: mdb-export's shape, section ID 1 for A) becomes a new event
with `bridgehub event import --round-data … --player-numbers …`, or an event file's section
movement (`movement = { round_data = "RoundData.csv" }`); bad rows are named FILE:LINE with
the reason; `event export --bws` read back gives the same movement and names."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from hub.cli.main import cli
from hub.event.movement.csv_format import parse_movement
from hub.event.movement.model import MovementKind
from hub.event.movement.round_data import RoundDataError, parse_round_data
from hub.store.store import Store

DATA = Path(__file__).parents[1] / "data"
BWS = DATA / "bws"
HEADER = "Section,Table,Round,NSPair,EWPair,LowBoard,HighBoard,CustomBoards\n"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'event.db'}"


def seat_map(movement) -> dict[tuple[int, int], tuple[int, int, tuple[int, ...]]]:
    return {(r.table, r.round): (r.ns_pair, r.ew_pair, r.boards) for r in movement.rows}


def mitchell_rule(tables: int, rounds: int, per_round: int):
    """The Mitchell's rule (shared/docs/movements.md §1): NS t stays at table t; the EW pair
    that starts at table e moves up one table a round; the board set that starts at table s
    moves down one table a round. EW pairs are T+1..2T, board set s holds boards s·B+1…"""
    out = {}
    for r in range(rounds):
        for t in range(tables):
            ew = tables + 1 + (t - r) % tables
            s = (t + r) % tables
            out[(t + 1, r + 1)] = (
                t + 1,
                ew,
                tuple(range(s * per_round + 1, (s + 1) * per_round + 1)),
            )
    return out


def test_a_bridgemate_mitchell_and_its_players_become_a_new_event(tmp_path):
    out = run(
        "event", "import", "--db", db(tmp_path),
        "--round-data", str(BWS / "mitchell_3t_3r_2b_RoundData.csv"),
        "--player-numbers", str(BWS / "mitchell_3t_PlayerNumbers.csv"),
        "--name", "Tuesday pairs",
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert out.output.startswith("event 1: Tuesday pairs (sections A; 6 pairs named; mp")
    store = Store.open(db(tmp_path))
    try:
        movement = store.movement(1, "A")
        assert seat_map(movement) == mitchell_rule(3, 3, 2)
        assert movement.layout.kind is MovementKind.MITCHELL and movement.layout.winners == 2
        names = {c["number"]: c["players"] for c in store.contestants(1, "A")}
        assert names[1] == [
            {"name": "Anna Berg", "number": "1001"},
            {"name": "Bo Ek", "number": "1002"},
        ]
        assert names[4] == [  # EW 1: the pair at table 1's E and W seats in round 1
            {"name": "Greta Ivars", "number": "1007"},
            {"name": "Hans Jung", "number": "1008"},
        ]
        assert names[2][1] == {"name": ""}  # Number "0": Bridgemate's unknown player
        assert store.event(1).rules.scoring.value == "mp"
    finally:
        store.close()


def test_a_bridgemate_howell_reads_as_the_published_schedule(tmp_path):
    """The 5-table Howell of tests/data/howell_5t_9r_3b.csv (thebridsk), in RoundData shape."""
    out = run(
        "event", "import", "--db", db(tmp_path), "--scoring", "ximp",
        "--round-data", str(BWS / "howell_5t_9r_3b_RoundData.csv"),
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    published = parse_movement((DATA / "howell_5t_9r_3b.csv").read_text(encoding="utf-8"))
    store = Store.open(db(tmp_path))
    try:
        movement = store.movement(1, "A")
        assert seat_map(movement) == seat_map(published)
        assert movement.layout.kind is MovementKind.HOWELL and movement.layout.winners == 1
        assert store.event(1).rules.scoring.value == "ximp"
    finally:
        store.close()


def test_every_bad_row_is_named_with_its_line_and_reason(tmp_path):
    bad = tmp_path / "RoundData.csv"
    bad.write_text(
        HEADER
        + '1,1,1,1,4,1,2,""\n'
        + '1,2,1,2,x,3,4,""\n'  # line 3: not a number
        + '1,1,1,3,6,5,6,""\n'  # line 4: table 1 round 1 again
        + '1,3,1,3,6,6,5,""\n'  # line 5: boards 6-5
        + '9x,3,2,3,6,1,2,""\n'  # line 6: no such section
        + "1,3,3,3\n",  # line 7: short
        encoding="utf-8",
    )
    out = run("event", "import", "--db", db(tmp_path), "--round-data", str(bad))
    assert out.exit_code == 1 and "Traceback" not in out.output
    for expected in (
        "RoundData.csv:3: EWPair 'x' is not a whole number",
        "RoundData.csv:4: section A table 1 round 1 already has a row (line 2)",
        "RoundData.csv:5: LowBoard 6 and HighBoard 5 must be 1 ≤ low ≤ high",
        "RoundData.csv:6: Section '9x' is neither a section ID 1-26 nor a letter A-ZZZ",
        "RoundData.csv:7: 4 cells, but the header (line 1) names 8",
    ):
        assert expected in out.output, out.output
    assert not (tmp_path / "event.db").exists()  # nothing half-made


def test_a_movement_rule_broken_is_named_at_its_file_line():
    """The checker's rules (decisions D3), said at the row's line in the file."""
    text = HEADER + '1,2,1,2,4,3,4,""\n1,1,2,1,5,3,4,""\n1,1,1,1,4,1,2,""\n1,2,2,2,6,1,2,""\n'
    try:
        parse_round_data(text, "RoundData.csv")
    except RoundDataError as e:  # the file's order, not the sorted movement's
        assert "RoundData.csv:4: pair 4 is already seated at table 2 in this round" in str(e)
    else:
        raise AssertionError("pair 4 seated twice was accepted")


def test_a_bad_player_numbers_row_is_named(tmp_path):
    players = tmp_path / "PlayerNumbers.csv"
    players.write_text(
        "Section,Table,Direction,Number,Name\n"
        '1,1,"N","1001","Anna Berg"\n'
        '1,1,"X","1002","Bo Ek"\n'
        '1,7,"S","1003","Cilla Dahl"\n',
        encoding="utf-8",
    )
    out = run(
        "event", "import", "--db", db(tmp_path),
        "--round-data", str(BWS / "mitchell_3t_3r_2b_RoundData.csv"),
        "--player-numbers", str(players),
    )  # fmt: skip
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "PlayerNumbers.csv:3: Direction 'X' is not N, E, S or W" in out.output
    assert "PlayerNumbers.csv:4: section A has no table 7 in round 1" in out.output


def test_a_spreadsheet_save_is_named_with_what_to_do(tmp_path):
    """Two ways a club's spreadsheet spoils a Bridgemate CSV: cells ';' apart (a locale
    with a decimal comma) and a name saved in Latin-1 ("Jörg" as the byte F6). Each is
    named with the file, the line and what to do, never a traceback, and nothing is made."""
    semicolons = tmp_path / "RoundData.csv"
    semicolons.write_text(HEADER.replace(",", ";") + '1;1;1;1;4;1;2;""\n', encoding="utf-8")
    out = run("event", "import", "--db", db(tmp_path), "--round-data", str(semicolons))
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "RoundData.csv:1: no column(s) Section" in out.output
    assert "save it as comma-separated CSV" in out.output
    latin1 = tmp_path / "PlayerNumbers.csv"
    latin1.write_bytes(b'Section,Table,Direction,Number,Name\r\n1,1,"N","1001","J\xf6rg"\r\n')
    out = run(
        "event", "import", "--db", db(tmp_path),
        "--round-data", str(BWS / "mitchell_3t_3r_2b_RoundData.csv"),
        "--player-numbers", str(latin1),
    )  # fmt: skip
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "PlayerNumbers.csv: not a text file in UTF-8 (line 2)" in out.output
    assert not (tmp_path / "event.db").exists()


def test_ew_numbered_from_one_again_is_a_two_winner_mitchell():
    """BWS files with Winners = 2 may number EW 1..n like NS: one number NS at one table and
    EW at another in the same round. The hub numbers EW T+1..2T (docs/store.md)."""
    rows = []
    for r in (1, 2, 3):
        for t in (1, 2, 3):
            low = 2 * ((t + r - 2) % 3) + 1
            rows.append(f'1,{t},{r},{t},{(t - r) % 3 + 1},{low},{low + 1},""\n')
    text = HEADER + "".join(rows)
    movement = parse_round_data(text, "RoundData.csv")["A"]
    assert seat_map(movement) == mitchell_rule(3, 3, 2)
    assert movement.layout.kind is MovementKind.MITCHELL


def test_a_howell_pair_seated_twice_is_named_at_its_line_not_renumbered():
    """A typo in a Howell (pair 7 also written as table 2's EW in round 1) is the checker's
    "already seated" at that line; the rows are not read as a Mitchell numbered 1..n."""
    lines = (BWS / "howell_5t_9r_3b_RoundData.csv").read_text("utf-8").splitlines()
    assert lines[2] == '1,2,1,5,2,4,6,""'  # line 3 of the file
    lines[2] = '1,2,1,5,7,4,6,""'
    try:
        parse_round_data("\n".join(lines) + "\n", "RoundData.csv")
    except RoundDataError as e:
        first = str(e).splitlines()[0]
        assert first == "RoundData.csv:3: pair 7 is already seated at table 1 in this round"
    else:
        raise AssertionError("pair 7 seated twice was accepted")


def test_an_event_file_names_a_roundData_as_its_movement(tmp_path):
    shutil.copy(BWS / "mitchell_3t_3r_2b_RoundData.csv", tmp_path / "RoundData.csv")
    (tmp_path / "event.toml").write_text(
        'schema_version = 1\n[event]\nname = "Club"\n[rules]\nscoring = "mp"\n'
        '[[sessions]]\nname = "Evening"\n[[sessions.sections]]\nletter = "A"\n'
        'movement = { round_data = "RoundData.csv" }\n'
        '[[sessions.sections.pairs]]\nnumber = 2\ndirection = "EW"\n'
        'players = [{ name = "Ingrid Kvist" }, { name = "Jan Lind" }]\n',
        encoding="utf-8",
    )
    out = run("event", "create", "--db", db(tmp_path), str(tmp_path / "event.toml"))
    assert out.exit_code == 0, out.output
    store = Store.open(db(tmp_path))
    try:
        assert seat_map(store.movement(1, "A")) == mitchell_rule(3, 3, 2)
        named = {c["number"]: c["players"][0]["name"] for c in store.contestants(1, "A")}
        assert named == {5: "Ingrid Kvist"}  # EW 2 is the hub's pair T + 2
    finally:
        store.close()


def test_the_event_file_route_names_the_key_and_the_line(tmp_path):
    (tmp_path / "RoundData.csv").write_text(HEADER + '1,1,1,1,4,1,2,""\n1,2,1,2,5,0,9,""\n')
    toml = (
        'schema_version = 1\n[event]\nname = "Club"\n[rules]\nscoring = "mp"\n'
        '[[sessions]]\nname = "Evening"\n[[sessions.sections]]\nletter = "A"\n'
        "movement = {movement}\n"
    )
    (tmp_path / "event.toml").write_text(toml.format(movement='{ round_data = "RoundData.csv" }'))
    out = run("event", "create", "--db", db(tmp_path), str(tmp_path / "event.toml"))
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert (
        "section A: movement.round_data RoundData.csv:3: LowBoard 0 and HighBoard 9" in out.output
    )
    (tmp_path / "event.toml").write_text(
        toml.format(movement='{ round_data = "RoundData.csv", kynd = "howell" }')
    )
    out = run("event", "create", "--db", db(tmp_path), str(tmp_path / "event.toml"))
    assert "sessions[0].sections[0].movement.kynd: unknown key; did you mean kind?" in out.output


def round_trip(tmp_path: Path, movement_toml: str, pairs_toml: str) -> None:
    """Create, export --bws, import --round-data --player-numbers: the same rows, layout
    kind, winners and arrow switches, and the same players."""
    (tmp_path / "event.toml").write_text(
        'schema_version = 1\n[event]\nname = "Club"\n[rules]\nscoring = "mp"\n'
        '[[sessions]]\nname = "Evening"\n[[sessions.sections]]\nletter = "A"\n'
        f"movement = {movement_toml}\n{pairs_toml}",
        encoding="utf-8",
    )
    url = db(tmp_path)
    assert run("event", "create", "--db", url, str(tmp_path / "event.toml")).exit_code == 0
    out = run("event", "export", "--db", url, "--event", "1", "--bws", str(tmp_path / "bws"))
    assert out.exit_code == 0, out.output
    out = run(
        "event", "import", "--db", url,
        "--round-data", str(tmp_path / "bws" / "RoundData.csv"),
        "--player-numbers", str(tmp_path / "bws" / "PlayerNumbers.csv"),
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    store = Store.open(url)
    try:
        first, back = store.movement(1, "A"), store.movement(2, "A")
        assert back.rows == first.rows
        for key in ("kind", "winners", "arrow_switch", "shares"):
            assert getattr(back.layout, key) == getattr(first.layout, key), key

        def players(eid: int) -> dict[int, list]:
            return {c["number"]: c["players"] for c in store.contestants(eid, "A")}

        assert players(2) == players(1)
    finally:
        store.close()


def test_export_then_import_gives_an_arrow_switched_mitchell_back(tmp_path):
    pairs = "".join(
        f'[[sessions.sections.pairs]]\nnumber = {n}\ndirection = "{d}"\n'
        f'players = [{{ name = "{d}{n} a", number = "{n}{len(d)}" }}, {{ name = "{d}{n} b" }}]\n'
        for d in ("NS", "EW")
        for n in (1, 2, 3, 4, 5)
    )
    spec = '{ kind = "mitchell", tables = 5, boards_per_round = 2, arrow_switch = true }'
    round_trip(tmp_path, spec, pairs)


def test_export_then_import_gives_a_howell_back(tmp_path):
    pairs = "".join(
        f"[[sessions.sections.pairs]]\nnumber = {n}\n"
        f'players = [{{ name = "P{n}" }}, {{ name = "Q{n}" }}]\n'
        for n in range(1, 9)
    )
    round_trip(tmp_path, '{ kind = "howell", tables = 4, boards_per_round = 2 }', pairs)


def test_two_sections_of_one_roundData_become_sections_a_and_b(tmp_path):
    """BWS section IDs 1 and 2 are sections A and B; each reads as its own movement."""
    one = (BWS / "mitchell_3t_3r_2b_RoundData.csv").read_text(encoding="utf-8").splitlines()
    two = [line.replace("1,", "2,", 1) for line in one[1:]]
    (tmp_path / "RoundData.csv").write_text("\n".join(one + two) + "\n", encoding="utf-8")
    out = run(
        "event", "import", "--db", db(tmp_path), "--round-data", str(tmp_path / "RoundData.csv")
    )
    assert out.exit_code == 0, out.output
    assert "sections A, B" in out.output
    store = Store.open(db(tmp_path))
    try:
        for letter in ("A", "B"):
            assert seat_map(store.movement(1, letter)) == mitchell_rule(3, 3, 2)
    finally:
        store.close()


def test_a_howell_named_a_mitchell_is_refused_never_ranked_as_two_fields(tmp_path):
    """A Howell's RoundData imported with --kind mitchell would rank every pair in a
    two-winner field of its own: refused, saying what the rows are not."""
    out = CliRunner().invoke(
        cli,
        [
            *("event", "import", "--db", f"sqlite:///{tmp_path / 'h.db'}"),
            *("--round-data", str(DATA / "bws" / "howell_5t_9r_3b_RoundData.csv")),
            *("--kind", "mitchell"),
        ],
    )
    assert out.exit_code == 1, out.output
    assert "the rows are not a Mitchell's" in out.output and "auto or howell" in out.output
