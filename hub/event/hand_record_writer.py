"""A hand-record file in PBN 2.1 export format: each board's deal with its dealer and
vulnerability (Law 2), and, when solved, its double-dummy table and par in the tags other
programs write and read (``DoubleDummyTricks``, ``OptimumResultTable``, ``OptimumScore``,
``ParContract``; the first two as in RealBridge's exports, see
``tests/data/realbridge_2021_online_qual_open_r2.pbn``). Pure text, the same bytes for the
same boards; ``double_dummy_tags`` serves any other PBN writer of the hub too."""

from __future__ import annotations

from collections.abc import Mapping

from hub.event.double_dummy import PARTNERS, SEATS, STRAINS, DoubleDummy, ParContract
from scoring.board import board_dealer, board_vulnerability


def tag(name: str, value: object) -> str:
    """``[Name "value"]``, a quote or backslash in the value escaped as PBN says."""
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{text}"]'


def board_tags(board: int, deal: str, event: str = "?") -> list[str]:
    """The seven-tag roster and the rest of PBN's mandatory tags of a board not played yet
    (players, contract and result unknown: ``?``)."""
    return [
        tag("Event", event),
        tag("Site", "?"),
        tag("Date", "?"),
        tag("Board", board),
        *(tag(seat, "?") for seat in ("West", "North", "East", "South")),
        tag("Dealer", board_dealer(board).name),
        tag("Vulnerable", board_vulnerability(board).value),
        tag("Deal", deal),
        tag("Scoring", "?"),
        tag("Declarer", "?"),
        tag("Contract", "?"),
        tag("Result", "?"),
    ]


def double_dummy_tags(dd: DoubleDummy) -> list[str]:
    """The solution as PBN tags: ``DoubleDummyTricks`` (20 hex digits, N S E W × NT S H D
    C), ``OptimumScore`` (``NS +620``, ``NS -400``), ``ParContract`` (``NS 4H``, ``EW
    5DX-2``, ``Pass``), and ``OptimumResultTable`` with a row per declarer and strain."""
    digits = "".join(f"{dd.tricks[seat, strain]:x}" for seat in SEATS for strain in STRAINS)
    rows = [
        f"{seat.name} {strain.value:>2} {dd.tricks[seat, strain]:>2}"
        for seat in SEATS
        for strain in STRAINS
    ]
    score = f"NS {dd.par_score:+d}" if dd.par_score else "NS 0"
    return [
        tag("DoubleDummyTricks", digits),
        tag("OptimumScore", score),
        tag("ParContract", par_contract_tag(dd.par)),
        '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]',  # PBN's column format
        *rows,
    ]


def par_contract_tag(par: tuple[ParContract, ...]) -> str:
    """Par contracts as ``ParContract`` gives them: both partners in one (``NS 3NT+1``)
    when each makes the same, a sacrifice doubled and down (``EW 5DX-2``); ``Pass``."""
    if not par:
        return "Pass"
    out: list[str] = []
    for contract in par:
        side = next(s for s, seats in PARTNERS.items() if contract.declarer in seats)
        both = all(
            ParContract(contract.level, contract.strain, seat, contract.doubled, contract.over)
            in par
            for seat in PARTNERS[side]
        )
        who = side.value if both else contract.declarer.name
        over = f"{contract.over:+d}" if contract.over else ""
        text = f"{who} {contract.level}{contract.strain.value}{'X' if contract.doubled else ''}"
        if text + over not in out:
            out.append(text + over)
    return "; ".join(out)


def hand_record_pbn(
    deals: Mapping[int, str],
    solutions: Mapping[int, DoubleDummy] | None = None,
    event: str = "?",
) -> str:
    """The hand-record file of ``deals`` (board → PBN deal), in board order; a board in
    ``solutions`` carries its double-dummy tags. Lines end in LF."""
    games: list[str] = []
    for board in sorted(deals):
        lines = board_tags(board, deals[board], event)
        if solutions is not None and board in solutions:
            lines += double_dummy_tags(solutions[board])
        games.append("\n".join(lines) + "\n")
    return "% PBN 2.1\n% EXPORT\n" + "\n".join(games)
