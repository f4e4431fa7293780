"""The director's commands on a knockout section (issue [KNOCKOUT], decisions D23): see the
bracket, make a team's choice of opponent, give a walk-over, publish the next round.
Pydantic models like ``hub.api.command_models`` (which lists them in ``COMMANDS``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from hub.api.command_args import CommandArgs, Pair, Section

RoundName = Annotated[str, StringConstraints(min_length=1, max_length=20)]


class KoShow(CommandArgs):
    """The knockout's bracket: `matches[]` `{match, round, boards, segment_count, teams[]
    {team, name} (null while unknown), feeds[] (per slot: `{match, place}`, `{rank}`,
    `{team}` or `{choice}`), bye, tables, carry[], segments[] {segment, home, away},
    totals[], winner (the slot index), decided_by, next (extra_set | sudden_death),
    walk_over, lineups[] {segment, first, second} (who hands in the line-up first),
    seating_turn (a captains' choice due, seed 000 §8), would_change (a correction after
    the match was decided: what its result now gives), pairs[] (a three-way's matches),
    state: waiting | ready | playing | decided | bye}`, `choosing[]` `{group, chooser,
    options[], made[], absent[]}` (who chooses an opponent next, from whom, and who is not
    there), `proposal` (the next round held for `ko_publish`: `{round, matches[]}`, or
    null), `places[]` `{team, name, place}` (a place or a shared range, "9-16") and
    `finished`."""

    section: Section


class KoPublish(CommandArgs):
    """Publish the knockout's next round (`round`: its name as `ko_show`'s proposal gives
    it, "QF"): its matches join the movement after the rounds played (earlier rounds
    untouched), the tables are told where they play, audited (`ko_round_published`).
    Refused when no round is held for the director, or it is another round."""

    section: Section
    round: RoundName


class KoChoose(CommandArgs):
    """Team `team`, whose turn it is to choose (`ko_show`'s `choosing`), chooses `opponent`
    by the event's rules (seed 001's countries, seed 002's halves); refused, saying why,
    otherwise. Audited (`ko_choice`); when the last choice of a round is made the round is
    drawn."""

    section: Section
    team: Pair
    opponent: Pair


class KoAbsent(CommandArgs):
    """A team whose turn it is to choose an opponent is not there (seed 002 §17): the turn
    passes to the next; with `present: true` it has come and chooses next among those
    left. Once every team there has chosen, the absent ones get the teams left (the
    best-placed absent the worst-placed left). Audited (`ko_choice`); refused for a team
    with no choice to make."""

    section: Section
    team: Pair
    present: bool = False


class KoSeating(CommandArgs):
    """Seed 000 §8 (`seating = "captains_draw"`): in the last round the winner of the
    captains' draw (the hub's lot, `ko_show`'s `seating_turn`) chooses the segment
    `segment` where its team sits first, then the choice alternates; the last segment
    goes to whoever's turn it is. Audited (`ko_seating`); the line-up order of every
    segment follows. Refused for a segment taken, out of range, or no choice due."""

    section: Section
    match: RoundName
    segment: Annotated[int, Field(ge=1, le=99)]


class KoWalkOver(CommandArgs):
    """Team `team` does not come to its match (seed 003 §15): the match goes to the other
    team, audited (`ko_walk_over`), and the bracket moves on; a match at the tables is
    taken out of the movement (its boards played stay stored). Refused for a team with no
    match in play or ready."""

    section: Section
    team: Pair


class KoRedraw(CommandArgs):
    """Draw the knockout again before a board of it is played (a correction after the
    bracket was published: a team's Elo, its number): `order`, the team numbers by rank,
    every team of the section once; without it the teams are seeded again by the event's
    rule (seed 003: by Elo, the unseeded by a new lot from a seed drawn and recorded now).
    The first round's matches are replaced (nothing was played), the tables told where
    they play; audited (`ko_redrawn`: the seeding before and after, the lot seed). Refused
    once a board is played or a walk-over given."""

    section: Section
    order: Annotated[list[Pair], Field(min_length=2, max_length=1024)] | None = None


class KoDecide(CommandArgs):
    """The director decides match `match` for team `winner` where the hub cannot: it is
    level and the event's tie rule is used up (no lot, no play-on), or its boards cannot
    all be scored. Recorded as the match's outcome (`ko_outcome`, decided by the
    director), audited with `reason`; the bracket moves on. Refused for a match already
    decided (its outcome stands, D23), one not at the tables, or a team not in it."""

    section: Section
    match: RoundName
    winner: Pair
    reason: Annotated[str, StringConstraints(max_length=200)] = ""


KO_COMMANDS: dict[str, type[CommandArgs]] = {
    "ko_show": KoShow,
    "ko_publish": KoPublish,
    "ko_choose": KoChoose,
    "ko_absent": KoAbsent,
    "ko_seating": KoSeating,
    "ko_walk_over": KoWalkOver,
    "ko_redraw": KoRedraw,
    "ko_decide": KoDecide,
}
