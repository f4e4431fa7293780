"""``bridgehub screen --serve``: the result screen served to browsers by textual-serve."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request

from campaign.pg_cluster import free_port


def test_screen_is_served_to_a_browser():
    """The page is served without a hub running: each browser's screen follows the feed
    (``--api``) and waits for the hub by itself."""
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hub.cli",
            "screen",
            "--api",
            f"ws://127.0.0.1:{free_port()}/v1",
            "--serve",
            f"127.0.0.1:{port}",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        end, page, error = time.monotonic() + 30, "", None
        while time.monotonic() < end and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    page = r.read().decode()
                break
            except OSError as e:
                error = e
                time.sleep(0.2)
        assert page, f"no page from the screen server within 30 s ({error}); exit {proc.poll()}"
        assert "bridgehub screen" in page  # the page textual-serve builds for the app
    finally:
        proc.terminate()
        proc.wait(10)
