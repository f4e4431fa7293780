"""Places in the standings as the console and the result screen show them."""

from __future__ import annotations

from rich.text import Text


def place(rank: str) -> int:
    """The place in a rank such as ``"3="``."""
    digits = "".join(ch for ch in str(rank) if ch.isdigit())
    return int(digits) if digits else 0


def moved_text(moved: int | None) -> Text:
    """Places gained (▲3, green) or lost (▼2, red) since the previous standings."""
    if not moved:
        return Text("")
    return (
        Text(f"▲{moved}", style="bold green") if moved > 0 else Text(f"▼{-moved}", style="bold red")
    )
