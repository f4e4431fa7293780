"""A session's date as a TD writes it (TD trial G15, issue [MENDS] #25): `2026-12-01` (TOML's
own date, or as text), `1.12.2026` or `1. 12. 2026` (day first, as Czech, Polish and German
write it), `1/12/2026` when it can only be one day (day first, as in Europe, or month first
when the first number is past 12), else refused with the form expected: `1/12/2026` could
be 1 December or 12 January, so the TD writes `2026-12-01`. Pure."""

from __future__ import annotations

import datetime as dt
import re

EXPECTED = "write it as year-month-day, e.g. 2026-12-01"
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_DOTTED = re.compile(r"(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})")
_SLASHED = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")


def _day(year: int, month: int, day: int, text: str) -> dt.date:
    try:
        return dt.date(year, month, day)
    except ValueError as e:
        raise ValueError(f"{text!r} is not a date ({e}); {EXPECTED}") from None


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")  # fmt: skip


def _spoken(day: dt.date) -> str:
    return f"{day.day} {MONTHS[day.month - 1]}"


def session_date(value: object) -> object:
    """``value`` as a date when it is text in one of the forms read here; a date or
    ``None`` as it is; ``ValueError`` with the form expected for text that is no date or
    could be two days."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if m := _ISO.fullmatch(text):
        return _day(int(m[1]), int(m[2]), int(m[3]), text)
    if m := _DOTTED.fullmatch(text):
        return _day(int(m[3]), int(m[2]), int(m[1]), text)
    if m := _SLASHED.fullmatch(text):
        first, second, year = int(m[1]), int(m[2]), int(m[3])
        if first != second and first <= 12 and second <= 12:
            day_first = _spoken(_day(year, second, first, text))
            month_first = _spoken(_day(year, first, second, text))
            raise ValueError(f"{text!r} could be {day_first} or {month_first} {year}; {EXPECTED}")
        if first > 12:  # day first
            return _day(year, second, first, text)
        return _day(year, first, second, text)
    raise ValueError(f"{text!r} is not a date this hub reads; {EXPECTED}")
