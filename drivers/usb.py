"""USB: finding base stations and clocks by vendor id, product id and serial number
(configuration, never a guess), and a bulk-endpoint transport through pyusb."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass

import serial.tools.list_ports
import usb.core
import usb.util

from drivers.line import LineError


@dataclass(frozen=True, slots=True)
class UsbSelector:
    """``usb:VID:PID[:SERIAL]`` (hexadecimal ids), as given on the command line."""

    vendor: int
    product: int
    serial: str | None = None

    @classmethod
    def parse(cls, text: str) -> UsbSelector:
        parts = text.split(":")
        if len(parts) not in (3, 4) or parts[0] != "usb":
            raise ValueError(f"{text!r} is not usb:VID:PID[:SERIAL]")
        try:
            vendor, product = int(parts[1], 16), int(parts[2], 16)
        except ValueError:
            raise ValueError(f"{text!r}: vendor and product ids are hexadecimal") from None
        return cls(vendor, product, parts[3] if len(parts) == 4 and parts[3] else None)

    def __str__(self) -> str:
        tail = f":{self.serial}" if self.serial else ""
        return f"usb:{self.vendor:04x}:{self.product:04x}{tail}"


@dataclass(frozen=True, slots=True)
class FoundDevice:
    kind: str  # "serial" (a tty) or "usb" (bulk endpoints)
    url: str
    vendor: int
    product: int
    serial: str | None
    description: str


def find_serial_ports(vendor: int, product: int, serial_no: str | None = None) -> list[FoundDevice]:
    """USB-serial ports whose device has these ids (and serial), via list_ports."""
    out = []
    for port in serial.tools.list_ports.comports():
        if port.vid != vendor or port.pid != product:
            continue
        if serial_no is not None and port.serial_number != serial_no:
            continue
        out.append(
            FoundDevice(
                "serial", port.device, vendor, product, port.serial_number, port.description or ""
            )
        )
    return out


def _serial_of(dev: usb.core.Device) -> str | None:
    try:
        return usb.util.get_string(dev, dev.iSerialNumber) if dev.iSerialNumber else None
    except (usb.core.USBError, ValueError, NotImplementedError):
        return None


def find_usb_devices(selector: UsbSelector) -> list[FoundDevice]:
    """Bulk USB devices matching the selector, via pyusb (libusb)."""
    out = []
    try:
        devices = (
            usb.core.find(find_all=True, idVendor=selector.vendor, idProduct=selector.product) or []
        )
    except usb.core.NoBackendError:
        return []
    for dev in devices:
        serial_no = _serial_of(dev)
        if selector.serial is not None and serial_no != selector.serial:
            continue
        product = ""
        with contextlib.suppress(usb.core.USBError, ValueError, NotImplementedError):
            product = usb.util.get_string(dev, dev.iProduct) if dev.iProduct else ""
        out.append(
            FoundDevice(
                "usb",
                str(UsbSelector(selector.vendor, selector.product, serial_no)),
                selector.vendor,
                selector.product,
                serial_no,
                product or "",
            )
        )
    return out


class UsbTransport:
    """A bulk IN and a bulk OUT endpoint carrying the BHWP/1 byte stream. A reader thread
    does the blocking reads and hands bytes to the asyncio loop."""

    def __init__(
        self, url: str, device: usb.core.Device, ep_in: usb.core.Endpoint, ep_out: usb.core.Endpoint
    ) -> None:
        self.url = url
        self._dev = device
        self._in = ep_in
        self._out = ep_out
        self._queue: asyncio.Queue[bytes | Exception] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._reader, name=f"usb {url}", daemon=True)
        self._thread.start()

    @classmethod
    async def open(cls, url: str) -> UsbTransport:
        try:
            selector = UsbSelector.parse(url)
        except ValueError as e:
            raise LineError(str(e)) from None

        def claim() -> tuple[usb.core.Device, usb.core.Endpoint, usb.core.Endpoint]:
            found = find_usb_devices(selector)
            if not found:
                raise LineError(f"no USB device {selector}")
            sel = UsbSelector.parse(found[0].url)
            dev = usb.core.find(
                idVendor=sel.vendor,
                idProduct=sel.product,
                custom_match=lambda d: sel.serial is None or _serial_of(d) == sel.serial,
            )
            if dev is None:
                raise LineError(f"{selector} went away")
            try:
                with contextlib.suppress(NotImplementedError, usb.core.USBError):
                    if dev.is_kernel_driver_active(0):
                        dev.detach_kernel_driver(0)
                dev.set_configuration()
                usb.util.claim_interface(dev, 0)
                intf = dev.get_active_configuration()[(0, 0)]
            except usb.core.USBError as e:
                raise LineError(f"{selector}: {e}") from None
            ep_in = usb.util.find_descriptor(
                intf,
                custom_match=lambda e: (
                    usb.util.endpoint_direction(e.bEndpointAddress) == usb.util.ENDPOINT_IN
                    and usb.util.endpoint_type(e.bmAttributes) == usb.util.ENDPOINT_TYPE_BULK
                ),
            )
            ep_out = usb.util.find_descriptor(
                intf,
                custom_match=lambda e: (
                    usb.util.endpoint_direction(e.bEndpointAddress) == usb.util.ENDPOINT_OUT
                    and usb.util.endpoint_type(e.bmAttributes) == usb.util.ENDPOINT_TYPE_BULK
                ),
            )
            if ep_in is None or ep_out is None:
                raise LineError(f"{selector} has no bulk IN and OUT endpoints on interface 0")
            return dev, ep_in, ep_out

        dev, ep_in, ep_out = await asyncio.to_thread(claim)
        return cls(url, dev, ep_in, ep_out)

    def _reader(self) -> None:
        while not self._stop.is_set():
            try:
                data = bytes(self._in.read(self._in.wMaxPacketSize * 8, timeout=100))
            except usb.core.USBTimeoutError:
                continue
            except usb.core.USBError as e:
                self._loop.call_soon_threadsafe(
                    self._queue.put_nowait, LineError(f"{self.url}: {e}")
                )
                return
            if data:
                self._loop.call_soon_threadsafe(self._queue.put_nowait, data)

    async def read(self) -> bytes:
        item = await self._queue.get()
        if isinstance(item, Exception):
            raise item
        return item

    async def write(self, data: bytes) -> None:
        try:
            await asyncio.to_thread(self._out.write, data, 1000)
        except usb.core.USBError as e:
            raise LineError(f"{self.url}: {e}") from None

    async def close(self) -> None:
        self._stop.set()
        await asyncio.to_thread(self._thread.join, 1.0)
        with contextlib.suppress(usb.core.USBError):
            usb.util.dispose_resources(self._dev)
