"""The director's commands on a team event drawn while it runs (decisions D19): see the
next round's draw, publish it. Pydantic models like ``hub.api.command_models`` (which
lists them in ``COMMANDS``)."""

from __future__ import annotations

from hub.api.command_args import CommandArgs, Pair, Round, Section


class DrawShow(CommandArgs):
    """The next round's draw of a Swiss, Danish or Monrad section, held as a proposal:
    `round`, `matches[]` `{table, tables: [open, closed], home: {team, name}, away}` (table
    1 the top match; `tables` the free pair it is seated at), `byes[]`, `repeats`,
    `lot_seed`, `three_way` (the three-way the round starts, an odd field with `odd =
    "three_way"`: `{teams[3], tables[3], rounds[2], boards[3]}`, `boards` its own sets X,
    Y, Z that the director deals; else null) and `three_way_continued` (the one from the
    round before, its second round; or null). Refused, saying what it waits for, while the
    round it is drawn from is at the tables."""

    section: Section


class DrawPublish(CommandArgs):
    """Publish round `round`'s draw as shown: the round joins the movement (earlier rounds
    untouched), every table of the section is told its next assignment, audited with the
    draw and its lot seed. Refused if the standings changed since it was shown (show it
    again)."""

    section: Section
    round: Round


class WithdrawTeam(CommandArgs):
    """A team of a Swiss, Danish or Monrad section withdraws: it is left out of every draw
    after the rounds already published (its results stand; no bye is counted for it
    after). Replies `from_round`, the first round it no longer plays, and `still_drawn`,
    the published rounds not over where it has a match (its opponents there need the
    director's score); audited."""

    section: Section
    team: Pair


DRAW_COMMANDS: dict[str, type[CommandArgs]] = {
    "draw_show": DrawShow,
    "draw_publish": DrawPublish,
    "withdraw_team": WithdrawTeam,
}
