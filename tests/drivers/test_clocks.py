"""Round-clock displays over real pseudo-terminals: the Alpha sign protocol and the
bridgehub panel line protocol (docs/protocol.md §5)."""

from __future__ import annotations

import asyncio

from hub_stub import wait_until

from drivers.clock.alpha import AlphaClock, packet
from drivers.clock.driver import ClockDriver
from drivers.clock.panel import PanelClock
from drivers.clock.show import ClockShow, Phase
from simulator.clocks import AlphaSignDecoder, VirtualAlphaSign, VirtualPanel
from simulator.line import PtyLine


def test_alpha_packet_layout_and_checksum():
    """Alpha protocol: 5 NULs, SOH, type Z, address 00, STX cmd ETX, 4-hex sum, EOT."""
    p = packet(b"G1" + b"12:34")
    assert p[:9] == b"\x00" * 5 + b"\x01Z00"
    body = b"\x02G112:34\x03"
    assert p[9 : 9 + len(body)] == body
    assert p[-5:-1] == f"{sum(body):04X}".encode() and p.endswith(b"\x04")


def test_only_the_string_file_changes_each_second():
    """The sign must not blink: the TEXT file is written once per label."""
    sign = AlphaSignDecoder()
    clock = AlphaClock()
    for s in range(600, 590, -1):
        sign.feed(clock.update(ClockShow(3, Phase.PLAY, s)))
    st = sign.state
    assert st.configured and st.text_writes == 1 and st.string_writes == 10
    assert st.shown() == "Round 3 - play 09:51" and st.colour() == "green"
    sign.feed(clock.update(ClockShow(3, Phase.LAST_BOARD, 120)))
    sign.feed(clock.update(ClockShow(3, Phase.LAST_BOARD, -65)))
    assert st.text_writes == 2 and st.shown() == "Round 3 - last board -01:05"
    assert st.colour() == "red" and st.bad_checksums == 0


def test_panel_lines_and_resend():
    t = [0.0]
    panel = PanelClock(lambda: t[0])
    panel.update(ClockShow(2, Phase.MOVE, 90))
    assert panel.data_to_send() == b"R 2\n"
    assert panel.data_to_send() == b""  # one line at a time
    t[0] = 1.1
    assert panel.data_to_send() == b"R 2\n"  # no answer: again
    panel.feed(b"OK\n")
    assert panel.data_to_send() == b"P move\n"
    for _ in range(3):
        t[0] += 1.1
        panel.data_to_send()
    t[0] += 1.1
    panel.data_to_send()
    assert panel.down


def test_alpha_sign_over_a_pty_with_unplug(tmp_path):
    async def scenario():
        line = PtyLine(tmp_path / "clock-1")
        sign = VirtualAlphaSign(line)
        sign.start()
        driver = ClockDriver(str(line.path), "alpha", backoff=(0.02, 0.1))
        driver.start()
        await wait_until(driver.connected.is_set, 10, "the clock line to open")
        for s in (300, 299, 298):
            driver.show(ClockShow(4, Phase.PLAY, s))
            await asyncio.sleep(0.05)
        await wait_until(
            lambda: sign.decoder.state.shown() == "Round 4 - play 04:58",
            10,
            "the sign to show 04:58",
        )
        sign.unplug()
        await asyncio.sleep(0.1)
        sign.replug()
        await wait_until(
            lambda: driver.reconnects >= 1 and driver.connected.is_set(),
            10,
            "the driver to reconnect",
        )
        driver.show(ClockShow(4, Phase.PLAY, 250))
        await wait_until(
            lambda: sign.decoder.state.shown() == "Round 4 - play 04:10",
            10,
            "the replugged sign to be configured and show 04:10",
        )
        assert sign.decoder.state.configured
        await driver.stop()
        sign.detach()
        line.close()

    asyncio.run(scenario())


def test_panel_over_a_pty(tmp_path):
    async def scenario():
        line = PtyLine(tmp_path / "panel-1")
        panel = VirtualPanel(line)
        panel.start()
        driver = ClockDriver(str(line.path), "panel", backoff=(0.02, 0.1))
        driver.start()
        await wait_until(driver.connected.is_set, 10, "the panel line to open")
        driver.show(ClockShow(5, Phase.NO_NEW_BOARD, 30))
        await wait_until(
            lambda: panel.state.lines.get("T") == "00:30", 10, "the panel to show 00:30"
        )
        assert panel.state.lines == {
            "R": "5",
            "P": "nonew",
            "L": "Round 5 - no new board",
            "C": "red",
            "T": "00:30",
        }
        await driver.stop()
        panel.detach()
        line.close()

    asyncio.run(scenario())
