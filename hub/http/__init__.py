"""Plain HTTP for the hub's two web servers, the browser terminals' (``hub/web_terminal``)
and the results pages' (``hub/web_results``): one way to build a response with the
security headers every page and file carries. Neither server imports the other for it."""
