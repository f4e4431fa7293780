"""The results web pages (issue [PUBLISH]): ``bridgehub web``, live pages for phones and
laptops on the venue network as a client of the hub's API (decisions D1), and the static
export of the same pages; rendered with the printed report's templates (docs/web-results.md)."""
