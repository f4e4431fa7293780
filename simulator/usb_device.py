"""A base station on USB bulk endpoints, emulated through umockdev for the hub's pyusb
path (no USB hardware or kernel USB exists on these machines). The pyusb side runs under
umockdev's preload library (``umockdev-wrapper``, or the environment
``simulator.usb_line.hub_environment`` gives a hub in another process). It answers the
usbdevfs ioctls libusb issues: control transfers (descriptors, vendor requests), bulk URBs
both ways, reaping and discarding, and an unplug as the kernel reports one.

x86-64 layouts; ``struct usbdevfs_urb`` is 56 bytes: type @0, endpoint @1, status @4,
buffer pointer @16, buffer_length @24, actual_length @28.
"""

from __future__ import annotations

import errno
import struct
import threading
from collections.abc import Callable

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

CONTROL = 0xC0185500
SETINTERFACE = 0x80085504
SETCONFIGURATION = 0x80045505
GETDRIVER = 0x41045508
SUBMITURB = 0x8038550A
DISCARDURB = 0x0000550B
REAPURB = 0x4008550C
REAPURBNDELAY = 0x4008550D
CLAIMINTERFACE = 0x8004550F
RELEASEINTERFACE = 0x80045510
CONNECTINFO = 0x40085511
RESET = 0x00005514
CLEAR_HALT = 0x80045515
GET_CAPABILITIES = 0x8004551A
URB_TYPE_CONTROL, URB_TYPE_BULK = 2, 3
URB_SIZE = 56
IDLE_REAP_S = 0.005  # how long an idle reap waits for data before EAGAIN


def device_descriptor(vendor: int, product: int) -> bytes:
    return struct.pack(
        "<BBHBBBBHHHBBBB", 18, 1, 0x0200, 0, 0, 0, 64, vendor, product, 0x0100, 1, 2, 3, 1
    )


CONFIG_DESCRIPTOR = bytes.fromhex(
    "0902200001010080 32"  # configuration 1, one interface, 100 mA
    "0904000002ffffff02"  # interface 0: two endpoints, vendor class
    "07058102400000"  # bulk IN 0x81, 64 bytes
    "07050202400000".replace(" ", "")  # bulk OUT 0x02, 64 bytes
)


def string_descriptor(text: str) -> bytes:
    data = text.encode("utf-16-le")
    return bytes([2 + len(data), 3]) + data


def device_description(vendor: int, product: int, serial: str, bus: int = 1, dev: int = 2) -> str:
    """The device as umockdev's testbed text format (sysfs attributes and udev properties)."""
    descriptors = (device_descriptor(vendor, product) + CONFIG_DESCRIPTOR).hex()
    return f"""P: /devices/pci0000:00/0000:00:14.0/usb{bus}/{bus}-{dev}
N: bus/usb/{bus:03d}/{dev:03d}
E: DEVNAME=/dev/bus/usb/{bus:03d}/{dev:03d}
E: DEVTYPE=usb_device
E: DRIVER=usb
E: PRODUCT={vendor:x}/{product:x}/100
E: TYPE=0/0/0
E: BUSNUM={bus:03d}
E: DEVNUM={dev:03d}
E: MAJOR=189
E: MINOR={(bus - 1) * 128 + dev - 1}
E: SUBSYSTEM=usb
E: ID_VENDOR_ID={vendor:04x}
E: ID_MODEL_ID={product:04x}
E: ID_SERIAL_SHORT={serial}
A: idVendor={vendor:04x}
A: idProduct={product:04x}
A: bcdDevice=0100
A: bDeviceClass=00
A: bNumConfigurations=1
A: bNumInterfaces= 1
A: bConfigurationValue=1
A: bMaxPacketSize0=64
A: busnum={bus}
A: devnum={dev}
A: speed=12
A: manufacturer=bridgehub
A: product=Base station (simulated)
A: serial={serial}
H: descriptors={descriptors}
"""


def _bytes(data) -> bytes:  # noqa: ANN001 - GI IoctlData
    """The local copy of client memory that umockdev resolved."""
    return bytes(data.retrieve())


class _Urb:
    """A submitted URB: umockdev's copy of it and of its buffer, synced back to the client
    when an ioctl of the same client completes with it reachable (the submit itself, or
    the reap that hands it back through ``set_ptr``). Never the client's memory directly,
    so the client may be another process."""

    def __init__(self, data, client) -> None:  # noqa: ANN001 - GI IoctlData, IoctlClient
        self.data = data
        self.client = client  # the process (open device) that submitted it
        self.addr = data.client_addr
        raw = _bytes(data)
        self.kind, self.endpoint = raw[0], raw[1]
        self.length = struct.unpack_from("<i", raw, 24)[0]
        self.buffer = data.resolve(16, self.length) if self.length > 0 else None

    def read(self, offset: int, size: int) -> bytes:
        return b"" if self.buffer is None else _bytes(self.buffer)[offset : offset + size]

    def fill(self, offset: int, chunk: bytes) -> None:
        if self.buffer is not None and chunk:
            self.buffer.update(offset, chunk)

    def finish(self, actual: int, status: int = 0) -> None:
        self.data.update(4, struct.pack("<i", status))
        self.data.update(28, struct.pack("<i", actual))


class BulkDevice(UMockdev.IoctlBase):
    """The usbdevfs side of a bulk device. ``received`` gets what the host writes to the
    OUT endpoint; ``to_host`` returns what the IN endpoint should deliver next. Once
    ``gone`` (unplugged), every ioctl fails with ENODEV as the kernel's would, so the
    host's libusb reports LIBUSB_ERROR_NO_DEVICE (``disconnect``).

    URBs belong to the client (an open of the device) that submitted them, and a reap hands
    a client only its own. The client that claims the interface owns the device: the URBs
    of any other are forgotten then. A hub killed with ``kill -9`` cannot discard its
    waiting IN transfer, and umockdev does not reliably tell that it died (a death during
    an ioctl leaves its connection open here), so without this the next hub's first reads
    would go into that dead transfer. (The kernel refuses a second claim while the first
    holder lives; one hub at a time is all this emulation serves.)"""

    ids: tuple[int, int]

    def __init__(
        self,
        strings: dict[int, str],
        received: Callable[[bytes], None],
        to_host: Callable[[], bytes],
    ) -> None:
        super().__init__()
        self.strings = strings
        self.received = received
        self.to_host = to_host
        self.lock = threading.Lock()
        self.completed: list[_Urb] = []
        self.waiting_in: list[_Urb] = []
        self._held = b""
        self.gone = False
        self.ready = threading.Condition(self.lock)  # notified when there is data for the host

    def disconnect(self) -> None:
        """The device is pulled out, as the kernel tells usbdevfs: URBs in flight complete
        with -ESHUTDOWN (libusb reaps them as LIBUSB_TRANSFER_NO_DEVICE), then every ioctl
        but a reap fails with ENODEV, and a reap with nothing left too."""
        with self.lock:
            self.gone = True
            for urb in self.waiting_in:
                urb.finish(0, -errno.ESHUTDOWN)
                self.completed.append(urb)
            self.waiting_in.clear()
            self.ready.notify_all()

    def _control(self, urb: _Urb) -> int:
        setup = urb.read(0, 8)
        if len(setup) < 8:
            return 0
        request_type, request, value, _index, length = struct.unpack("<BBHHH", setup)
        reply = b""
        if request_type == 0x80 and request == 6:  # GET_DESCRIPTOR
            kind, idx = value >> 8, value & 0xFF
            if kind == 1:
                reply = device_descriptor(*self.ids)
            elif kind == 2:
                reply = CONFIG_DESCRIPTOR
            elif kind == 3:
                reply = (
                    b"\x04\x03\x09\x04"
                    if idx == 0
                    else string_descriptor(self.strings.get(idx, ""))
                )
        reply = reply[: max(0, min(length, urb.length - 8))]
        urb.fill(8, reply)
        return len(reply)

    def _feed_waiting(self) -> None:
        while self.waiting_in:
            pending = self._held or self.to_host()
            self._held = b""
            if not pending:
                return
            urb = self.waiting_in.pop(0)
            chunk, self._held = pending[: urb.length], pending[urb.length :]
            urb.fill(0, chunk)
            urb.finish(len(chunk))
            self.completed.append(urb)

    def _claimed_by(self, client) -> None:  # noqa: ANN001 - GI object
        """``client`` owns the device now: the URBs of any other client (a hub that died
        holding it) are forgotten; bytes they held are lost, as on a line, and the link
        sends them again."""
        self.waiting_in = [u for u in self.waiting_in if u.client == client]
        self.completed = [u for u in self.completed if u.client == client]

    def do_handle_ioctl(self, client) -> bool:  # noqa: ANN001 - GI object
        request = client.get_request()
        arg = client.get_arg()
        with self.lock:
            if request == REAPURBNDELAY and not self._done(client) and not self.gone:
                self._feed_waiting()
                if not self._done(client) and self.waiting_in:
                    # libusb polls the emulated descriptor, which is always ready, and
                    # reaps at once: a short wait for data here keeps that loop from
                    # spinning both processes (the kernel would have woken it on data)
                    self.ready.wait(IDLE_REAP_S)
            if self.gone and request not in (REAPURB, REAPURBNDELAY):
                client.complete(-1, errno.ENODEV)
            elif request == SUBMITURB:
                urb = _Urb(arg.resolve(0, URB_SIZE), client)
                if urb.kind == URB_TYPE_CONTROL:
                    urb.finish(self._control(urb))
                    self.completed.append(urb)
                elif urb.kind == URB_TYPE_BULK and urb.endpoint & 0x80:
                    self.waiting_in.append(urb)
                    self._feed_waiting()
                elif urb.kind == URB_TYPE_BULK:
                    self.received(urb.read(0, urb.length))
                    urb.finish(urb.length)
                    self.completed.append(urb)
                else:
                    client.complete(-1, errno.EINVAL)
                    return True
                client.complete(0, 0)
            elif request in (REAPURB, REAPURBNDELAY):
                self._feed_waiting()
                done = self._done(client)
                if done is not None:
                    self.completed.remove(done)
                    arg.resolve(0, 8).set_ptr(0, done.data)
                    client.complete(0, 0)
                else:
                    client.complete(-1, errno.ENODEV if self.gone else errno.EAGAIN)
            elif request == DISCARDURB:
                target = struct.unpack("<Q", _bytes(arg)[:8])[0]
                for urb in list(self.waiting_in):
                    if urb.addr == target and urb.client == client:
                        self.waiting_in.remove(urb)
                        urb.finish(0, -errno.ENOENT)
                        self.completed.append(urb)
                client.complete(0, 0)
            elif request == GET_CAPABILITIES:
                arg.resolve(0, 4).update(0, struct.pack("<I", 0))
                client.complete(0, 0)
            elif request == GETDRIVER:
                client.complete(-1, errno.ENODATA)
            elif request == CLAIMINTERFACE:
                self._claimed_by(client)
                client.complete(0, 0)
            elif request in (
                SETCONFIGURATION,
                SETINTERFACE,
                RELEASEINTERFACE,
                CLEAR_HALT,
                RESET,
                CONNECTINFO,
                CONTROL,
            ):
                client.complete(0, 0)
            else:
                client.complete(-1, errno.ENOTTY)
        return True

    def _done(self, client) -> _Urb | None:  # noqa: ANN001 - GI object
        """The first completed URB of ``client``, to be reaped."""
        return next((u for u in self.completed if u.client == client), None)


class BulkStation(BulkDevice):
    """A bulk device whose byte stream is held in two buffers the test (or a station's
    link) fills and drains."""

    def __init__(self, vendor: int, product: int, serial: str) -> None:
        self.ids = (vendor, product)
        self.inbound = bytearray()
        self.outbound = bytearray()
        super().__init__(
            {1: "bridgehub", 2: "Base station (simulated)", 3: serial}, self._got, self._take
        )

    def _got(self, data: bytes) -> None:
        self.inbound += data

    def _take(self) -> bytes:
        data = bytes(self.outbound)
        self.outbound.clear()
        return data

    def push(self, data: bytes) -> None:
        with self.lock:
            self.outbound += data
            self._feed_waiting()
            self.ready.notify_all()

    def pull(self) -> bytes:
        with self.lock:
            data = bytes(self.inbound)
            self.inbound.clear()
            return data


def attach(vendor: int, product: int, serial: str) -> tuple[UMockdev.Testbed, BulkStation]:
    """A testbed with one emulated bulk base station (needs umockdev-wrapper)."""
    testbed = UMockdev.Testbed.new()
    testbed.add_from_string(device_description(vendor, product, serial))
    station = BulkStation(vendor, product, serial)
    testbed.attach_ioctl("/dev/bus/usb/001/002", station)
    return testbed, station
