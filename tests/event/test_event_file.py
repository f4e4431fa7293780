"""The event file (decisions D2): TOML, schema_version 1, errors that name the key path."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from hub.event.event_file import EventFileError, parse_event
from scoring.cross_imps import CrossImpRules
from scoring.matchpoints import AdjustedMethod, MatchpointRules
from scoring.penalties import PenaltyUnit

EXAMPLE = (Path(__file__).parents[2] / "examples" / "club_howell.toml").read_text("utf-8")


def problems(text):
    with pytest.raises(EventFileError) as e:
        parse_event(text)
    return e.value.problems


def test_the_example_event_reads_into_rules_the_scoring_engine_uses():
    event = parse_event(EXAMPLE)
    rules = event.pairs_rules()
    assert isinstance(rules, MatchpointRules) and rules.method is AdjustedMethod.NEUBERG
    scale = event.penalty_scale("slow_play")
    assert scale.penalty(6).amount == Fraction(3, 2) and scale.penalty(6).unit is PenaltyUnit.VP
    assert event.rules.display.hide_rankings_last_rounds == 2
    assert event.sessions[0].sections[0].movement.kind == "howell"


@pytest.mark.parametrize(
    ("change", "path", "reason"),
    [
        (
            ("up_to_minutes = 10", "to_minutes = 10"),
            "rules.slow_play.steps[1].to_minutes",
            "unknown key",
        ),
        (
            ("above_minutes = 5,", "above_minutes = 6,"),
            "rules.slow_play.steps[1].above_minutes",
            "bands must follow on without gaps; expected 5",
        ),
        (('scoring = "mp"', 'scoring = "chess"'), "rules.scoring", "Input should be"),
        (
            ("tie_breaks = []", 'tie_breaks = ["coin"]'),
            "rules.tie_breaks",
            "'coin', is not a tie-break for mp scoring",
        ),
        (('letter = "A"', 'letter = "a"'), "sessions[0].sections[0].letter", "should match"),
        (
            ("tables = 5, boards_per_round = 3", "tables = 5"),
            "sessions[0].sections[0].movement.boards_per_round",
            "required",
        ),
        (
            ("schema_version = 1", "schema_version = 2"),
            "schema_version",
            "reads schema_version 1, not 2",
        ),
        (
            ('name = "Anna Berg"', 'nam = "Anna Berg"'),
            "sessions[0].sections[0].pairs[0].players[0].nam",
            "unknown key",
        ),
        (
            ("number = 2\n", "number = 1\n"),
            "sessions[0].sections[0].pairs",
            "pair 1 is listed twice",
        ),
    ],
)
def test_errors_name_the_key_path_and_the_reason(change, path, reason):
    found = problems(EXAMPLE.replace(*change))
    assert any(p == path and reason in r for p, r in found), found


def test_not_toml_at_all():
    assert problems("schema_version = = 1")[0][0] == "(file)"


def test_cross_imp_event_with_a_cap():
    text = EXAMPLE.replace('scoring = "mp"', 'scoring = "ximp"').replace(
        "tie_breaks = []", "tie_breaks = []\n\n[rules.cross_imps]\ncap = 17"
    )
    rules = parse_event(text).pairs_rules()
    assert isinstance(rules, CrossImpRules) and rules.cap == 17


def test_error_text_lists_every_problem_with_the_source():
    with pytest.raises(EventFileError) as e:
        parse_event(
            EXAMPLE.replace('scoring = "mp"', 'scoring = "mp"\nfoo = 1').replace(
                'letter = "A"', 'letter = "a"'
            ),
            "club.toml",
        )
    text = str(e.value)
    assert "club.toml: rules.foo: unknown key" in text
    assert "club.toml: sessions[0].sections[0].letter" in text


def test_a_problem_at_many_keys_is_reported_once_with_them():
    """Issue [TRUST]: fourteen pairs with the same mistake give one line naming all of them,
    not fourteen copies of the reason; other problems keep their own lines."""
    pairs = "".join(
        f'[[sessions.sections.pairs]]\nnumber = {n}\nplayers = [{{ nmae = "P{n}" }}]\n'
        for n in range(3, 17)
    )
    text = EXAMPLE.replace("minutes_per_board", "minutes_per_bord") + pairs
    found = problems(text)
    assert ("rules.timing.minutes_per_bord", "unknown key; did you mean minutes_per_board?") in (
        found
    )
    grouped = [p for p in found if "nmae" in p[0]]
    assert grouped == [
        ("sessions[0].sections[0].pairs[2-15].players[0].nmae", "unknown key; did you mean name?")
    ]
    assert [p for p in found if p[0].endswith(".name")] == [
        (  # [MENDS] #25: a member number alone is named from the club roster
            "sessions[0].sections[0].pairs[2-15].players[0].name",
            "required (or the member number, named from the club roster)",
        )
    ]


def test_key_report_keeps_distinct_indices_apart():
    from hub.event.problems import file_report, key_report, number_ranges

    assert number_ranges([9, 3, 4, 5, 3]) == "3-5, 9"
    assert number_ranges(range(1, 60, 2)).endswith(", … (30 lines)")
    assert key_report([("a[1].b", "x"), ("a[2].b", "y"), ("a[3].b", "x")]) == [
        ("a[1, 3].b", "x"),
        ("a[2].b", "y"),
    ]
    assert file_report("f.csv", [(2, "bad"), (3, "bad"), (4, "other"), (0, "empty")]) == (
        "f.csv: lines 2-3: bad\nf.csv:4: other\nf.csv: empty"
    )


VP_TABLE = "boards,imps_from,imps_to,winner,loser\n8,0,2,10,10\n8,3,,12,8\n"


def test_a_vp_table_is_found_beside_the_event_file_not_in_the_working_directory(
    tmp_path, monkeypatch
):
    """Issue [TRUST]: `vp_scale = "tables/club_vp.csv"` is relative to the event file (like its
    movement files and hand records); the store keeps where it is, so a hub started from
    any directory scores with it. Before the fix it was looked up in the working directory."""
    from hub.event.vp_table_file import load_scale
    from hub.store.store import Store
    from scoring.vp_scale import parse_vp_table

    club = tmp_path / "club"
    (club / "tables").mkdir(parents=True)
    (club / "tables" / "club_vp.csv").write_text(VP_TABLE, "utf-8")
    text = EXAMPLE.replace('scoring = "mp"', 'scoring = "mp"\nvp_scale = "tables/club_vp.csv"')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    try:
        eid = store.create_event(text, base_dir=club)
        stored = store.event(eid).rules.vp_scale
        assert Path(stored) == (club / "tables" / "club_vp.csv").resolve()
        scale = load_scale(stored)
        assert scale.lookup(8, 3) == parse_vp_table(VP_TABLE).lookup(8, 3)
        missing = text.replace("tables/club_vp.csv", "tables/none.csv")
        with pytest.raises(EventFileError, match=r"rules.vp_scale: cannot read the VP table"):
            store.create_event(missing, base_dir=club)
    finally:
        store.close()
