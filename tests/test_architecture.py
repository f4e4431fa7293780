"""The import direction of docs/architecture: scoring ← drivers ← hub; the simulator may
use drivers and scoring but never hub, and nothing imports the simulator but tests."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
FORBIDDEN = {
    "scoring": {"drivers", "hub", "simulator"},
    "drivers": {"hub", "simulator"},
    "hub": {"simulator"},
    "simulator": {"hub"},
}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module.split(".")[0])
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_point_down_the_layers(package):
    bad = []
    for path in (ROOT / package).rglob("*.py"):
        wrong = imports(path) & FORBIDDEN[package]
        if wrong:
            bad.append(f"{path.relative_to(ROOT)} imports {', '.join(sorted(wrong))}")
    assert not bad, bad


def test_scoring_does_no_io():
    """scoring/ is pure: no files, sockets, databases, clocks or asyncio."""
    banned = {"os", "socket", "asyncio", "sqlalchemy", "serial", "usb", "time", "pathlib"}
    for path in (ROOT / "scoring").rglob("*.py"):
        assert not imports(path) & banned, path
