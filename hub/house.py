"""The house plan: every part of the project (a package folder) with its modules, their line
counts and the other parts each imports, read from the source (issue [ROOMS]).

``python -m hub.house`` (or ``bash dev.sh house``) prints it; ``--part hub.live`` prints one
part and the parts inside it; ``--drawing`` the drawing of hub/live in docs/hub.md.
``tests/house/`` checks the import rules on the same graph, so what the plan shows is what
the rules see. Reads files only; any thread.
"""

from __future__ import annotations

import argparse
import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "drivers", "hub", "simulator", "campaign")


@dataclass
class Module:
    """One source file: its dotted name, its line count, the project modules it imports."""

    name: str
    path: Path
    lines: int
    imports: set[str] = field(default_factory=set)


@dataclass
class Part:
    """A package folder: its own modules and the parts they import (itself left out)."""

    name: str
    modules: list[Module]
    imports: set[str]

    @property
    def lines(self) -> int:
        return sum(m.lines for m in self.modules)


def _dotted(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(tree: ast.AST, known: set[str]) -> set[str]:
    """The project modules a file imports, at any depth of the file (functions and
    TYPE_CHECKING too): each name of ``from a.b import c, d`` that is a module counts as
    ``a.b.c``, and ``a.b`` itself counts when it is a module and some name is not."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = {f"{node.module}.{a.name}" for a in node.names}
            out |= names & known
            if names - known and node.module in known:
                out.add(node.module)
    return out


def modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Module]:
    """Every module of the packages by dotted name, with what it imports (itself left out).
    Alembic's generated migrations are left out."""
    paths = {
        _dotted(p, root): p
        for package in packages
        for p in sorted((root / package).rglob("*.py"))
        if "migrations" not in p.parts
    }
    known = set(paths)
    out = {}
    for name, path in paths.items():
        text = path.read_text("utf-8")
        imports = _imported(ast.parse(text), known) - {name}
        out[name] = Module(name, path, len(text.splitlines()), imports)
    return out


def part_of(module: str, packages: set[str]) -> str:
    """The innermost package (part) a module belongs to: a package's ``__init__`` belongs
    to the package itself."""
    if module in packages:
        return module
    return module.rpartition(".")[0]


def parts(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Part]:
    """Every part (package folder) with its modules and the parts they import."""
    mods = modules(root, packages)
    pkgs = {name for name, m in mods.items() if m.path.name == "__init__.py"}
    out: dict[str, Part] = {}
    for name in sorted(mods):
        module = mods[name]
        own = part_of(name, pkgs)
        part = out.setdefault(own, Part(own, [], set()))
        part.modules.append(module)
        part.imports |= {part_of(d, pkgs) for d in module.imports} - {own}
    return out


def _seen_from(imported: str, within: str) -> str:
    """An imported part as the plan of ``within`` names it: at the level where the two
    parts' paths part (``hub.event.movement`` seen from ``hub.live.desk`` is ``hub.event``),
    short inside the same parent (``rounds`` for ``hub.live.rounds`` seen from
    ``hub.live.teams``) or inside the part itself."""
    if within.startswith(imported + "."):
        return imported  # a package above: its __init__
    mine, theirs = within.split("."), imported.split(".")
    common = 0
    while common < min(len(mine), len(theirs)) and mine[common] == theirs[common]:
        common += 1
    level = theirs[: common + 1]
    if common == len(mine):
        return ".".join(level[common:])  # a part inside this one
    parent = mine[:-1]
    if parent and level[: len(parent)] == parent:
        level = level[len(parent) :]
    return ".".join(level)


def plan(all_parts: dict[str, Part], under: str | None = None) -> Iterator[str]:
    """The plan's lines: each part indented by depth with its size and what it imports,
    then its modules with their line counts."""
    for name, part in sorted(all_parts.items()):
        if under and not (name == under or name.startswith(under + ".")):
            continue
        depth = name.count(".")
        pad = "  " * depth
        seen = sorted({_seen_from(i, name) for i in part.imports})
        uses = ", ".join(seen) or "nothing of the project"
        yield f"{pad}{name}/  {len(part.modules)} modules, {part.lines} lines; imports {uses}"
        for m in sorted(part.modules, key=lambda m: m.path.name):
            yield f"{pad}    {m.path.name:<28} {m.lines:>4}"


def drawing(all_parts: dict[str, Part], package: str, order: tuple[str, ...]) -> Iterator[str]:
    """The drawing of one package's folders in ``order`` for docs/hub.md: each folder, the
    folders of the package it imports, and its modules (no line counts: they change with
    every edit)."""
    yield f"{package.replace('.', '/')}/"
    for folder in order:
        part = all_parts[f"{package}.{folder}"]
        inside = sorted(
            i.removeprefix(package + ".").split(".")[0]
            for i in part.imports
            if i.startswith(package + ".")
        )
        yield f"├── {folder}/  imports {', '.join(inside) if inside else 'no other folder'}"
        names = [m.path.stem for m in sorted(part.modules, key=lambda m: m.path.name)]
        line = "│      "
        for n in (n for n in names if n != "__init__"):
            if len(line) + len(n) > 92:
                yield line.rstrip()
                line = "│      "
            line += n + "  "
        yield line.rstrip()


def main(argv: list[str] | None = None) -> int:
    """Print the house plan, or one part of it."""
    ap = argparse.ArgumentParser(prog="python -m hub.house", description=__doc__)
    ap.add_argument("--part", help="one part and the parts inside it, e.g. hub.live")
    ap.add_argument(
        "--drawing", action="store_true", help="the drawing of hub/live's folders in docs/hub.md"
    )
    args = ap.parse_args(argv)
    all_parts = parts()
    if args.drawing:
        from hub.live import FOLDERS

        print("\n".join(drawing(all_parts, "hub.live", FOLDERS)))
        return 0
    if args.part and args.part not in all_parts:
        ap.error(f"no part {args.part!r}; parts: {', '.join(sorted(all_parts))}")
    for line in plan(all_parts, args.part):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
