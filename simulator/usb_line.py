"""The emulated USB base station as a line of the simulator, for a hub in ANOTHER process.

A ``UsbLine`` is a bulk-endpoint base station (``simulator.usb_device.BulkStation``) that
umockdev shows at ``/dev/bus/usb/BUS/DEV`` of this process's testbed; its byte stream is
pumped to and from one end of a socket pair whose other end (``master``) the
``VirtualBaseStation`` reads and writes like a pty's. The hub's process finds the device
through pyusb (``bridgehub run --station usb:VID:PID:SERIAL``) when it runs with
``hub_environment()`` in its environment: umockdev's preload library and this process's
testbed directory. umockdev (>= 0.16) serves the device's ioctls to that other process
through a Unix socket in the testbed, so this process needs no ``umockdev-wrapper``
itself, and the handler never touches the other process's memory but through umockdev.

``unplug()`` takes the device away (every ioctl of an open handle then fails with ENODEV
as the kernel's would, the sysfs entry and the device node go, and a "remove" uevent is
sent); ``plug()`` brings a fresh one back at the same place (an "add" uevent). The hub's
driver sees the error, closes, and reopens with backoff once the device is back.
"""

from __future__ import annotations

import contextlib
import ctypes.util
import os
import socket
import threading
from pathlib import Path
from typing import Any

PRELOAD = "libumockdev-preload.so.0"
_state: dict[str, Any] = {}  # this process's testbed and the device numbers given out
_lock = threading.Lock()


def available() -> str | None:
    """None when an emulated USB station can be served from here, else why not (in words
    a person can act on)."""
    try:
        import gi

        gi.require_version("UMockdev", "1.0")
        from gi.repository import UMockdev  # noqa: F401
    except (ImportError, ValueError) as e:
        return (
            f"no umockdev bindings ({e}): install umockdev, gir1.2-umockdev-1.0 and "
            '"PyGObject<3.51"'
        )
    if ctypes.util.find_library("umockdev-preload") is None:
        return f"umockdev's preload library ({PRELOAD}) is not installed: install libumockdev0"
    # looked up, not loaded: libusb started in this process before a testbed exists would
    # keep an empty device list (and the hub's process loads its own)
    if ctypes.util.find_library("usb-1.0") is None:
        return "libusb-1.0 is not installed (pyusb has no backend): install libusb-1.0-0"
    try:
        import usb.core  # noqa: F401
    except ImportError as e:
        return f"pyusb is missing: {e}"
    return None


def _testbed() -> Any:
    """This process's umockdev testbed (one for every UsbLine), made on first use."""
    with _lock:
        if "testbed" not in _state:
            why = available()
            if why is not None:
                raise RuntimeError(f"no emulated USB station: {why}")
            from gi.repository import UMockdev

            _state["testbed"] = UMockdev.Testbed.new()
            _state["next_dev"] = 2
        return _state["testbed"]


def _next_device_number() -> int:
    _testbed()
    with _lock:
        number = int(_state["next_dev"])
        _state["next_dev"] = number + 1
    return number


def hub_environment() -> dict[str, str]:
    """What the hub's process needs in its environment to see this process's emulated USB
    stations: umockdev's preload library (ahead of any other) and the testbed directory.
    Merge it into the child's environment (``{**os.environ, **hub_environment()}``)."""
    root = _testbed().get_root_dir()
    preload = [PRELOAD] + [
        p for p in os.environ.get("LD_PRELOAD", "").split(":") if p and "umockdev-preload" not in p
    ]
    return {"LD_PRELOAD": ":".join(preload), "UMOCKDEV_DIR": root}


class UsbLine:
    """The device end of an emulated USB base station, with the interface of
    ``simulator.line.PtyLine``: ``master`` (a non-blocking descriptor, None while
    unplugged), ``plug``, ``unplug``, ``plugged``, ``url`` (``usb:VID:PID:SERIAL``, what
    the hub opens), ``path`` (the device node in the testbed) and ``close``."""

    def __init__(self, vendor: int, product: int, serial: str, *, bus: int = 1) -> None:
        self.vendor, self.product, self.serial, self.bus = vendor, product, serial, bus
        self.dev = _next_device_number()
        self.path = Path(f"/dev/bus/usb/{bus:03d}/{self.dev:03d}")
        self.syspath = f"/sys/devices/pci0000:00/0000:00:14.0/usb{bus}/{bus}-{self.dev}"
        self.master: int | None = None
        self.device: Any = None  # the BulkStation while plugged
        self._gone: list[Any] = []  # unplugged devices: kept while a client may hold them
        self._sim: socket.socket | None = None
        self._dev: socket.socket | None = None
        self._pump: threading.Thread | None = None
        self.plug()

    @property
    def url(self) -> str:
        return f"usb:{self.vendor:04x}:{self.product:04x}:{self.serial}"

    @property
    def plugged(self) -> bool:
        return self.master is not None

    def plug(self) -> None:
        """The device appears (again): a fresh bulk station at the same bus and number."""
        if self.plugged:
            return
        from simulator.usb_device import BulkStation, device_description

        testbed = _testbed()
        sim, dev = socket.socketpair()
        sim.setblocking(False)
        device = BulkStation(self.vendor, self.product, self.serial)
        device.received = lambda data: self._to_station(dev, data)
        testbed.add_from_string(
            device_description(self.vendor, self.product, self.serial, self.bus, self.dev)
        )
        testbed.attach_ioctl(str(self.path), device)
        self._sim, self._dev, self.device = sim, dev, device
        self.master = sim.fileno()
        self._pump = threading.Thread(
            target=self._to_host, args=(dev, device), name=f"usb {self.url}", daemon=True
        )
        self._pump.start()
        self._uevent("add")

    def unplug(self) -> None:
        """Like pulling the cable: open handles fail with ENODEV from now on, the device
        leaves sysfs and /dev, and bytes on their way are lost."""
        if not self.plugged:
            return
        testbed = _testbed()
        device = self.device
        device.disconnect()
        self._gone.append(device)
        self._uevent("remove")
        with contextlib.suppress(Exception):
            testbed.detach_ioctl(str(self.path))
        testbed.remove_device(self.syspath)
        self.master = None
        self.device = None
        for s in (self._sim, self._dev):
            if s is not None:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
        self._sim = self._dev = None
        if self._pump is not None:
            self._pump.join(1.0)
            self._pump = None

    def close(self) -> None:
        self.unplug()

    def _uevent(self, action: str) -> None:
        """Tell udev listeners (libusb's hotplug monitor in the hub). umockdev's sender
        reads the device through libudev, which sees the testbed only under its preload:
        outside it the event is skipped; the hub still finds the device by scanning."""
        from gi.repository import UMockdev

        if UMockdev.in_mock_environment():
            _testbed().uevent(self.syspath, action)

    # -- the pumps ----------------------------------------------------------------------------
    @staticmethod
    def _to_station(dev: socket.socket, data: bytes) -> None:
        """What the hub wrote to the OUT endpoint, to the station (umockdev's thread, with
        the device's lock held: never blocks; bytes the station is not reading are lost, as
        on a line, and the link sends them again)."""
        with contextlib.suppress(OSError):  # full, or closed by an unplug
            while data:
                data = data[dev.send(data, socket.MSG_DONTWAIT) :]

    @staticmethod
    def _to_host(dev: socket.socket, device: Any) -> None:
        """What the station writes, to the IN endpoint (a thread per plugged device)."""
        while True:
            try:
                data = dev.recv(65536)
            except OSError:
                return
            if not data:
                return
            device.push(data)
