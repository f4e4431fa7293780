"""Hand records from PBN files (parsed by endplay): board number → deal, per session. endplay is the
``dd`` extra (it brings matplotlib), so it is imported only when an event has hand records."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from hub.event.event_file import EventFile
from scoring.board import Seat
from scoring.deal import parse_deal
from scoring.errors import ScoringInputError

MAX_BOARD = 65535  # a board number on the wire (U16) and in the store


class HandRecordError(ValueError):
    pass


def endplay_missing(what: str) -> HandRecordError:
    return HandRecordError(
        f"{what}: endplay is not installed; install bridgehub[dd] (pip install 'bridgehub[dd]')"
    )


def read_hand_records(path: Path) -> dict[int, str]:
    """The deal of each board in a PBN file, as a PBN deal string (``N:… … … …``)."""
    try:
        from endplay.parsers import pbn
    except ImportError:
        raise endplay_missing(f"hand records {path}") from None
    try:
        with path.open(encoding="utf-8-sig") as f:
            boards = pbn.load(f)
    except OSError as e:
        raise HandRecordError(f"cannot read hand records {path}: {e}") from None
    except Exception as e:  # endplay raises several types for malformed files
        raise HandRecordError(f"hand records {path} are not valid PBN: {e}") from None
    deals: dict[int, str] = {}
    for b in boards:
        if b.board_num is None:
            continue
        deal = b.deal.to_pbn()
        if deals.setdefault(b.board_num, deal) != deal:  # which one is right? ask
            raise HandRecordError(
                f"hand records {path}: board {b.board_num} is in the file twice with "
                "different deals"
            )
    if not deals:
        raise HandRecordError(f"hand records {path} hold no boards")
    try:
        return check_deals(deals)
    except HandRecordError as e:
        raise HandRecordError(f"hand records {path}: {e}") from None


def check_deals(deals: dict[int, str]) -> dict[int, str]:
    """``deals`` when every board number is one a board can have (1-65535, as the wire and
    the store keep it) and every deal deals 13 cards to each hand; else ``HandRecordError``
    naming the board (a partial deal would hold every result for its lead)."""
    for board, deal in sorted(deals.items()):
        if not 1 <= board <= MAX_BOARD:
            raise HandRecordError(f"the file has a board {board}: boards run 1-{MAX_BOARD}")
        try:
            hands = parse_deal(deal)
        except ScoringInputError as e:
            raise HandRecordError(f"board {board}: {e.message}") from None
        counts = [len(hands[seat]) for seat in Seat]
        if counts != [13] * 4 or len(frozenset().union(*hands.values())) != 52:
            raise HandRecordError(
                f"board {board}'s deal is not a whole deal (cards N, E, S, W: "
                f"{', '.join(map(str, counts))}; each hand needs 13 of the 52 cards)"
            )
    return deals


def section_deals(
    event: EventFile, session_deals: Mapping[int, Mapping[int, str]]
) -> dict[tuple[str, int], str]:
    """Every section's deals, keyed by (section, board): a section plays the hand records of
    its own session (issue [TRUST]: every session's, not the first one's for all; board 1
    of the afternoon is not board 1 of the evening)."""
    return {
        (section.letter, board): deal
        for s_index, session in enumerate(event.sessions)
        for section in session.sections
        for board, deal in session_deals.get(s_index, {}).items()
    }
