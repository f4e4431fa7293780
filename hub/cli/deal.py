"""``bridgehub deal --boards 36 --seed N --pbn FILE``: a set of boards dealt from a seed, as
a hand-record file (PBN) with each board's double-dummy table and par. The same seed
writes the same file, byte for byte, so a set can be dealt again; boards are numbered from
1 with Law 2's dealer and vulnerability. Double dummy needs the ``dd`` extra (endplay);
``--no-double-dummy`` writes the deals alone."""

from __future__ import annotations

import secrets
from pathlib import Path

import click

from hub.event.dealer import seeded_deals
from hub.event.double_dummy import DoubleDummy, HandRecordError, double_dummy
from hub.event.hand_record_writer import hand_record_pbn
from hub.event.hand_records import MAX_BOARD


@click.command("deal")
@click.option(
    "--boards", type=click.IntRange(1, MAX_BOARD), default=36, show_default=True,
    help="Boards in the set, numbered from 1.",
)  # fmt: skip
@click.option(
    "--seed", type=click.IntRange(min=0), default=None,
    help="Deal from this seed (a whole number ≥ 0); without one, a new one is drawn and "
    "printed. The seed gives away every deal: keep it secret until the session is over.",
)  # fmt: skip
@click.option(
    "--pbn", "pbn_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
    help="The hand-record file to write (PBN 2.1).",
)  # fmt: skip
@click.option(
    "--double-dummy/--no-double-dummy", "solve", default=True, show_default=True,
    help="Write each board's double-dummy table and par (needs bridgehub[dd]).",
)  # fmt: skip
@click.option("--event", "event", default=None, help="The PBN Event tag (default: bridgehub deal).")
def deal(boards: int, seed: int | None, pbn_path: Path, solve: bool, event: str | None) -> None:
    """Deal BOARDS boards from a seed into a PBN hand-record file, with double dummy and
    par."""
    if seed is None:
        seed = secrets.randbelow(2**64)  # not to be guessed from a board seen after play
    deals = seeded_deals(seed, boards)
    solutions: dict[int, DoubleDummy] | None = None
    if solve:
        try:
            solutions = {board: double_dummy(d, board) for board, d in deals.items()}
        except HandRecordError as e:
            raise click.ClickException(f"{e} (or deal with --no-double-dummy)") from None
    text = hand_record_pbn(deals, solutions, event or "bridgehub deal")  # the seed stays out
    try:
        pbn_path.write_bytes(text.encode("utf-8"))  # LF on every system: the same bytes
    except OSError as e:
        raise click.ClickException(f"cannot write {pbn_path}: {e}") from None
    solved = " with double dummy and par" if solutions is not None else ""
    click.echo(f"{pbn_path}: boards 1-{boards} dealt from seed {seed}{solved}")
