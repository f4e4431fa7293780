"""A warning for the TD before play ([MENDS] #25, TD trial G9): a teams section that will
have byes while the event file has no ``[rules.teams.bye]`` scores every bye 0 VP, and
nothing said so until the bye team's total showed it. ``bridgehub event create`` prints it
and the hub raises it as an alert at every start, until the file says what a bye is worth.

Byes are foreseen from the movement alone: a fixed team movement's rounds where a team of
the section has no match (a round robin of an odd number of teams), a drawn section's
rounds whose field is odd (late joiners counted from their first round; with
``odd = "three_way"`` only where a run of odd rounds leaves one over). A withdrawal later
may make byes too: its reply says what they score. Pure.
"""

from __future__ import annotations

from hub.event.event_file import EventFile
from hub.event.event_rules import Scoring
from hub.event.movement.model import Movement
from hub.live.teams.draw_proposal import DrawSpec, draw_spec
from hub.standings.team_section import TeamSection


def bye_warnings(event: EventFile, movements: dict[str, Movement]) -> list[tuple[str, str]]:
    """(section, warning) for each teams section with byes and no bye rule to score them."""
    if event.rules.scoring is not Scoring.TEAMS or event.rules.teams.bye is not None:
        return []
    out = []
    for letter, movement in sorted(movements.items()):
        if not movement.layout.matches:
            continue
        spec = draw_spec(event, letter)
        rounds = (
            drawn_byes(spec, movement)
            if spec is not None
            else sorted({k for _, k in TeamSection(event, letter, movement).byes(movement.rounds)})
        )
        if rounds:
            which = ", ".join(map(str, rounds))
            out.append(
                (
                    letter,
                    f"section {letter}: round{'s' * (len(rounds) > 1)} {which} will have a bye, "
                    "and the event has no [rules.teams.bye]: a bye scores 0 VP. Add "
                    '[rules.teams.bye] (rule = "fixed", vp = …; or "own_average", "higher") '
                    "to the event file if it should score more",
                )
            )
    return out


def drawn_byes(spec: DrawSpec, movement: Movement) -> list[int]:
    """The rounds of a drawn section where its field is odd and a team has a bye: every
    such round, or with three-way matches (two rounds each) the last of an odd run."""
    odd = [r for r in range(1, movement.rounds + 1) if len(spec.playing(r, movement.layout)) % 2]
    if not spec.three_way:
        return odd
    out, run = [], 0
    for r in range(1, movement.rounds + 2):
        if r in odd:
            run += 1
            continue
        if run % 2:
            out.append(r - 1)  # the run's last round: no round left to pair a three-way with
        run = 0
    return out
