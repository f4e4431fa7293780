"""Issue 16 [TEAMS] "Event-file keys": ``[rules.teams]`` sets what the scoring library knows
but no event could set before — late joiners' assigned VPs (seeds 000, 001, 002), byes, a VP
scale per stage, carry-over (seed 000's fixed IMPs, seed 001's 0.1 IMP to the higher seed and
1/3 of the earlier VPs) — and the live view and the batch rebuild apply them alike. A wrong
key is refused naming its path (decisions D2).

VPs come from an illustrative table (not official): a draw 10-10, 1-5 IMPs 12-8, 6 or more
15-5. One board a round; a board's open-room NS score against 0 in the closed room gives the
home team 470 points (10 IMPs) or 100 (3 IMPs).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from hub.event.event_file import EventFileError, parse_event
from hub.event.movement.build import build_movement
from hub.event.movement.model import Layout, Movement, MovementKind
from hub.event.movement.teams import team_round
from hub.live.views import TeamsLive
from hub.standings.rebuild import teams_view
from hub.standings.rows import boards_played, teams_rows
from hub.store.store import LiveLine
from scoring.errors import ScoringInputError

ILLUSTRATIVE = """# illustrative, not official
boards,imps_from,imps_to,winner,loser
*,0,0,10,10
*,1,5,12,8
*,6,,15,5
"""
WINNER_TAKES_ALL = """# illustrative, not official
boards,imps_from,imps_to,winner,loser
*,0,0,10,10
*,1,,20,0
"""


@pytest.fixture
def scales(tmp_path):
    out = {}
    for name, text in (("usual", ILLUSTRATIVE), ("late", WINNER_TAKES_ALL)):
        path = tmp_path / f"{name}.csv"
        path.write_text(text)
        out[name] = str(path)
    return out


def event(scale: str, teams: int, rules: str = "", movement: str = "") -> object:
    movement = movement or f'{{ kind = "teams", teams = {teams}, boards_per_round = 1 }}'
    listed = ", ".join(f'{{ number = {t}, name = "T{t}" }}' for t in range(1, teams + 1))
    return parse_event(
        f"""schema_version = 1
[event]
name = "Teams"
[rules]
scoring = "teams"
vp_scale = '{scale}'
tie_breaks = ["imp_quotient"]
{rules}
[[sessions]]
name = "Day"
[[sessions.sections]]
letter = "A"
movement = {movement}
teams = [{listed}]
"""
    )


def scored(ev, movement: Movement, played: list[tuple[int, int, int]]) -> dict[int, str]:
    """Each team's VP total (exact, as text) after ``played`` (table, round, open-room NS
    score; the closed room scores 0 on the board), live and rebuilt alike."""
    lines = []
    for table, rnd, score in played:
        for t, s in ((table, score), (table + 1, 0)):
            row = movement.row("A", t, rnd)
            board = row.boards[0]
            lines.append(
                LiveLine("A", t, rnd, board, row.ns_pair, row.ew_pair, *[None] * 3, s, None)
            )
    live = TeamsLive(ev, "A", movement, {})
    for line in lines:
        live.put(line)
    view = teams_view(ev, "A", movement, lines)
    assert live.rows() == teams_rows(view.team_standings, boards_played(view.matches), {})
    return {r["team"]: r["total"] for r in live.rows()}


def joiners_movement() -> Movement:
    """Six teams; 5 and 6 join in round 2. Round 1: 1 v 2 (tables 1-2), 3 v 4 (3-4);
    round 2: 1 v 3, 2 v 4, 5 v 6."""
    rows = team_round("A", 1, [(1, 2), (3, 4)], (1,))
    rows += team_round("A", 2, [(1, 3), (2, 4), (5, 6)], (2,))
    layout = Layout(MovementKind.TEAMS, copies=3, matches=((1, 2), (3, 4), (5, 6)))
    return Movement(tuple(rows), layout)


@pytest.mark.parametrize(
    ("rule", "assigned"),
    [
        ("vp_of_position = 2", "12"),  # seed 000 (its 4th place): the 2nd of 15, 12, 8, 5
        ("average_of_positions = [3, 4]", "13/2"),  # seed 001: (8 + 5) / 2
        ("fixed_vp = 30", "30"),  # seed 002, Chairman's Cup from round 3: exactly 30 VP
        ("vp_per_missed_round = 16", "16"),  # seed 002, SM Lag Veteran: 16 VP a round missed
    ],
)
def test_late_joiners_get_the_seeds_assigned_vps_after_the_round_before(scales, rule, assigned):
    """Round 1: team 1 beats 2 by 10 IMPs (15-5), team 3 beats 4 by 3 (12-8). Teams 5 and
    6, joining in round 2, get their rule's VPs as soon as round 1 is scored, and have no
    bye in round 1."""
    ev = event(scales["usual"], 6, f"[[rules.teams.late_joiners]]\nteams = [5, 6]\n"
               f"first_round = 2\n{rule}\n")  # fmt: skip
    m = joiners_movement()
    assert scored(ev, m, []) == {}
    totals = scored(ev, m, [(1, 1, 470), (3, 1, 100)])
    assert totals == {1: "15", 2: "5", 3: "12", 4: "8", 5: assigned, 6: assigned}


def test_bye_in_an_odd_round_robin_scores_the_events_fixed_vp(scales):
    """Three teams, round robin (Berger with a bye): round 1 is 2 v 3 (tables 3-4), team 1
    has the bye; round 2 is 1 v 2 (tables 1-2), team 3 has the bye. ``bye = { vp = 12 }``:
    a bye counts once its round is under way."""
    ev = event(scales["usual"], 3, "[rules.teams.bye]\nvp = 12\n")
    m = build_movement(ev.sessions[0].sections[0].movement, "A")
    assert scored(ev, m, [(3, 1, 470)]) == {2: "15", 1: "12", 3: "5"}
    assert scored(ev, m, [(3, 1, 470), (1, 2, 100)]) == {1: "24", 2: "23", 3: "17"}


@pytest.mark.parametrize(
    ("bye", "after_two"),
    [
        ('rule = "own_average"', {1: "24", 2: "23", 3: "10"}),  # 12 (1's average), 5 (3's)
        ('rule = "higher"\nvp = 10', {1: "24", 2: "23", 3: "15"}),  # max(10, 12), max(10, 5)
    ],
)
def test_bye_worth_the_teams_own_average(scales, bye, after_two):
    """Seed 002's rule for a bye in a qualifier of several rounds (pairs): scored on the
    whole event ("beräknas på det totala antalet ronder"), i.e. the team's own average VP
    over its matches. Team 1 (bye in round 1) won 12-8 in round 2; team 3 (bye in round 2)
    lost 5-15 in round 1."""
    ev = event(scales["usual"], 3, f"[rules.teams.bye]\n{bye}\n")
    m = build_movement(ev.sessions[0].sections[0].movement, "A")
    assert scored(ev, m, [(3, 1, 470), (1, 2, 100)]) == after_two


def test_vp_scale_per_stage(scales):
    """Round 1 on the event's scale, round 2 on another: team 1's 3-IMP win in round 2
    is 20-0 there, not 12-8."""
    stage = f"[[rules.teams.vp_scales]]\nfrom_round = 2\nscale = '{scales['late']}'\n"
    ev = event(scales["usual"], 3, stage)
    m = build_movement(ev.sessions[0].sections[0].movement, "A")
    assert scored(ev, m, [(3, 1, 470), (1, 2, 100)]) == {1: "20", 2: "15", 3: "5"}


def test_seed001_a_tenth_of_an_imp_to_the_higher_seed_decides_a_drawn_match(scales):
    """Seed 001 knock-out: "Carry over ... is 0.1 imp for the team higher placed in
    Qualification Swiss". Team 4 (seeded first) and team 1 push the only board: 10-10 VP
    (0.1 rounds to no IMP, decisions D5), but team 4's IMP quotient (0.1 won, none lost)
    puts it first."""
    co = "[rules.teams.carry_over]\nhigher_seed_imps = 0.1\nseeding = [4, 3, 2, 1]\n"
    ev = event(scales["usual"], 4, co)
    m = build_movement(ev.sessions[0].sections[0].movement, "A")
    lines = [LiveLine("A", t, 1, 1, r.ns_pair, r.ew_pair, *[None] * 3, 420, None)
             for t in (1, 2) for r in [m.row("A", t, 1)]]  # fmt: skip
    view = teams_view(ev, "A", m, lines)
    (match,) = view.matches
    assert (match.home, match.away, match.result.away_carry_over) == (1, 4, Fraction(1, 10))
    assert (match.result.home_vp, match.result.away_vp) == (10, 10)
    assert [(s.record.team, s.rank) for s in view.team_standings] == [(4, "1"), (1, "2")]


def test_seed000_fixed_imp_carry_over(scales):
    """Seed 000: a bye to the final "with a 6.5 IMP carryover". Team 1 starts round 1's
    match 6.5 IMPs up; one board pushed: a margin of 6.5, rounded to 7 (decisions D5,
    halves away from zero when total points are level): 15-5."""
    co = "[[rules.teams.carry_over.fixed_imps]]\nteam = 1\nimps = 6.5\n"
    ev = event(scales["usual"], 4, co)
    m = build_movement(ev.sessions[0].sections[0].movement, "A")
    assert scored(ev, m, [(1, 1, 0)]) == {1: "15", 4: "5"}


def test_seed001_a_third_of_the_earlier_vps_is_carried_from_the_start(scales):
    """Seed 001, Swiss for the 3rd place: "Carry over is 1/3 of VP from the Qualification
    Swiss". Team 2 had 30 VP, team 3 20.5: they start on 10 and 41/6."""
    co = (
        '[rules.teams.carry_over]\nvp_fraction = "1/3"\n'
        "earlier_vp = [{ team = 2, vp = 30 }, { team = 3, vp = 20.5 }]\n"
    )
    ev = event(scales["usual"], 4, co)
    m = build_movement(ev.sessions[0].sections[0].movement, "A")
    assert scored(ev, m, []) == {2: "10", 3: "41/6"}


@pytest.mark.parametrize(
    ("rules", "path", "reason"),
    [
        (
            "[[rules.teams.late_joiners]]\nteams = [5]\nfirst_round = 3\nfixed_vp = 30\n"
            "vp_of_position = 4\n",
            "rules.teams.late_joiners[0]",
            "give exactly one of vp_of_position, average_of_positions, fixed_vp",
        ),
        ("[rules.teams.bye]\nvpp = 12\n", "rules.teams.bye.vpp", "unknown key; did you mean vp?"),
        (
            '[rules.teams.carry_over]\nvp_fraction = "1/0"\nearlier_vp = [{ team = 1, vp = 3 }]\n',
            "rules.teams.carry_over.vp_fraction",
            "'1/0' is not an amount",
        ),
        (
            "[[rules.teams.vp_scales]]\nfrom_round = 1\nscale = 'wbf_continuous_20'\n"
            "[[rules.teams.vp_scales]]\nfrom_round = 3\nscale = 'wbf_discrete_20'\n",
            "rules.teams",
            "vp_scales: the stage from round 1 overlaps the one from round 3",
        ),
        (
            "[[rules.teams.vp_scales]]\nfrom_round = 2\nscale = 'imp_25'\n",
            "rules.teams.vp_scales[0].scale",
            "'imp_25' is neither wbf_continuous_20",
        ),
        (
            "[rules.teams.carry_over]\nhigher_seed_imps = 0.1\n",
            "rules.teams.carry_over",
            "higher_seed_imps needs seeding",
        ),
    ],
)
def test_a_wrong_key_is_refused_naming_its_path(rules, path, reason):
    with pytest.raises(EventFileError) as e:
        event("wbf_continuous_20", 4, rules)
    assert f"{path}: " in str(e.value) and reason in str(e.value)


def drawn_movement(drawn: int, second: tuple[int, int] | None) -> Movement:
    """Three teams drawn while the event runs (a Monrad): round 1 is 1 v 2; round 2 waits
    for its draw (empty rows) until ``second`` is published."""
    rows = team_round("A", 1, [(1, 2)], (1,))
    rows += team_round("A", 2, [second or (0, 0)], (2,) if second else ())
    layout = Layout(MovementKind.TEAMS, matches=((1, 2),), draw="monrad", drawn=drawn)
    return Movement(tuple(rows), layout)


def test_bye_in_a_drawn_event_only_in_rounds_drawn(scales):
    """A drawn event: a team with no match in a round already drawn has a bye (team 3 in
    round 1); a round not yet drawn gives nobody a bye. When round 2 (2 v 3) is published
    the live view follows it: team 1's bye there counts once round 2 is under way."""
    ev = event(scales["usual"], 3, "[rules.teams.bye]\nvp = 12\n")
    first = drawn_movement(1, None)
    assert scored(ev, first, [(1, 1, 470)]) == {1: "15", 3: "12", 2: "5"}
    live = TeamsLive(ev, "A", first, {})
    row = first.row("A", 1, 1)
    for t, s in ((1, 470), (2, 0)):
        live.put(LiveLine("A", t, 1, 1, *(row.ns_pair, row.ew_pair)[:: 1 if t == 1 else -1],
                          None, None, None, s, None))  # fmt: skip
    second = drawn_movement(2, (2, 3))
    live.follow(second)
    assert {r["team"]: r["total"] for r in live.rows()} == {1: "15", 3: "12", 2: "5"}
    for t, s in ((1, 100), (2, 0)):
        r2 = second.row("A", t, 2)
        live.put(LiveLine("A", t, 2, 2, r2.ns_pair, r2.ew_pair, None, None, None, s, None))
    assert {r["team"]: r["total"] for r in live.rows()} == {1: "27", 2: "17", 3: "20"}
    assert live.bye_vp(1, 2) == 12 and live.vp_adjustments() == {}
    assert scored(ev, second, [(1, 1, 470), (1, 2, 100)]) == {1: "27", 3: "20", 2: "17"}


def test_a_stage_scale_that_cannot_be_read_stops_the_section_before_play(scales):
    """A missing stage table is named with its key when the section's scoring is built,
    never in the middle of a match."""
    stage = "[[rules.teams.vp_scales]]\nfrom_round = 2\nscale = '/no/such/table.csv'\n"
    ev = event(scales["usual"], 3, stage)
    m = build_movement(ev.sessions[0].sections[0].movement, "A")
    with pytest.raises(ScoringInputError) as e:
        TeamsLive(ev, "A", m, {})
    assert e.value.field == "rules.teams.vp_scales[0].scale"
    assert "/no/such/table.csv" in e.value.message


def test_seed000_two_batches_of_joiners_the_second_placed_on_a_field_with_the_first(scales):
    """Seed 000's Swiss plate: four teams join in round 4 on the 4th position's VP after
    round 3, four more in round 6 on the 4th position's VP after round 5 — by then the first
    joiners are in the field with their own assigned VPs. Here: 5 and 6 join in round 2, 7
    and 8 in round 3, each on the 4th position's VP.

    Round 1: 1 beats 2 by 10 IMPs (15-5), 3 beats 4 by 3 (12-8): 4th is 5 VP, so 5 and 6
    start on 5. Round 2: 1 beats 3 by 10 (15-5), 2 beats 4 by 3 (12-8), 5 and 6 draw (10-10):
    1 30, 2 17, 3 17, 4 16, 5 15, 6 15; the 4th is 16 VP, so 7 and 8 start on 16."""
    rules = (
        "[[rules.teams.late_joiners]]\nteams = [5, 6]\nfirst_round = 2\nvp_of_position = 4\n"
        "[[rules.teams.late_joiners]]\nteams = [7, 8]\nfirst_round = 3\nvp_of_position = 4\n"
    )
    ev = event(scales["usual"], 8, rules)
    rows = team_round("A", 1, [(1, 2), (3, 4)], (1,))
    rows += team_round("A", 2, [(1, 3), (2, 4), (5, 6)], (2,))
    rows += team_round("A", 3, [(1, 5), (3, 6), (2, 4), (7, 8)], (3,))
    layout = Layout(MovementKind.TEAMS, copies=4, matches=((1, 2), (3, 4), (5, 6), (7, 8)))
    m = Movement(tuple(rows), layout)
    after_one = scored(ev, m, [(1, 1, 470), (3, 1, 100)])
    assert after_one == {1: "15", 3: "12", 4: "8", 2: "5", 5: "5", 6: "5"}
    after_two = scored(ev, m, [(1, 1, 470), (3, 1, 100), (1, 2, 470), (3, 2, 100), (5, 2, 0)])
    assert after_two == {1: "30", 2: "17", 3: "17", 4: "16", 5: "15", 6: "15", 7: "16", 8: "16"}
