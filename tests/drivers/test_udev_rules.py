"""The udev rules: a parse check everywhere, `udevadm verify` where udevadm has it."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

UDEV = Path(__file__).parents[2] / "udev"
RULES = sorted(UDEV.glob("*.rules"))
MATCH_KEYS = {
    "ACTION",
    "DEVPATH",
    "KERNEL",
    "NAME",
    "SYMLINK",
    "SUBSYSTEM",
    "DRIVER",
    "KERNELS",
    "SUBSYSTEMS",
    "DRIVERS",
    "TAG",
    "TAGS",
    "ATTR",
    "ATTRS",
    "ENV",
    "TEST",
    "PROGRAM",
    "RESULT",
    "SYSCTL",
    "CONST",
}
ASSIGN_KEYS = {
    "NAME",
    "SYMLINK",
    "OWNER",
    "GROUP",
    "MODE",
    "TAG",
    "ENV",
    "ATTR",
    "SYSCTL",
    "RUN",
    "LABEL",
    "GOTO",
    "IMPORT",
    "OPTIONS",
    "SECLABEL",
}
TOKEN = re.compile(
    r"^(?P<key>[A-Z_]+)(\{(?P<attr>[^}]+)\})?(?P<op>==|!=|\+=|-=|:=|=)"
    r'"(?P<value>[^"]*)"$'
)


def tokens(line: str) -> list[str]:
    return [t.strip() for t in re.findall(r'(?:[^,"]|"[^"]*")+', line)]


def check_rule(line: str) -> list[str]:
    problems = []
    for tok in tokens(line):
        m = TOKEN.match(tok)
        if not m:
            problems.append(f'not KEY[{{attr}}]OP"value": {tok!r}')
            continue
        key, op = m["key"], m["op"]
        if op in ("==", "!=") and key not in MATCH_KEYS:
            problems.append(f"{key} cannot be matched")
        if op not in ("==", "!=") and key not in ASSIGN_KEYS:
            problems.append(f"{key} cannot be assigned")
        if key in ("ATTR", "ATTRS", "ENV") and not m["attr"]:
            problems.append(f"{key} needs {{name}}")
    return problems


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.name)
def test_every_rule_parses(path):
    lines = [
        ln
        for ln in path.read_text("utf-8").splitlines()
        if ln.strip() and not ln.lstrip().startswith("#")
    ]
    assert lines
    for ln in lines:
        assert not check_rule(ln), (ln, check_rule(ln))


def test_the_checker_finds_broken_rules():
    assert check_rule('SUBSYSTEM=="tty" GROUP="dialout"')  # a missing comma
    assert check_rule('GROUP=="dialout"')
    assert check_rule('ATTRS=="x"')


def test_names_groups_and_uaccess_order():
    main = (UDEV / "60-bridgehub.rules").read_text("utf-8")
    assert 'SYMLINK+="bridgehub/base-$attr{serial}"' in main
    assert 'SYMLINK+="bridgehub/clock-$attr{serial}"' in main
    assert 'GROUP="dialout"' in main and 'GROUP="plugdev"' in main
    uaccess = [p.name for p in RULES if "uaccess" in p.read_text("utf-8")]
    assert all(int(name.split("-")[0]) < 73 for name in uaccess)


def _udevadm_verify() -> str | None:
    exe = shutil.which("udevadm")
    if exe is None:
        return None
    probe = subprocess.run([exe, "verify", "--help"], capture_output=True, text=True, check=False)
    return exe if probe.returncode == 0 else None


@pytest.mark.skipif(
    _udevadm_verify() is None,
    reason="udevadm verify needs systemd 253 or newer (Debian 12 has 252)",
)
def test_udevadm_verify():
    out = subprocess.run(
        [_udevadm_verify(), "verify", "--resolve-names=never", *map(str, RULES)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
