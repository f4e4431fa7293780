"""The TD console: a Textual client of the hub API (decisions D1)."""
