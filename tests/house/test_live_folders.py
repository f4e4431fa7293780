"""The live service in folders by job (issue [ROOMS]): every module of hub/live sits in one
folder of ``hub.live.FOLDERS``, and docs/hub.md draws the folders as the code has them
(``python -m hub.house --drawing``). What each folder may import: test_architecture.py."""

from __future__ import annotations

import re
from pathlib import Path

from hub.house import drawing, parts
from hub.live import FOLDERS

ROOT = Path(__file__).parents[2]
LIVE = ROOT / "hub" / "live"
PARTS = parts()


def test_every_module_of_the_live_service_sits_in_a_folder_by_job():
    loose = sorted(p.name for p in LIVE.glob("*.py") if p.name != "__init__.py")
    assert loose == [], f"modules at hub/live's top, outside every folder: {loose}"
    folders = sorted(p.name for p in LIVE.iterdir() if (p / "__init__.py").exists())
    assert folders == sorted(FOLDERS), "hub.live.FOLDERS does not list the folders there are"


def test_docs_hub_md_draws_the_folders_as_the_code_has_them():
    """docs/hub.md's drawing of hub/live is ``python -m hub.house --drawing``'s output."""
    doc = (ROOT / "docs" / "hub.md").read_text("utf-8")
    drawn = re.search(r"```text\n(hub/live/\n.*?)```", doc, re.DOTALL)
    assert drawn, "docs/hub.md has no drawing of hub/live (a ```text block)"
    expected = "\n".join(drawing(PARTS, "hub.live", FOLDERS)) + "\n"
    assert drawn.group(1) == expected, (
        "docs/hub.md's drawing of hub/live differs from the code; paste the output of "
        "`python -m hub.house --drawing`:\n" + expected
    )
