"""``bridgehub ko …``: knockouts outside the hub, for scorers and for checking brackets
(issue [KNOCKOUT]): ``ko bracket`` draws a seeded bracket (seed 003), ``ko match`` scores a
match over its segments with the event's tie rule, ``ko places`` follows results through a
bracket file to the final places. Every reading error names the file and line and stops
with status 1.
"""

from __future__ import annotations

import click

from hub.cli.ko_bracket import bracket
from hub.cli.ko_match import match
from hub.cli.ko_places import places


@click.group()
def ko() -> None:
    """Knockouts from CSV and bracket files: the seeded bracket, a match, the places."""


ko.add_command(bracket)
ko.add_command(match)
ko.add_command(places)
