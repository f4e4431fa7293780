"""What the clock keys send to the hub (pause or resume, a minute more or less, start, a
break, the next round), for the section the room is filtered to or for every section.
A running round's clock is restarted only after the TD says so (TD trial F20); a break
asked for during a round starts when the round ends (the hub's answer is shown)."""

from __future__ import annotations

import functools
from typing import Any

from hub.console.choice import ChoiceScreen
from hub.console.commands import Console, accepts
from hub.console.state import clock_text

NEXT_CHOICES = [("next", "end this round now and start the next")]
BREAK_CHOICES = [(str(m), f"{m} minutes") for m in (5, 10, 15, 20)]
RESTART_CHOICES = [("restart", "restart it from full time"), ("keep", "keep the clock running")]
NOT_RUNNING = (None, "waiting", "break")  # clock phases with no round being played


def running(sec: dict[str, Any]) -> bool:
    """A round is being played in the section (its clock would restart)."""
    return not sec.get("final") and (sec.get("clock") or {}).get("phase") not in NOT_RUNNING


def between_rounds(sec: dict[str, Any]) -> bool:
    """The section is between rounds (a break starts now): as the hub says, else when no
    round is being played."""
    if "between_rounds" in sec:
        return bool(sec["between_rounds"])
    return not running(sec)


class ClockKeys:
    """What the clock keys send to the hub. Lives on the Textual app's event loop (called
    from the app's key actions and pop-up answers)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def sections(self) -> list[str]:
        """The clock keys act on the section the room is filtered to, or on every one."""
        section = self.console.section_filter
        return [section] if section else sorted(self.console.room.sections)

    def _section(self, name: str) -> dict[str, Any]:
        return self.console.room.sections.get(name, {})

    async def pause(self) -> None:
        """Pause a running clock; resume a paused one or end a break early."""
        for section, sec in sorted(self.console.room.sections.items()):
            if self.console.section_filter not in (None, section):
                continue
            stopped = (sec.get("clock") or {}).get("phase") in ("paused", "break")
            name = "resume" if stopped else "pause"
            await self.console.command(name, f"{name} clock {section}", section=section)

    async def adjust(self, seconds: int) -> None:
        """Add (or take off) time on the clock."""
        for section in self.sections():
            await self.console.command(
                "adjust_clock",
                f"clock {section} {seconds // 60:+d} min",
                section=section,
                seconds=seconds,
            )

    async def start(self) -> None:
        """Start the round's clock now (the room is seated); a round already running is
        restarted from full time only when the TD confirms."""
        busy = [s for s in self.sections() if running(self._section(s))]
        if not busy:
            await self._start(None)
            return
        which = ", ".join(
            f"round {self._section(s).get('round')} of {s} "
            f"({clock_text(self._section(s).get('clock'))})"
            for s in busy
        )
        title = f"Restart the clock of {which} from full time?"
        self.console.ask(ChoiceScreen(title, RESTART_CHOICES), self._start)

    async def _start(self, choice: str | None) -> None:
        for section in self.sections():
            args: dict[str, Any] = {"section": section}
            if running(self._section(section)):
                if choice != "restart":
                    continue
                if accepts("start_clock", "restart"):
                    args["restart"] = True
                what = f"clock of {section} restarted from full time"
            else:
                what = f"clock of {section} started"
            await self.console.command("start_clock", what, **args)

    def next_round(self) -> None:
        """End the round now and start the next, once the TD confirms."""
        where = self.console.section_filter or "every section"
        self.console.ask(ChoiceScreen(f"Next round in {where}?", NEXT_CHOICES), self._next_round)

    async def _next_round(self, choice: str | None) -> None:
        if choice != "next":
            return
        for section in self.sections():
            await self.console.command("next_round", f"next round in {section}", section=section)

    def take_break(self) -> None:
        """A break of the length the TD picks: now between rounds; during a round it starts
        when the round ends (the title says so, and the hub's answer is shown)."""
        where = self.console.section_filter or "every section"
        playing = [s for s in self.sections() if not between_rounds(self._section(s))]
        title = f"Break for {where}"
        if playing:
            rounds = ", ".join(f"round {self._section(s).get('round')} of {s}" for s in playing)
            title += f": it will start when {rounds} ends"
        self.console.ask(ChoiceScreen(title, BREAK_CHOICES), self._start_break)

    async def _start_break(self, minutes: str | None) -> None:
        if minutes is None:
            return
        for section in self.sections():
            what = f"{minutes}-minute break in {section}"
            await self.console.command(
                "start_break",
                what,
                on_reply=functools.partial(self._told, what),
                section=section,
                minutes=int(minutes),
            )

    def _told(self, what: str, reply: dict[str, Any]) -> None:
        """The hub's answer to a break, shown: it starts now, or when the round ends."""
        starts = reply.get("starts") or reply.get("text")
        if reply.get("ok") and isinstance(starts, str):
            self.console.room.tell(f"{what} starts {starts}" if "starts" in reply else starts)
