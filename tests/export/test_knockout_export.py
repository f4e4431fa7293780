"""A knockout in the exports (issue [KNOCKOUT]): seed 003's single elimination of 8 teams
played by the hub (tests/knockout_room.py), written as USEBIO and PBN from its store.

USEBIO: each team's ``PLACE`` its final place (the quarter-final losers' shared 5-8 as 5
on each, as USEBIO repeats a shared place), no VP ``TOTAL_SCORE``, and a ``MATCH`` per
bracket match (our naming: docs/exports.md). PBN: the ``TotalScoreTable`` by the final
places, its matches not expressible (docs/exports.md); the boards' IMPs as for teams.

The scores by hand (tests/knockout_room.py): a match's first board is won by 10 IMPs at
boards 1-4 (none or EW vulnerable for the winner's NS: +420 and −50 = 470 → 10) and by
12 IMPs at boards 5-8 (+620 and −100 = 720 → 12); the second board pushed. QF-2 (4 v 5) is
level 0–0, then team 5 wins the extra set (boards 3-4) 0–10.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from knockout_room import KoRoom, ko_event, run_ko_room

from hub.export.pbn import write_pbn
from hub.export.usebio import write_usebio
from hub.store.store import Store


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[ET.Element, str]:
    """The knockout played through (QF-2 after an extra set, then SF, final and third
    place), then exported: the USEBIO root and the PBN text."""
    tmp = tmp_path_factory.mktemp("ko_export")

    async def scenario(room: KoRoom) -> None:
        await room.play({4: "level"})
        await room.play({4: "away"})
        await room.play({})
        await room.play({})

    run_ko_room(tmp, ko_event(8, 'publish = "at_once"'), scenario)
    store = Store.open(f"sqlite:///{tmp / 'ko.db'}")
    try:
        usebio = write_usebio(store, 1, tmp / "ko.xml")
        pbn = write_pbn(store, 1, tmp / "ko.pbn")
    finally:
        store.close()
    return ET.parse(usebio).getroot(), pbn.read_text(encoding="utf-8")


def _text(el: ET.Element, tag: str) -> str | None:
    found = el.find(tag)
    return None if found is None else found.text


def test_usebio_places_every_team_by_the_bracket_and_gives_no_vp_total(exported):
    """§13.2: 1, 2, then 5 and 3 from the match for third place; 4, 6, 7 and 8 share 5-8
    (each PLACE 5), in seeding order. A knockout has no VPs: no TOTAL_SCORE."""
    root, _ = exported
    teams = root.findall("EVENT/PARTICIPANTS/TEAM")
    assert [(_text(t, "TEAM_NUMBER"), _text(t, "PLACE")) for t in teams] == [
        ("1", "1"), ("2", "2"), ("5", "3"), ("3", "4"),
        ("4", "5"), ("6", "5"), ("7", "5"), ("8", "5"),
    ]  # fmt: skip
    assert all(t.find("TOTAL_SCORE") is None for t in teams)
    assert _text(teams[0], "TEAM_NAME") == "Team 1"


def test_usebio_has_each_match_with_its_segments_imps_winner_and_how_decided(exported):
    """By hand (module docstring): QF-1 10–0 on IMPs; QF-2 segment 1 0–0, segment 2 (the
    extra set) 0–10, team 5 after the extra set; the final 12–0 to team 1."""
    root, _ = exported
    matches = {_text(m, "MATCH_ID"): m for m in root.findall("EVENT/MATCH")}
    assert list(matches) == ["QF-1", "QF-2", "QF-3", "QF-4", "SF-1", "SF-2", "F", "3rd"]

    def summary(name: str) -> tuple:
        m = matches[name]
        segments = [
            (_text(s, "SEGMENT_NUMBER"), _text(s, "HOME_IMPS"), _text(s, "AWAY_IMPS"))
            for s in m.findall("SEGMENT")
        ]
        tags = ("ROUND", "HOME_TEAM_NUMBER", "AWAY_TEAM_NUMBER", "HOME_CARRY_OVER",
                "HOME_IMPS", "AWAY_IMPS", "WINNER_TEAM_NUMBER", "DECIDED_BY")  # fmt: skip
        return (*(_text(m, t) for t in tags), segments)

    assert summary("QF-1") == ("QF", "1", "8", "0", "10", "0", "1", "imps", [("1", "10", "0")])
    assert summary("QF-2") == (
        "QF", "4", "5", "0", "0", "10", "5", "extra_set", [("1", "0", "0"), ("2", "0", "10")],
    )  # fmt: skip
    assert summary("F") == ("F", "1", "2", "0", "12", "0", "1", "imps", [("1", "12", "0")])
    assert summary("3rd")[1:3] == ("5", "3")
    assert root.find("EVENT/MATCH/VICTORY_POINTS") is None


def test_usebio_keeps_the_boards_travellers(exported):
    """The travellers stay as for any teams event: board 1 at all eight tables."""
    root, _ = exported
    board1 = next(b for b in root.findall("EVENT/BOARD") if _text(b, "BOARD_NUMBER") == "1")
    assert len(board1.findall("TRAVELLER_LINE")) == 8


def _table(pbn: str, name: str) -> tuple[str, list[list[str]]]:
    """The first table ``name`` of the file: its header and its rows split at spaces
    (a quoted name kept whole)."""
    lines = pbn.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"[{name} "))
    rows = []
    for line in lines[start + 1 :]:
        if not line or line.startswith("["):
            break
        head, _, quoted = line.partition('"')
        rows.append([*head.split(), *([quoted.rstrip('"')] if quoted else [])])
    return lines[start], rows


def test_pbn_total_table_ranks_by_the_final_places_without_vps(exported):
    """PBN 2.1 §5.10: ``Rank`` the best place of a tie (5-8 → 5), no TotalVP/TotalIMP."""
    _, pbn = exported
    header, rows = _table(pbn, "TotalScoreTable")
    assert "TotalVP" not in header and "TotalIMP" not in header
    assert rows == [
        ["1", "1", "Team 1"], ["2", "2", "Team 2"], ["3", "5", "Team 5"], ["4", "3", "Team 3"],
        ["5", "4", "Team 4"], ["5", "6", "Team 6"], ["5", "7", "Team 7"], ["5", "8", "Team 8"],
    ]  # fmt: skip


def test_pbn_board_3_carries_the_extra_sets_imps(exported):
    """Board 3 is only the extra set of QF-2 (tables 3-4, round 2): team 5 at NS in the
    closed room makes +420, team 4 at NS in the open room −50: 10 IMPs each way."""
    _, pbn = exported
    game = pbn[pbn.index('[Board "3"]') :]
    _, rows = _table(game, "ScoreTable")
    assert [(r[0], r[1], r[2], r[3], r[-2], r[-1]) for r in rows] == [
        ("3", "2", "4", "5", "-10", "10"),
        ("4", "2", "5", "4", "10", "-10"),
    ]
