"""``D``: the next round's draw of a Swiss, Danish or Monrad section (decisions D19). The
console asks the hub for the draw (``draw_show``), shows it match by match, and publishes
it (``draw_publish``) once the director confirms, or swaps two teams first (``draw_swap``:
the hub checks the edit again and it is shown again); a refusal (the round it is drawn
from is still in play, the standings changed since it was shown) lands in the log. ``W``:
a team withdraws (``withdraw_team``), named with its name, after the director confirms;
what its opponents get (a bye, a walk-over) is told in the log."""

from __future__ import annotations

import functools
from typing import Any

from hub.api.draw_lines import team_text, three_way_text
from hub.console.choice import AskScreen, ChoiceScreen
from hub.console.commands import Console
from hub.console.labels import pair_names


def draw_text(shown: dict[str, Any]) -> str:
    """The draw as the TD reads it: one line a match (its tables), then byes, the
    three-way it starts or continues (movements.md 5.5) and repeats."""
    lines = [f"Section {shown['section']}, round {shown['round']}: the draw"]
    for m in shown["matches"]:
        tables = "/".join(str(t) for t in m["tables"])
        home, away = team_text(m["home"]), team_text(m["away"])
        lines.append(f"  {m['table']:>2}. tables {tables}: {home} v {away}")
    lines += [f"  bye: {team_text(b)}" for b in shown["byes"]]
    if shown.get("three_way"):
        lines.append(f"  three-way: {three_way_text(shown['three_way'])}")
    if shown.get("three_way_continued"):
        lines.append(f"  three-way continues: {three_way_text(shown['three_way_continued'])}")
    lines.append(f"  repeats: {shown['repeats']}   lot seed: {shown['lot_seed']}")
    if shown.get("edited"):
        lines.append("  edited by the director")
    lines += [f"  note: {n}" for n in shown.get("notes") or []]
    return "\n".join(lines)


def known_team_names(sec: dict[str, Any]) -> dict[int, str]:
    """Each team's name as the TD knows it, from the section's directory and its matches
    (the names the draw and the Matches tab show)."""
    names: dict[int, str] = {}
    for m in sec.get("matches") or []:
        for side in ("home", "away"):
            if isinstance(m.get(side), int) and m.get(f"{side}_name"):
                names[m[side]] = str(m[f"{side}_name"])
    for number in sec.get("pairs") or {}:
        if str(number).isdigit() and pair_names(sec, {"pair": number}):
            names[int(number)] = pair_names(sec, {"pair": number})
    return names


class DrawKeys:
    """The draw key's flow; lives on the Textual app's event loop."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def sections(self) -> list[str]:
        """The drawn sections the keys act on (the room filter's one, if set)."""
        only = self.console.section_filter
        return [
            letter
            for letter, sec in sorted(self.console.room.sections.items())
            if sec.get("draw") and only in (None, letter)
        ]

    async def show(self) -> None:
        sections = self.sections()
        if not sections:
            self.console.room.warn(
                "! D draws the next round of a Swiss, Danish or Monrad section: there is none"
            )
        for section in sections:
            await self.console.command(
                "draw_show",
                f"the next draw of section {section}",
                on_reply=functools.partial(self._shown, section),
                section=section,
            )

    def _shown(self, section: str, msg: dict[str, Any]) -> None:
        if not msg.get("ok"):
            return  # the log shows why (not drawn while it runs, still in play)
        rnd = int(msg["round"])
        choices = [
            ("publish", f"Publish round {rnd}'s draw" + " as edited" * bool(msg.get("edited"))),
            ("swap", "Swap two teams (the draw is checked again)"),
            ("keep", "Not now"),
        ]
        self.console.ask(
            ChoiceScreen(draw_text(msg), choices), functools.partial(self._publish, section, rnd)
        )

    async def _publish(self, section: str, rnd: int, choice: str | None) -> None:
        if choice == "swap":
            self.console.ask(
                AskScreen(f"Round {rnd}: two teams to change places (as 3 5)", "3 5"),
                functools.partial(self._swap, section, rnd),
            )
            return
        if choice != "publish":
            return
        await self.console.command(
            "draw_publish",
            f"round {rnd}'s draw in section {section}",
            section=section,
            round=rnd,
        )

    async def _swap(self, section: str, rnd: int, answer: str | None) -> None:
        """Two team numbers: the hub edits the draw shown, checks it again and answers
        with the edited draw, shown again to publish or edit further ([MENDS] #25)."""
        if answer is None:
            return
        teams = answer.replace(",", " ").replace("-", " ").split()
        if len(teams) != 2 or not all(t.isdigit() and 1 <= int(t) <= 9999 for t in teams):
            self.console.room.warn(f"! {answer!r} is not two team numbers (as 3 5)")
            return
        await self.console.command(
            "draw_swap",
            f"teams {teams[0]} and {teams[1]} swapped in round {rnd}'s draw of section {section}",
            on_reply=functools.partial(self._shown, section),
            section=section,
            round=rnd,
            team=int(teams[0]),
            other=int(teams[1]),
        )

    def withdraw(self) -> None:
        """``W``: a team of a drawn section withdraws (asks its number, then confirms)."""
        sections = self.sections()
        if len(sections) != 1:
            self.console.room.warn(
                "! W withdraws a team of one drawn section: choose it with f first"
                if sections
                else "! W withdraws a team of a Swiss, Danish or Monrad section: there is none"
            )
            return
        section = sections[0]
        self.console.ask(
            AskScreen(f"Team of section {section} that withdraws (its number)", "7"),
            functools.partial(self._confirm_withdrawal, section),
        )

    async def _confirm_withdrawal(self, section: str, answer: str | None) -> None:
        if answer is None:
            return
        if not answer.isdigit() or not 1 <= int(answer) <= 9999:
            self.console.room.warn(f"! {answer!r} is not a team number (1-9999)")
            return
        team = int(answer)
        named = self.team_named(section, team)
        title = (
            f"Team {named} withdraws from section {section}: it leaves every later draw "
            "and the published matches it has not finished (its opponents there get a bye, "
            "or a walk-over, by the event's bye rule); its results stand"
        )
        choices = [("withdraw", f"Withdraw team {named}"), ("keep", "Not now")]
        self.console.ask(
            ChoiceScreen(title, choices), functools.partial(self._withdraw, section, team)
        )

    def team_names(self, section: str) -> dict[int, str]:
        return known_team_names(self.console.room.sections.get(section) or {})

    def team_named(self, section: str, team: int, names: dict[int, str] | None = None) -> str:
        """The team's number and name ("3 Owls")."""
        known = self.team_names(section) if names is None else names
        return team_text({"team": team, "name": known.get(team, "")})

    async def _withdraw(self, section: str, team: int, choice: str | None) -> None:
        if choice == "withdraw":
            names = self.team_names(section)  # as they are before its matches change
            await self.console.command(
                "withdraw_team", f"team {self.team_named(section, team, names)} of section "
                f"{section} withdrawn", on_reply=functools.partial(self._withdrawn, section, names),
                section=section, team=team,
            )  # fmt: skip

    def _withdrawn(self, section: str, names: dict[int, str], msg: dict[str, Any]) -> None:
        """What the opponents get, round by round, told in the log ([MENDS] #25)."""
        for award in msg.get("opponents") or [] if msg.get("ok") else []:
            what = "a walk-over" if award.get("award") == "walk_over" else "a bye"
            opponent = self.team_named(section, int(award.get("team") or 0), names)
            self.console.room.tell(
                f"Section {section} round {award.get('round')}: team {opponent} gets {what}, "
                f"{award.get('vp')} VP now ({award.get('rule')})"
            )
