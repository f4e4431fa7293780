"""Why a line cannot be opened, in the words a director can act on (TD trial F10): "cannot
open /dev/ttyUSB0: no such device — is the base station plugged in?". The reason is read
from the error's errno (the transport's ``LineError`` keeps the system's error as its
context) or, for a USB selector that matches no device, from its text. Sans-I/O."""

from __future__ import annotations

import errno
import re

# errno → what it means at the venue, and what to check
WORDS: dict[int, str] = {
    errno.ENOENT: "no such device — is the base station plugged in?",
    errno.ENODEV: "no such device — is the base station plugged in?",
    errno.ENXIO: "no such device — is the base station plugged in and switched on?",
    errno.EACCES: (
        "permission denied — is this user in the dialout group, or are the udev rules "
        "installed (udev/README.md)?"
    ),
    errno.EPERM: (
        "permission denied — is this user in the dialout group, or are the udev rules "
        "installed (udev/README.md)?"
    ),
    errno.EBUSY: "the device is busy — is another program (or another hub) using it?",
    errno.EAGAIN: "the device is in use — is another program (or another hub) using it?",
    errno.ECONNREFUSED: "nothing answers there — is the simulator or the network station running?",
    errno.EHOSTUNREACH: "that address cannot be reached — is the network station on this network?",
    errno.ETIMEDOUT: "no answer from that address — is the network station switched on?",
    errno.EIO: "the device does not answer — unplug it and plug it in again",
}
NO_USB = re.compile(r"\bno USB device\b", re.IGNORECASE)
ERRNO_TEXT = re.compile(r"\[Errno (\d+)\]")


def error_number(error: BaseException) -> int | None:
    """The system's error number behind ``error``: its own, or its cause's or context's
    (the transports re-raise as ``LineError`` from the system's error), or one written
    in its text as ``[Errno N]``."""
    seen: set[int] = set()
    e: BaseException | None = error
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        number = getattr(e, "errno", None)
        if isinstance(number, int) and number > 0:
            return number
        e = e.__cause__ or e.__context__
    found = ERRNO_TEXT.search(str(error))
    return int(found.group(1)) if found else None


def open_problem(url: str, error: BaseException) -> str:
    """The director's words for a line at ``url`` that cannot be opened."""
    if NO_USB.search(str(error)):
        return f"cannot open {url}: no such USB device — is the base station plugged in?"
    number = error_number(error)
    if number in WORDS:
        return f"cannot open {url}: {WORDS[number]}"
    text = str(error)
    prefix = f"cannot open {url}: "
    return text if text.startswith(prefix) else f"{prefix}{text}"
