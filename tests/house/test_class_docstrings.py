"""Every public class with behaviour says which thread or loop it runs on ([HOUSE], D17)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[2]


VALUE_BASES = {"NamedTuple", "TypedDict"}
ENUM_BASES = {"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"}
EXCEPTION_BASES = {"Exception", "BaseException", "ValueError", "RuntimeError", "LookupError"}
THREAD_WORDS = re.compile(r"\b(loop|thread)|sans[- ]i/o|no i/o", re.IGNORECASE)
# generated migration scripts are Alembic's, not ours
NOT_CHECKED = ("hub/store/migrations/",)


def base_names(cls: ast.ClassDef) -> set[str]:
    """The last dotted part of each base (``typing.Protocol`` -> ``Protocol``)."""
    out = set()
    for base in cls.bases:
        node = base.value if isinstance(base, ast.Subscript) else base
        if isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.Name):
            out.add(node.id)
    return out


def decorator_names(node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """``@dataclass(frozen=True)`` -> {"dataclass", "frozen"}; ``@x.setter`` -> {"setter"}."""
    out = set()
    for dec in node.decorator_list:
        call = dec if isinstance(dec, ast.Call) else None
        target = call.func if call else dec
        if isinstance(target, ast.Attribute):
            out.add(target.attr)
        elif isinstance(target, ast.Name):
            out.add(target.id)
        if call and any(
            k.arg == "frozen" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in call.keywords
        ):
            out.add("frozen")
    return out


def public_classes() -> list[tuple[str, ast.ClassDef]]:
    """Every class named without a leading ``_`` in hub/ and drivers/, with its file."""
    out = []
    for package in ("hub", "drivers"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(NOT_CHECKED):
                continue
            tree = ast.parse(path.read_text("utf-8"))
            out += [
                (rel, node)
                for node in ast.walk(tree)
                if isinstance(node, ast.ClassDef) and not node.name.startswith("_")
            ]
    return out


def enum_and_exception_bases(classes: list[tuple[str, ast.ClassDef]]) -> set[str]:
    """Base names that make a class an enum or an exception: the standard ones and, by name
    until nothing changes, the project's classes that derive from them. (A class that
    derives from a Protocol implements it, so Protocols are not followed.)"""
    names = ENUM_BASES | EXCEPTION_BASES
    changed = True
    while changed:
        changed = False
        for _, cls in classes:
            bases = base_names(cls)
            if cls.name not in names and (
                bases & names or any(b.endswith(("Error", "Exception")) for b in bases)
            ):
                names.add(cls.name)
                changed = True
    return names


def holds_behaviour(cls: ast.ClassDef) -> bool:
    """A method other than a dunder, a property or a classmethod (which value types have)."""
    value_only = {"property", "cached_property", "setter", "classmethod", "staticmethod"}
    return any(
        isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
        and not (f.name.startswith("__") and f.name.endswith("__"))
        and not decorator_names(f) & value_only
        for f in cls.body
    )


def test_public_classes_say_which_thread_or_loop_they_belong_to():
    """[HOUSE], D17: one thread owns the hub's state (the asyncio loop); worker threads do
    store I/O. So every public class that holds behaviour says in its own docstring where
    it runs: on a loop, on a thread (or any thread), or that it is sans-I/O. Plain values
    (frozen dataclasses, NamedTuples), enums, exceptions and Protocols are exempt."""
    classes = public_classes()
    exempt_bases = enum_and_exception_bases(classes) | VALUE_BASES | {"Protocol"}
    silent = []
    for rel, cls in classes:
        decorators = decorator_names(cls)
        if base_names(cls) & exempt_bases or "frozen" in decorators or not holds_behaviour(cls):
            continue
        if not THREAD_WORDS.search(ast.get_docstring(cls) or ""):
            silent.append(f"{rel}:{cls.lineno} {cls.name}")
    assert not silent, "docstring does not say which thread or loop:\n" + "\n".join(silent)
