"""Mitchell numbering as TDs write it (issue 13, TD trial F16): NS 1-n and EW 1-n in the event
file (a ``direction`` key), labels "NS 3" / "EW 3" everywhere, one numbering in a Howell; a
pair the movement does not seat is refused at ``event create`` (TD trial F11)."""

from __future__ import annotations

import tomllib

import pytest

from hub.event.event_file import EventFileError, parse_event
from hub.event.movement.howell import howell
from hub.event.movement.mitchell import mitchell
from hub.event.pair_labels import PairLabels, PairNumberError
from hub.standings.rows import label_rows, pairs_rows
from hub.store.store import Store
from scoring.board_score import ScoreKind


def event(movement: str, pairs: str = "") -> str:
    return f"""schema_version = 1
[event]
name = "Club night"
[rules]
scoring = "mp"
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = {{ {movement} }}
{pairs}"""


def pair(number: int, direction: str | None = None, name: str = "Anna Berg") -> str:
    d = f'direction = "{direction}"\n' if direction else ""
    return (
        f"[[sessions.sections.pairs]]\nnumber = {number}\n{d}"
        f'players = [{{ name = "{name}" }}, {{ name = "Bo Ek" }}]\n'
    )


MITCHELL_7 = 'kind = "mitchell", tables = 7, boards_per_round = 2'
HOWELL_7 = 'kind = "howell", tables = 7, boards_per_round = 2'


def test_a_mitchell_numbers_ns_and_ew_from_1():
    """7 tables: NS t is pair t inside the hub, EW k is pair 7 + k (RoundData's numbering)."""
    labels = PairLabels.of(mitchell(7, 2), "A")
    assert labels.mitchell and labels.tables == 7
    assert [labels.label(p) for p in (1, 7, 8, 10, 14)] == ["NS 1", "NS 7", "EW 1", "EW 3", "EW 7"]
    assert labels.to_room(10) == ("EW", 3) and labels.to_room(3) == ("NS", 3)
    assert labels.from_room("EW", 3) == 10 and labels.from_room("NS", 3) == 3
    with pytest.raises(PairNumberError, match="no pair EW 8: its movement has NS 1-7 and EW 1-7"):
        labels.from_room("EW", 8)
    with pytest.raises(PairNumberError, match="say NS or EW for pair 3"):
        labels.from_room(None, 3)
    assert labels.label(0) == "-"


def test_a_13_pair_mitchell_has_no_ew_7():
    labels = PairLabels.of(mitchell(None, 2, pairs=13), "A")
    assert labels.describe() == "NS 1-7 and EW 1-6"
    with pytest.raises(PairNumberError, match="no pair EW 7"):
        labels.from_room("EW", 7)


def test_a_howell_has_one_numbering():
    labels = PairLabels.of(howell(7, 2, pairs=13), "A")
    assert not labels.mitchell
    assert labels.label(7) == "7" and labels.to_room(7) == (None, 7)
    assert labels.direction(7) is None
    assert labels.from_room(None, 13) == 13
    with pytest.raises(PairNumberError, match="no pair 14: its movement has pairs 1-13"):
        labels.from_room(None, 14)
    with pytest.raises(PairNumberError, match="numbers its pairs once"):
        labels.from_room("NS", 3)


def test_an_arrow_switched_round_maps_the_seat_to_the_pair_sitting_there():
    """In a switched round EW k sits in the NS seat; a terminal echoing its assignment sends
    k as ns_pair, which is that EW pair (7 + k), not NS k."""
    m = mitchell(7, 2, arrow_switch=True)
    labels = PairLabels.of(m, "A")
    assert labels.mitchell
    rnd, table = m.layout.arrow_switch[0]
    row = m.row("A", table, rnd)
    assert row is not None and row.ns_pair > 7  # the EW pair sits NS in this round
    k = row.ns_pair - 7
    assert labels.at_seat(table, rnd, True, k) == row.ns_pair
    assert labels.at_seat(table, rnd, False, row.ew_pair) == row.ew_pair


def test_the_event_file_says_the_direction_in_a_mitchell_and_not_in_a_howell():
    both = parse_event(event(MITCHELL_7, pair(3, "NS") + pair(3, "EW", "Cecilia Dahl")))
    assert [p.label for p in both.sessions[0].sections[0].pairs] == ["NS 3", "EW 3"]
    with pytest.raises(EventFileError) as e:
        parse_event(event(MITCHELL_7, pair(3)))
    assert (
        "pair 3: a Mitchell numbers NS 1-n and EW 1-n; say which this pair is with "
        'direction = "NS" or "EW"' in str(e.value)
    )
    with pytest.raises(EventFileError) as e:
        parse_event(event(HOWELL_7, pair(3, "EW")))
    assert "pair EW 3: a Howell numbers every pair once (1-n); remove direction" in str(e.value)
    with pytest.raises(EventFileError) as e:
        parse_event(event(MITCHELL_7, pair(3, "EW") + pair(3, "EW")))
    assert "pair EW 3 is listed twice" in str(e.value)
    with pytest.raises(EventFileError) as e:
        parse_event(event(MITCHELL_7, pair(3, "XY")))
    assert "sessions[0].sections[0].pairs[0].direction" in str(e.value)


def test_event_create_stores_ew_3_as_the_hubs_pair_10(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
    eid = store.create_event(event(MITCHELL_7, pair(3, "NS") + pair(3, "EW", "Cecilia Dahl")))
    names = {c["number"]: c["players"][0]["name"] for c in store.contestants(eid, "A")}
    assert names == {3: "Anna Berg", 10: "Cecilia Dahl"}
    store.close()


@pytest.mark.parametrize(
    ("movement", "pairs", "path", "message"),
    [
        (
            'kind = "mitchell", tables = 7, boards_per_round = 2',
            pair(1, "NS") + pair(8, "EW"),
            "sessions[0].sections[0].pairs[1]",
            "section A has no pair EW 8: its movement has NS 1-7 and EW 1-7",
        ),
        (
            'kind = "mitchell", pairs = 13, boards_per_round = 2',
            pair(7, "EW"),
            "sessions[0].sections[0].pairs[0]",
            "section A has no pair EW 7: its movement has NS 1-7 and EW 1-6",
        ),
        (
            'kind = "howell", tables = 7, boards_per_round = 2',
            pair(15),
            "sessions[0].sections[0].pairs[0]",
            "section A has no pair 15: its movement has pairs 1-14",
        ),
    ],
)
def test_event_create_refuses_a_pair_the_movement_does_not_seat(
    tmp_path, movement, pairs, path, message
):
    """TD trial F11: ``number = 15`` in a 14-pair movement was accepted and pair 14 lost its
    names; now the pair is named with what the movement has, and nothing is stored."""
    store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
    with pytest.raises(EventFileError) as e:
        store.create_event(event(movement, pairs), source="club.toml")
    assert (path, message) in e.value.problems
    assert store.event_ids() == []
    store.close()


def test_a_movement_file_mitchell_needs_directions_too(tmp_path):
    from hub.event.movement.csv_format import format_movement

    (tmp_path / "m.csv").write_text(format_movement(mitchell(7, 2)), "utf-8")
    text = event(MITCHELL_7, pair(3)).replace(
        "movement = { " + MITCHELL_7 + " }", 'movement = "m.csv"'
    )
    store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
    with pytest.raises(EventFileError) as e:
        store.create_event(text, base_dir=tmp_path)
    assert "say which this pair is with direction" in str(e.value)
    store.close()


def test_standings_rows_carry_the_label_and_list_the_ns_field_first():
    """Rows (hub/standings/rows.py) gain ``label``; a two-winner field is listed NS first
    whatever order the standings came in."""
    from fractions import Fraction

    from scoring.standings import PairKey, PairTotal, Standing
    from scoring.tie_break import Placed

    def standing(number: int, direction: str) -> Standing:
        key = PairKey(number, direction)
        return Standing(PairTotal(key, Fraction(11), 20, 2), Placed(key, 1, False))

    labels = PairLabels.of(mitchell(7, 2), "A")
    rows = pairs_rows(
        {"EW": [standing(10, "EW")], "NS": [standing(3, "NS")]},
        ScoreKind.MATCHPOINTS,
        {10: "Cecilia Dahl & Dan Ek"},
        labels,
    )
    assert [(r["label"], r["direction"]) for r in rows] == [("NS 3", "NS"), ("EW 3", "EW")]
    assert rows[1]["name"] == "Cecilia Dahl & Dan Ek"
    unlabelled = [{**r, "label": None} for r in reversed(rows)]
    assert [r["label"] for r in label_rows(unlabelled, labels)] == ["NS 3", "EW 3"]


def test_a_bad_date_does_not_hide_a_pair_the_movement_does_not_seat():
    """TD trial F22: a date written "1/12/2026" hid the unknown pair number until the date
    was fixed. A 13-pair Mitchell (7 tables) has NS 1-7 and EW 1-6 (EW 7 is the sit-out), so
    both mistakes are in the one report; a pair listed twice keeps its own message."""
    text = event('kind = "mitchell", pairs = 13, boards_per_round = 2', pair(7, "EW")).replace(
        'name = "Evening"', 'name = "Evening"\ndate = "1/12/2026"'
    )
    with pytest.raises(EventFileError) as e:
        parse_event(text)
    paths = [path for path, _ in e.value.problems]
    assert paths[0] == "sessions[0].date"
    assert (
        "sessions[0].sections[0].pairs[0]",
        "section A has no pair EW 7: its movement has NS 1-7 and EW 1-6",
    ) in e.value.problems
    unnamed = text + '[[sessions.sections.pairs]]\nnumber = 2\ndirection = "NS"\nplayers = [{}]\n'
    with pytest.raises(EventFileError) as e:
        parse_event(unnamed)
    paths = [path for path, _ in e.value.problems]
    assert "sessions[0].sections[0].pairs[1].players[0].name" in paths
    assert "sessions[0].sections[0].pairs[0]" in paths  # EW 7, not hidden by the name
    twice = text.replace("number = 7", "number = 9") + pair(9, "EW")
    with pytest.raises(EventFileError) as e:
        parse_event(twice)
    assert ("sessions[0].sections[0].pairs", "pair EW 9 is listed twice") in e.value.problems


@pytest.mark.parametrize(
    "movement",
    [
        'kind = "mitchell", pairs = 13, boards_per_round = 2',
        'kind = "mitchell", tables = 8, pairs = 15, boards_per_round = 2, variant = "relay"',
        'kind = "mitchell", tables = 4, boards_per_round = 2, arrow_switch = true',
        'kind = "howell", pairs = 13, boards_per_round = 2',
        'kind = "howell", tables = 5, boards_per_round = 2',
        'kind = "barometer", pairs = 11, boards_per_round = 2',
    ],
)
def test_the_early_pair_check_says_what_event_create_says(tmp_path, movement):
    """The parse-time check (hub/event/pair_ranges.py, arithmetic on the raw file) and
    ``event create``'s (the built movement's PairLabels) name the same pairs in the same
    words: the first number past each field's end is refused, the last one is not."""
    from hub.event.movement.build import build_movement
    from hub.event.pair_labels import check_pairs
    from hub.event.pair_ranges import unseated_pairs

    parsed = parse_event(event(movement))
    spec = parsed.sessions[0].sections[0].movement
    built = build_movement(spec, "A")
    labels = PairLabels.of(built, "A")
    fields = ("NS", "EW") if labels.mitchell else (None,)
    listed = []
    for d in fields:
        top = max(labels.to_room(p)[1] for p in labels.pairs if labels.direction(p) == d)
        listed += [pair(top, d), pair(top + 1, d)]
    data = tomllib.loads(event(movement, "".join(listed)))
    early = unseated_pairs(data)
    pairs = parse_event(event(movement, "".join(listed))).sessions[0].sections[0].pairs
    late = check_pairs(pairs, labels, built.layout.kind.value)
    assert early == [(f"sessions[0].sections[0].pairs[{i}]", why) for i, why in late]
    assert len(early) == len(fields)


def test_event_create_names_the_section_whose_movement_cannot_be_made(tmp_path):
    """Review R3: `event create` said only "a 8-table Mitchell seats 15 or 16 pairs, not 13"
    (which section? and "a 8"). 8 tables seat 2 x 8 − 1 = 15 or 16 pairs; nothing stored."""
    from hub.event.movement.model import MovementError

    store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
    with pytest.raises(MovementError) as e:
        store.create_event(event('kind = "mitchell", tables = 8, pairs = 13, boards_per_round = 2'))
    assert e.value.message == "section A: a Mitchell on 8 tables seats 15 or 16 pairs, not 13"
    assert store.event_ids() == []
    store.close()


def test_event_create_names_the_movement_file_that_cannot_be_read(tmp_path):
    """Review R3: a broken movement file was reported as "line 1: missing column(s) …"
    with neither the section nor the file named."""
    from hub.event.movement.model import MovementError

    (tmp_path / "club.csv").write_text("section,table,round,ns_pair\nA,1,1,1\n", "utf-8")
    text = event(MITCHELL_7).replace("movement = { " + MITCHELL_7 + " }", 'movement = "club.csv"')
    store = Store.open(f"sqlite:///{tmp_path / 'e.db'}")
    with pytest.raises(MovementError) as e:
        store.create_event(text, base_dir=tmp_path)
    assert e.value.message.startswith("section A: movement file club.csv: line 1: missing column")
    assert store.event_ids() == []
    store.close()
