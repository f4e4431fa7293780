"""Wire protocol and device transports (serial, USB) for terminals, base stations and clocks."""
