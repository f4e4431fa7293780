"""A base station on USB bulk endpoints, emulated through umockdev for the hub's pyusb
path (no USB hardware or kernel USB exists on these machines). Run under
``umockdev-wrapper``. It answers the usbdevfs ioctls libusb issues: control transfers
(descriptors, vendor requests), bulk URBs both ways, reaping and discarding.

x86-64 layouts; ``struct usbdevfs_urb`` is 56 bytes: type @0, endpoint @1, status @4,
buffer pointer @16, buffer_length @24, actual_length @28.
"""

from __future__ import annotations

import ctypes
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


def _peek(addr: int, size: int) -> bytes:
    return ctypes.string_at(addr, size)


def _poke(addr: int, data: bytes, local=None, offset: int = 0) -> None:  # noqa: ANN001
    """Write into the client's memory (umockdev-wrapper runs the handler in-process) and,
    when the write belongs to the call being answered, into umockdev's copy too."""
    ctypes.memmove(addr + offset, data, len(data))
    if local is not None:
        local.update(offset, data)


class _Urb:
    """A submitted URB: its address, type, endpoint and buffer."""

    def __init__(self, local, addr: int) -> None:  # noqa: ANN001
        self.local = local
        self.addr = addr
        raw = _peek(addr, URB_SIZE)
        self.kind, self.endpoint = raw[0], raw[1]
        self.buffer = struct.unpack_from("<Q", raw, 16)[0]
        self.length = struct.unpack_from("<i", raw, 24)[0]

    def finish(self, actual: int, status: int = 0, during_submit: bool = False) -> None:
        local = self.local if during_submit else None
        _poke(self.addr, struct.pack("<i", status), local, 4)
        _poke(self.addr, struct.pack("<i", actual), local, 28)


class BulkDevice(UMockdev.IoctlBase):
    """The usbdevfs side of a bulk device. ``received`` gets what the host writes to the
    OUT endpoint; ``to_host`` returns what the IN endpoint should deliver next."""

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

    def _control(self, urb: _Urb) -> int:
        setup = _peek(urb.buffer, 8)
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
        reply = reply[:length]
        if reply:
            ctypes.memmove(urb.buffer + 8, reply, len(reply))
        return len(reply)

    def _feed_waiting(self) -> None:
        while self.waiting_in:
            pending = self._held or self.to_host()
            self._held = b""
            if not pending:
                return
            urb = self.waiting_in.pop(0)
            chunk, self._held = pending[: urb.length], pending[urb.length :]
            ctypes.memmove(urb.buffer, chunk, len(chunk))
            urb.finish(len(chunk))
            self.completed.append(urb)

    def do_handle_ioctl(self, client) -> bool:  # noqa: ANN001 - GI object
        request = client.get_request()
        arg = client.get_arg()
        with self.lock:
            if request == SUBMITURB:
                local = arg.resolve(0, URB_SIZE)
                urb = _Urb(local, local.client_addr)
                if urb.kind == URB_TYPE_CONTROL:
                    urb.finish(self._control(urb), during_submit=True)
                    self.completed.append(urb)
                elif urb.kind == URB_TYPE_BULK and urb.endpoint & 0x80:
                    self.waiting_in.append(urb)
                    self._feed_waiting()
                elif urb.kind == URB_TYPE_BULK:
                    self.received(_peek(urb.buffer, urb.length))
                    urb.finish(urb.length, during_submit=True)
                    self.completed.append(urb)
                else:
                    client.complete(-1, errno.EINVAL)
                    return True
                client.complete(0, 0)
            elif request in (REAPURB, REAPURBNDELAY):
                self._feed_waiting()
                if self.completed:
                    slot = arg.resolve(0, 8)
                    _poke(slot.client_addr, struct.pack("<Q", self.completed.pop(0).addr), slot)
                    client.complete(0, 0)
                else:
                    client.complete(-1, errno.EAGAIN)
            elif request == DISCARDURB:
                target = arg.resolve(0, URB_SIZE).client_addr
                for urb in list(self.waiting_in):
                    if urb.addr == target:
                        self.waiting_in.remove(urb)
                        urb.finish(0, -errno.ENOENT)
                        self.completed.append(urb)
                client.complete(0, 0)
            elif request == GET_CAPABILITIES:
                slot = arg.resolve(0, 4)
                _poke(slot.client_addr, struct.pack("<I", 0), slot)
                client.complete(0, 0)
            elif request == GETDRIVER:
                client.complete(-1, errno.ENODATA)
            elif request in (
                SETCONFIGURATION,
                SETINTERFACE,
                CLAIMINTERFACE,
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
