"""Browser terminals (issue 15, docs/web-terminal.md): phones and tablets at the tables,
served by the hub over HTTP and a WebSocket, reaching the hub through the terminal port
(decisions D18) like a base station's terminals."""
