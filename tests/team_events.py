"""Event files of team events drawn while they run (issue 16, decisions D19), for the
tests: one section A, two boards a round, the event's lot seed 7."""

from __future__ import annotations


def drawn_event(
    method: str, teams: int, rounds: int, *lines: str, rules: str = "", name: str = ""
) -> str:
    """A ``method`` draw of ``teams`` teams over ``rounds`` rounds; ``lines`` more movement
    keys (``delayed = true``, ``first_rounds = …``), ``rules`` more lines of ``[rules]``."""
    extra = "\n".join(lines)
    return f"""schema_version = 1
[event]
name = "{name or method + " teams"}"
[rules]
scoring = "teams"
lot_seed = 7
{rules}
[[sessions]]
name = "Day"
[[sessions.sections]]
letter = "A"
[sessions.sections.movement]
kind = "teams"
teams = {teams}
rounds = {rounds}
boards_per_round = 2
draw = "{method}"
{extra}
"""
