"""Pairs as the room names them (issue13 "Mitchell numbering as TDs write it"): the
snapshot's ``pairs`` directory of each section gives each internal pair number its label
(``NS 3``, ``EW 3``, or ``7`` in a Howell) and names; pair 0 is the sit-out. Pure; a hub
that sends no directory shows the plain numbers."""

from __future__ import annotations

from typing import Any

SIT_OUT = "sit out"
DIRECTIONS = {"NS": 0, None: 0, "": 0, "EW": 1}  # the NS field listed first


def pair_info(sec: dict[str, Any], pair: Any) -> dict[str, Any]:
    info = (sec.get("pairs") or {}).get(str(pair))
    return info if isinstance(info, dict) else {}


def pair_label(sec: dict[str, Any], pair: Any, column: str = "") -> str:
    """The pair's label (``EW 3``); in a column already headed ``column`` (NS or EW) just
    its number there (``3``); ``sit out`` for pair 0."""
    if pair in (0, "0"):
        return SIT_OUT
    label = str(pair_info(sec, pair).get("label") or pair)
    if column and label.startswith(f"{column} "):
        return label[len(column) + 1 :]
    return label


def pair_names(sec: dict[str, Any], row: dict[str, Any]) -> str:
    """A standings row's names: the row's own, else the section's directory's."""
    names = row.get("name") or row.get("names") or pair_info(sec, row.get("pair")).get("names")
    return str(names or "")


def row_label(sec: dict[str, Any], row: dict[str, Any]) -> str:
    """A standings row's label: the row's ``label``, else the directory's, else the number."""
    return str(row.get("label") or pair_label(sec, row.get("pair")))
