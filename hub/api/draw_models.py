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
    round before, its second round; or null); `edited: true` when it is the director's
    edit (`draw_swap`) of the draw the standings still give. Refused, saying what it waits
    for, while the round it is drawn from is at the tables."""

    section: Section


class DrawPublish(CommandArgs):
    """Publish round `round`'s draw as shown (or as the director edited it, `draw_swap`):
    the round joins the movement (earlier rounds untouched), every table of the section is
    told its next assignment, audited with the draw and its lot seed. Refused if the
    standings changed since it was shown or edited (show it again)."""

    section: Section
    round: Round


class DrawSwap(CommandArgs):
    """Edit the draw shown before it is published (e.g. to keep two teams of one club
    apart): `team` and `other`, two teams of round `round`'s draw, change places (in a
    match, a bye or the three-way; two teams of one match change home and away). The
    draw's checks run again on the edit (it must still fit the movement; a higher-number
    home rule seats the match again) and the reply is the edited draw as `draw_show` gives
    it, with `notes[]` saying what the edit gives up (a repeat, a second bye). Audited
    (`draw_edited`: the swap, the draw before and after); `draw_publish` then publishes
    the edit, unless the standings changed since (show it again)."""

    section: Section
    round: Round
    team: Pair
    other: Pair


class WithdrawTeam(CommandArgs):
    """A team of a Swiss, Danish or Monrad section withdraws: it is left out of every draw
    after the rounds already published, and of the published matches it has not finished
    (its seats there empty; its finished matches stand; no bye is counted for it after).
    Its opponents there get a bye (match not begun) or a walk-over (begun: its boards stay
    stored, counted in no match), scored by `[rules.teams.bye]`. Replies `from_round`, the
    first round it no longer plays, `opponents[]` `{round, team, award: bye|walk_over,
    boards_played, vp, rule}`, and `still_drawn`, the rounds not over where it still
    plays (a three-way: the director scores it); audited."""

    section: Section
    team: Pair


DRAW_COMMANDS: dict[str, type[CommandArgs]] = {
    "draw_show": DrawShow,
    "draw_publish": DrawPublish,
    "draw_swap": DrawSwap,
    "withdraw_team": WithdrawTeam,
}
