"""The bridgehub wire protocol (BHWP/1), sans I/O: bytes in, typed events out.

See docs/protocol.md for the specification.
"""
