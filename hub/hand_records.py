"""Hand records from PBN files (parsed by endplay): board number → deal."""

from __future__ import annotations

from pathlib import Path


class HandRecordError(ValueError):
    pass


def read_hand_records(path: Path) -> dict[int, str]:
    """The deal of each board in a PBN file, as a PBN deal string (``N:… … … …``)."""
    from endplay.parsers import pbn

    try:
        with path.open(encoding="utf-8-sig") as f:
            boards = pbn.load(f)
    except OSError as e:
        raise HandRecordError(f"cannot read hand records {path}: {e}") from None
    except Exception as e:  # endplay raises several types for malformed files
        raise HandRecordError(f"hand records {path} are not valid PBN: {e}") from None
    deals: dict[int, str] = {}
    for b in boards:
        if b.board_num is not None and b.board_num not in deals:
            deals[b.board_num] = b.deal.to_pbn()
    if not deals:
        raise HandRecordError(f"hand records {path} hold no boards")
    return deals
