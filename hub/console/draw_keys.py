"""``D``: the next round's draw of a Swiss, Danish or Monrad section (decisions D19). The
console asks the hub for the draw (``draw_show``), shows it match by match, and publishes
it (``draw_publish``) once the director confirms; a refusal (the round it is drawn from is
still in play, the standings changed since it was shown) lands in the log. ``W``: a team
withdraws (``withdraw_team``), after the director confirms."""

from __future__ import annotations

import functools
from typing import Any

from hub.api.draw_lines import team_text, three_way_text
from hub.console.choice import AskScreen, ChoiceScreen
from hub.console.commands import Console


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
    return "\n".join(lines)


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
        choices = [("publish", f"Publish round {rnd}'s draw"), ("keep", "Not now")]
        self.console.ask(
            ChoiceScreen(draw_text(msg), choices), functools.partial(self._publish, section, rnd)
        )

    async def _publish(self, section: str, rnd: int, choice: str | None) -> None:
        if choice != "publish":
            return
        await self.console.command(
            "draw_publish",
            f"round {rnd}'s draw in section {section}",
            section=section,
            round=rnd,
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
        title = (
            f"Team {team} withdraws from section {section}: it is left out of every draw "
            "after the rounds published; its results stand"
        )
        choices = [("withdraw", f"Withdraw team {team}"), ("keep", "Not now")]
        self.console.ask(
            ChoiceScreen(title, choices), functools.partial(self._withdraw, section, team)
        )

    async def _withdraw(self, section: str, team: int, choice: str | None) -> None:
        if choice == "withdraw":
            await self.console.command(
                "withdraw_team", f"team {team} of section {section} withdrawn",
                section=section, team=team,
            )  # fmt: skip
