"""The hub API (decisions D1): a feed (snapshot, then numbered change events) and TD
commands, as JSON over a WebSocket. Specified in docs/api.md."""
