"""USB discovery and bulk transfers through pyusb (libusb), against a base station that
umockdev emulates (the kernel here has no USB at all, so no real part can exist: this is
the documented exception). Run under ``umockdev-wrapper`` (``bash dev.sh test`` does it
when umockdev is installed); skipped otherwise."""

from __future__ import annotations

import asyncio
import os
import time

import pytest
from hub_stub import HubStub, wait_until

pytestmark = [
    pytest.mark.usb,
    pytest.mark.skipif(
        "umockdev-preload" not in os.environ.get("LD_PRELOAD", ""),
        reason="needs umockdev-wrapper (bash dev.sh test runs it)",
    ),
]

VID, PID = 0x1209, 0x0001  # pid.codes test ids: an example identity, never built in


@pytest.fixture
def station():
    from simulator.usb_device import attach

    testbed, st = attach(VID, PID, "BHBS0001")
    yield st
    del testbed


def test_discovery_by_vendor_product_and_serial(station):
    from drivers.usb import UsbSelector, find_usb_devices

    (found,) = find_usb_devices(UsbSelector(VID, PID))
    assert (found.url, found.serial) == ("usb:1209:0001:BHBS0001", "BHBS0001")
    assert found.description == "Base station (simulated)"
    assert find_usb_devices(UsbSelector(VID, PID, "BHBS0001"))
    assert not find_usb_devices(UsbSelector(VID, PID, "OTHER"))
    assert not find_usb_devices(UsbSelector(0x1209, 0x0002))


def test_bulk_transfers_both_ways(station):
    import usb.core
    import usb.util

    dev = usb.core.find(idVendor=VID, idProduct=PID)
    dev.set_configuration()
    usb.util.claim_interface(dev, 0)
    dev.write(0x02, b"\x01\x02frame\x00", 1000)
    assert station.pull() == b"\x01\x02frame\x00"
    station.push(b"\x05reply\x00")
    assert bytes(dev.read(0x81, 64, 1000)) == b"\x05reply\x00"
    with pytest.raises(usb.core.USBTimeoutError):
        dev.read(0x81, 64, 100)
    usb.util.dispose_resources(dev)


def test_the_driver_exchanges_a_result_and_its_ack_over_usb(station):
    """BHWP/1 over bulk endpoints: the driver opens usb:VID:PID:SERIAL."""
    from drivers.base_station import BaseStationDriver
    from drivers.protocol.link import Acked, Link
    from drivers.protocol.messages import Hello, Outcome, Result

    side = Link(time.monotonic, epoch=1)
    side.send(1, Hello(1, "BM-0001"))
    side.send(1, Result("A", 1, 1, 1, 1, 101, "4S", 0, "", 10, 0, 1))
    acked = []

    async def scenario():
        driver = BaseStationDriver("usb:1209:0001:BHBS0001", backoff=(0.02, 0.2))
        hub = HubStub(driver, (1, 2, 3))
        driver.start()
        hub.start()

        def pump():
            for ev in side.feed(station.pull()):
                if isinstance(ev, Acked):
                    acked.append(ev)
            side.poll()
            station.push(side.data_to_send())
            return any(isinstance(e.message, Result) for e in acked)

        try:
            await wait_until(pump, 20, "the hub's ACK of the result over USB")
        finally:
            await hub.stop()
            await driver.stop()
        return hub

    hub = asyncio.run(scenario())
    assert len(hub.results) == 1
    assert [e.outcome for e in acked if isinstance(e.message, Result)] == [Outcome.ACCEPTED]


def test_serial_ports_found_by_usb_ids(tmp_path):
    """A USB-serial base station (an FTDI-like tty) found through serial.tools.list_ports."""
    import gi

    gi.require_version("UMockdev", "1.0")
    from gi.repository import UMockdev

    from drivers.usb import find_serial_ports

    testbed = UMockdev.Testbed.new()
    base = "/devices/pci0000:00/0000:00:14.0/usb1/1-3"
    testbed.add_from_string(f"""P: {base}
E: SUBSYSTEM=usb
E: DEVTYPE=usb_device
A: idVendor=0403
A: idProduct=6001
A: serial=BHBS0042
A: manufacturer=FTDI
A: product=FT232R USB UART
A: bNumInterfaces= 1

P: {base}/1-3:1.0
E: SUBSYSTEM=usb
E: DEVTYPE=usb_interface
A: bInterfaceNumber=00

P: {base}/1-3:1.0/ttyUSB0
E: SUBSYSTEM=usb-serial

P: {base}/1-3:1.0/ttyUSB0/tty/ttyUSB0
N: ttyUSB0
E: DEVNAME=/dev/ttyUSB0
E: SUBSYSTEM=tty
L: device=../../
""")
    found = find_serial_ports(0x0403, 0x6001)
    assert [f.serial for f in found] == ["BHBS0042"]
    assert found[0].url.endswith("ttyUSB0")
    assert find_serial_ports(0x0403, 0x6001, "OTHER") == []
