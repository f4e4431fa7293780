"""Guide cards: for each pair, round by round, where to sit, whom to meet, which boards;
for each table, round by round, who sits NS and EW with which boards. Pairs are named as
the room names them (a Mitchell's "NS 3" and "EW 3": ``hub/event/pair_labels.py``). Table
cards print as text, or as an HTML page with each table's join link and code as a QR code
for the players' phones (issue 15, docs/web-terminal.md)."""

from __future__ import annotations

from html import escape

from hub.event.movement.model import Movement
from hub.event.pair_labels import PairLabels

SIT_OUT = "sit out"


def _boards(boards: tuple[int, ...]) -> str:
    if not boards:
        return "-"
    if list(boards) == list(range(boards[0], boards[-1] + 1)):
        return f"{boards[0]}-{boards[-1]}" if len(boards) > 1 else str(boards[0])
    return ",".join(map(str, boards))


def pair_card(movement: Movement, section: str, pair: int) -> str:
    """One pair's guide card as text (``pair``: the hub's internal number)."""
    labels = PairLabels.of(movement, section)
    name = labels.label(pair)
    title = f"Section {section}, {name}" if labels.mitchell else f"Section {section}, pair {name}"
    lines = [title, "  round  table  sits  against  boards"]
    for rnd in range(1, movement.rounds + 1):
        row = next((r for r in movement.round_rows(rnd, section) if pair in r.pairs()), None)
        if row is None:
            lines.append(f"  {rnd:>5}  {SIT_OUT}")
            continue
        ns = row.ns_pair == pair
        opp = row.ew_pair if ns else row.ns_pair
        if not opp:
            lines.append(f"  {rnd:>5}  {row.table:>5}  {SIT_OUT} (no opponents this round)")
            continue
        lines.append(
            f"  {rnd:>5}  {row.table:>5}  {'NS' if ns else 'EW':>4}  {labels.label(opp):>7}  "
            f"{_boards(row.boards)}"
        )
    return "\n".join(lines)


def table_card(movement: Movement, section: str, table: int) -> str:
    """One table's card: each round's NS and EW pairs and boards ("sit out" opposite an
    empty seat)."""
    labels = PairLabels.of(movement, section)
    lines = [f"Section {section}, table {table}", "  round       NS       EW  boards"]
    for rnd in range(1, movement.rounds + 1):
        row = movement.row(section, table, rnd)
        if row is None or not (row.ns_pair or row.ew_pair):
            lines.append(f"  {rnd:>5}  {'no play':>7}")
            continue
        ns = labels.label(row.ns_pair) if row.ns_pair else SIT_OUT
        ew = labels.label(row.ew_pair) if row.ew_pair else SIT_OUT
        boards = _boards(row.boards) if row.ns_pair and row.ew_pair else "-"
        lines.append(f"  {rnd:>5}  {ns:>7}  {ew:>7}  {boards}")
    return "\n".join(lines)


def _ordered_pairs(movement: Movement, section: str) -> list[int]:
    """NS field first in a Mitchell, then EW; else by number."""
    labels = PairLabels.of(movement, section)
    return sorted(movement.pairs(section), key=lambda p: (labels.direction(p) == "EW", p))


def guide_cards(movement: Movement, pair: str | int | None = None) -> str:
    """Every pair's card (or only ``pair``'s: "3", "EW 3" or the internal number)."""
    cards = []
    for s in movement.sections:
        labels = PairLabels.of(movement, s)
        for p in _ordered_pairs(movement, s):
            if pair is None or _matches(labels, p, pair):
                cards.append(pair_card(movement, s, p))
    return "\n\n".join(cards)


def _matches(labels: PairLabels, internal: int, wanted: str | int) -> bool:
    text = str(wanted).strip().upper().replace(" ", "")
    return text in (labels.label(internal).replace(" ", ""), str(internal))


def table_cards(movement: Movement, table: int | None = None) -> str:
    """Every table's card (or only ``table``'s)."""
    return "\n\n".join(
        table_card(movement, s, t)
        for s in movement.sections
        for t in movement.tables(s)
        if table in (None, t)
    )


def grid(movement: Movement) -> str:
    """The movement as a round × table grid of ``NS-EW boards`` (room numbers)."""
    out = []
    for s in movement.sections:
        labels = PairLabels.of(movement, s)
        tables = movement.tables(s)
        out.append(f"Section {s}: {movement.layout.description}")
        switched = set(movement.layout.arrow_switch)
        if labels.mitchell:
            out.append("(NS-EW: NS pair, EW pair, each numbered from 1; 0 = sit out)")
            if switched:
                out.append("(* arrows switched: the EW pair sits NS, the NS pair EW)")
        elif any(0 in (r.ns_pair, r.ew_pair) for r in movement.rows if r.section == s):
            out.append("(NS-EW: NS pair, EW pair; 0 = sit out)")
        out.append("round " + "".join(f"{'table ' + str(t):>14}" for t in tables))
        for rnd in range(1, movement.rounds + 1):
            cells = []
            for t in tables:
                r = movement.row(s, t, rnd)
                if r is None:
                    cells.append("")
                    continue
                ns, ew = labels.to_room(r.ns_pair)[1], labels.to_room(r.ew_pair)[1]
                mark = "*" if labels.mitchell and (rnd, t) in switched else ""
                if mark:  # the NS field's pair first still: "1-2*", not "2-1" (NS 2?)
                    ns, ew = ew, ns
                cells.append(f"{max(ns, 0)}-{max(ew, 0)} {_boards(r.boards)}{mark}")
            out.append(f"{rnd:>5} " + "".join(f"{c:>14}" for c in cells))
    return "\n".join(out)


# -- printed table cards with the join link for phones (issue 15) ----------------------------
CARD_WORDS = {
    "en": {
        "section": "Section",
        "table": "Table",
        "code": "Table code",
        "scan": "Scan with the phone's camera to score this table, or open",
        "type": "and type the section, the table and the code.",
        "rounds": "Rounds at this table",
    },
    "sv": {
        "section": "Sektion",
        "table": "Bord",
        "code": "Bordskod",
        "scan": "Skanna med mobilens kamera för att rapportera vid detta bord, eller öppna",
        "type": "och skriv sektion, bord och koden.",
        "rounds": "Ronder vid detta bord",
    },
}

CARD_CSS = """
body { font-family: sans-serif; margin: 0; }
.card { break-inside: avoid; page-break-inside: avoid; border: 1px dashed #999;
        margin: 6mm; padding: 6mm; width: 170mm; }
.card h1 { font-size: 22pt; margin: 0 0 4mm 0; }
.join { display: flex; gap: 8mm; align-items: center; }
svg.qr { width: 50mm; height: 50mm; shape-rendering: crispEdges; flex: none; }
.code { font-family: monospace; font-size: 30pt; font-weight: bold; letter-spacing: 2mm; }
.link { font-family: monospace; font-size: 11pt; word-break: break-all; }
pre { font-size: 10pt; }
@media print { .card { border: none; } }
"""


def join_link(join: str, section: str, table: int, code: str) -> str:
    """The table's link for a phone (docs/web-terminal.md): ``join`` is the hub's web
    terminal address, ``http://HOST:PORT``."""
    return f"{join.rstrip('/')}/t/{section}{table}?c={code}"


def qr_svg(link: str, title: str) -> str:
    """The link as a QR code (error correction M: a creased card still scans), an inline
    SVG that scales to the size the page gives it."""
    import segno  # only printing the cards needs it

    return str(segno.make_qr(link, error="m").svg_inline(omitsize=True, svgclass="qr", title=title))


def table_cards_html(
    movements: list[Movement],
    title: str,
    join: str | None = None,
    codes: dict[tuple[str, int], str] | None = None,
    language: str = "en",
) -> str:
    """A printable page of table cards, one per table of each section's movement: the
    section and table, with ``join`` each table's QR code of its link, its code in large
    letters and the link written out, then the table's rounds (``table_card``)."""
    words = CARD_WORDS.get(language, CARD_WORDS["en"])
    cards = []
    for movement in movements:
        for section in movement.sections:
            for table in movement.tables(section):
                cards.append(_html_card(movement, section, table, words, join, codes or {}))
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(language)}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(title)}</title>\n<style>{CARD_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(cards)
        + "\n</body>\n</html>\n"
    )


def _html_card(
    movement: Movement,
    section: str,
    table: int,
    words: dict[str, str],
    join: str | None,
    codes: dict[tuple[str, int], str],
) -> str:
    head = f"{words['section']} {section} · {words['table']} {table}"
    parts = [f'<section class="card" id="{escape(section)}{table}">', f"<h1>{escape(head)}</h1>"]
    code = codes.get((section, table))
    if join is not None and code is not None:
        link = join_link(join, section, table, code)
        parts += [
            '<div class="join">',
            qr_svg(link, f"{section}{table}"),
            "<div>",
            f'<div>{escape(words["code"])}</div><div class="code">{escape(code)}</div>',
            f"<p>{escape(words['scan'])}</p>",
            f'<p class="link">{escape(join.rstrip("/"))}/</p>',
            f"<p>{escape(words['type'])}</p>",
            f'<p class="link"><a href="{escape(link)}">{escape(link)}</a></p>',
            "</div>",
            "</div>",
        ]
    parts += [f"<h2>{escape(words['rounds'])}</h2>"]
    parts += [f"<pre>{escape(table_card(movement, section, table))}</pre>", "</section>"]
    return "\n".join(parts)
