"""Issue 16 [TEAMS]: with everything a team event can set — matches in two segments, an odd
field (a bye every round), a bye award, a VP scale per stage, carry-over to the higher seed
and from an earlier stage, a late joiner — and the director's VP and IMP penalties, the live
standings equal a full rebuild of the store after every step (the architecture: the store
is the truth), and a restarted hub says the same."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule, run_state_machine_as_test
from live_against_rebuild import STATEFUL, TeamsMachine

from hub.standings.rebuild import teams_view
from hub.store.store import Store

EVERYTHING = """schema_version = 1
[event]
name = "Five teams in halves"
[rules]
scoring = "teams"
tie_breaks = "wbf"
[rules.teams.bye]
rule = "higher"
vp = 12
[[rules.teams.vp_scales]]
from_round = 3
scale = "wbf_discrete_20"
[[rules.teams.late_joiners]]
teams = [5]
first_round = 2
vp_of_position = 2
[rules.teams.carry_over]
higher_seed_imps = 0.1
seeding = [3, 1, 4, 2, 5]
vp_fraction = "1/3"
earlier_vp = [{ team = 2, vp = 31 }]
[[sessions]]
name = "Evening"
[[sessions.sections]]
letter = "A"
movement = { kind = "teams", teams = 5, boards_per_round = 1, segments = 2 }
teams = [
  { number = 1, name = "Lions" },
  { number = 2, name = "Bears" },
  { number = 3, name = "Owls" },
  { number = 4, name = "Foxes" },
  { number = 5, name = "Hares" },
]
"""


class EverythingMachine(TeamsMachine):
    def batch(self, event, section, movement, lines):
        """The rebuild's view, with the store's confirmed penalties (as ``rebuild``)."""
        confirmed = [p for p in self.store.penalties(self.eid) if p["status"] == "confirmed"]
        return teams_view(event, section, movement, lines, confirmed)

    @precondition(lambda self: self.content)
    @rule(
        data=st.data(),
        amount=st.sampled_from(["0.8", "1.6", "3", "6"]),
        unit=st.sampled_from(["VP", "IMP", "warning"]),
        payer=st.sampled_from(["NS", "EW", "both", "shared"]),
    )
    def director_penalises(self, data, amount, unit, payer):
        """Slow play at a table that has played (seeds 000, 002): proposed, confirmed."""
        table, rnd, _ = data.draw(st.sampled_from(sorted(self.content)))
        row = self.movement.row("A", table, rnd)
        pid = self.store.propose_penalty(
            self.eid, "A", row.ns_pair, amount, unit, "slow play", table, rnd, row.ew_pair
        )
        self.store.decide_penalty(self.eid, pid, True, "TD", payer)
        penalty = next(p for p in self.store.penalties(self.eid) if p["id"] == pid)
        assert self.views.apply_penalty(penalty) is (unit != "warning")


@pytest.mark.slow
def test_everything_a_team_event_sets_live_equals_a_rebuild_after_every_step(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'event.db'}")
    run_state_machine_as_test(lambda: EverythingMachine(store, EVERYTHING), settings=STATEFUL)
