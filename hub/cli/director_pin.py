"""The director's PIN of a ``bridgehub run`` (decisions D20; [MENDS] #25 item 5): the one
the TD gives, or 8 new random characters printed once. A PIN the TD gives shorter than
``SHORT_PIN`` is refused unless the hub is started with ``--short-pin-ok``: the wrong-PIN
limits slow a stranger on the venue network down, they do not stop one, and a 4-digit PIN
falls to patient guessing within days (code review turn 3 N5)."""

from __future__ import annotations

import os

import click

from hub.api.sessions import SHORT_PIN, new_pin, pin_problem

SHORT_PIN_OK = "--short-pin-ok"


def short_pin_refusal(length: int) -> str:
    """Why a PIN of ``length`` characters is refused, and the three ways on."""
    return (
        f"the director's PIN has {length} characters: with fewer than {SHORT_PIN} a stranger "
        "on the venue network can guess it within days (wrong PINs are slowed down, not "
        "stopped: docs/api.md). Give a longer one, leave it out and the hub makes one, or "
        f"start the hub with {SHORT_PIN_OK} to take this one (a rehearsal, a closed room)"
    )


def director_pin(given: str | None, short_ok: bool = False) -> str:
    """The TD PIN of this run: the one given (``--td-pin`` or, better, BRIDGEHUB_TD_PIN),
    never empty and, unless ``short_ok``, at least SHORT_PIN characters; else 8 random
    characters, printed once for the TD. A refusal is ``click.BadParameter``."""
    if given is None and os.environ.get("BRIDGEHUB_TD_PIN") == "":
        given = ""  # click reads an empty variable as unset: an empty PIN all the same
    if given is None:
        pin = new_pin()
        click.echo(f"director's PIN for this run: {pin}")
        return pin
    problem = pin_problem(given)
    if problem is not None:
        raise click.BadParameter(problem, param_hint="--td-pin")
    if len(given) < SHORT_PIN and not short_ok:
        raise click.BadParameter(short_pin_refusal(len(given)), param_hint="--td-pin")
    if len(given) < SHORT_PIN:
        click.echo(
            f"warning: the director's PIN has {len(given)} characters ({SHORT_PIN_OK}); "
            f"with fewer than {SHORT_PIN} it is easier to guess (docs/api.md)",
            err=True,
        )
    return given
