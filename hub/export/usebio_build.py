"""Pure builders: a USEBIO 1.2 document (``xml.etree.ElementTree``) from ``usebio_model``.

The USEBIO DTD (v1.2) is not public: the elements, their order and the attributes follow
real files of Compscore3 (Australia), with the NZ Scorer converter's ``SECTION`` wrapper
where an event has more than one section. See ``hub/export/usebio.py`` for what is left
out and why.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hub.export.usebio_model import (
    Board,
    Entrant,
    Event,
    EventType,
    Hand,
    Line,
    Match,
    Player,
    Section,
)

PROGRAM_NAME = "bridgehub"
VERSION = "1.2"


def _add(parent: ET.Element, tag: str, text: object | None = "") -> ET.Element:
    """A child element holding ``text`` (empty element for "")."""
    child = ET.SubElement(parent, tag)
    child.text = "" if text is None else str(text)
    return child


def _maybe(parent: ET.Element, tag: str, text: object | None) -> None:
    """A child element only when there is a value."""
    if text is not None and text != "":
        _add(parent, tag, text)


def player_element(p: Player) -> ET.Element:
    el = ET.Element("PLAYER")
    _add(el, "PLAYER_NAME", p.name)
    _maybe(el, "NATIONAL_ID_NUMBER", p.national_id)
    return el


def entrant_element(e: Entrant, teams: bool) -> ET.Element:
    """A ``PAIR`` in Compscore3's order (number, direction, totals, place, players), or a
    ``TEAM`` with ``TEAM_NUMBER`` and ``TEAM_NAME`` in its place (our naming: no teams file
    of either producer was found)."""
    if teams:
        el = ET.Element("TEAM")
        _add(el, "TEAM_NUMBER", e.number)
        _add(el, "TEAM_NAME", e.name or "")
    else:
        el = ET.Element("PAIR")
        _add(el, "PAIR_NUMBER", e.number)
        _add(el, "DIRECTION", e.direction)
    if e.total or not teams:  # a knockout's team has no total: its PLACE says it all
        _add(el, "TOTAL_SCORE", e.total)
    _maybe(el, "PERCENTAGE", e.percentage)
    _maybe(el, "PLACE", e.place)  # none for a pair or team not competing (D16)
    for p in e.players:
        el.append(player_element(p))
    return el


def line_element(line: Line, points: str | None) -> ET.Element:
    el = ET.Element("TRAVELLER_LINE")
    _add(el, "NS_PAIR_NUMBER", line.ns)
    _add(el, "EW_PAIR_NUMBER", line.ew)
    _maybe(el, "CONTRACT", line.contract)
    _maybe(el, "PLAYED_BY", line.played_by)
    _maybe(el, "LEAD", line.lead)
    if line.contract == "PASS":  # Compscore3: <TRICKS></TRICKS> on a passed-out board
        _add(el, "TRICKS", "")
    else:
        _maybe(el, "TRICKS", line.tricks)
    _add(el, "SCORE", line.score)
    if points and line.ns_points is not None and line.ew_points is not None:
        _add(el, f"NS_{points}", line.ns_points)
        _add(el, f"EW_{points}", line.ew_points)
    return el


def board_element(board: Board, event_type: EventType) -> ET.Element:
    el = ET.Element("BOARD", EVENT_TYPE=event_type.value)
    _add(el, "BOARD_NUMBER", board.number)
    _maybe(el, "BOARD_AVERAGE", board.average)
    for line in board.lines:
        el.append(line_element(line, event_type.points))
    return el


def match_element(m: Match) -> ET.Element:
    """A knockout's ``MATCH`` (our naming: no producer's file of a knockout was found)."""
    el = ET.Element("MATCH")
    _add(el, "MATCH_ID", m.identifier)
    _add(el, "ROUND", m.round)
    _add(el, "HOME_TEAM_NUMBER", m.home)
    _add(el, "AWAY_TEAM_NUMBER", m.away)
    _maybe(el, "HOME_CARRY_OVER", m.home_carry_over)
    _maybe(el, "AWAY_CARRY_OVER", m.away_carry_over)
    for s in m.segments:
        seg = ET.SubElement(el, "SEGMENT")
        _add(seg, "SEGMENT_NUMBER", s.number)
        _add(seg, "HOME_IMPS", s.home_imps)
        _add(seg, "AWAY_IMPS", s.away_imps)
    _maybe(el, "HOME_IMPS", m.home_imps)
    _maybe(el, "AWAY_IMPS", m.away_imps)
    _maybe(el, "WINNER_TEAM_NUMBER", m.winner)
    _maybe(el, "DECIDED_BY", m.decided_by)
    return el


def section_parts(section: Section, event_type: EventType) -> list[ET.Element]:
    """``PARTICIPANTS``, a knockout's ``MATCH``es and the section's ``BOARD``s."""
    teams = event_type is EventType.TEAMS
    participants = ET.Element("PARTICIPANTS", EVENT_TYPE=event_type.value)
    for e in section.entrants:
        participants.append(entrant_element(e, teams))
    matches = [match_element(m) for m in section.matches]
    return [participants, *matches, *(board_element(b, event_type) for b in section.boards)]


def handset_element(hands: dict[int, tuple[Hand, ...]]) -> ET.Element:
    """``HANDSET/BOARD/HAND`` as Compscore3 writes the deals."""
    el = ET.Element("HANDSET")
    for number, seats in sorted(hands.items()):
        board = ET.SubElement(el, "BOARD")
        _add(board, "BOARD_NUMBER", number)
        for h in seats:
            hand = ET.SubElement(board, "HAND")
            _add(hand, "DIRECTION", h.direction)
            _add(hand, "CLUBS", h.clubs)
            _add(hand, "DIAMONDS", h.diamonds)
            _add(hand, "HEARTS", h.hearts)
            _add(hand, "SPADES", h.spades)
    return el


def usebio_element(doc: Event) -> ET.Element:
    """The ``USEBIO`` root: ``CLUB``, ``EVENT`` and, with hand records, ``HANDSET``."""
    root = ET.Element("USEBIO", Version=VERSION)
    club = ET.SubElement(root, "CLUB")
    _add(club, "CLUB_NAME", doc.club_name)
    _add(club, "CLUB_ID_NUMBER", "")
    event = ET.SubElement(root, "EVENT", EVENT_TYPE=doc.event_type.value)
    _add(event, "EVENT_IDENTIFIER", doc.identifier)
    _add(event, "EVENT_DESCRIPTION", doc.description)
    _add(event, "PROGRAM_NAME", PROGRAM_NAME)
    _add(event, "PROGRAM_VERSION", doc.program_version)
    _add(event, "WINNER_TYPE", doc.winner_type)
    _add(event, "TITLE", doc.title)
    _add(event, "DATE", doc.date)
    _add(event, "VENUE", doc.venue)
    _add(event, "MPS_AWARDED_FLAG", "N")
    _add(event, "SESSION_COUNT", doc.session_count)
    _add(event, "SECTION_COUNT", len(doc.sections))
    _maybe(event, "SCORING_METHOD", doc.event_type.scoring_method)
    if len(doc.sections) == 1:
        event.extend(section_parts(doc.sections[0], doc.event_type))
    else:
        for s in doc.sections:
            wrapper = ET.SubElement(event, "SECTION", SECTION_ID=s.letter)
            wrapper.extend(section_parts(s, doc.event_type))
    if doc.hands:
        root.append(handset_element(doc.hands))
    return root


def usebio_tree(doc: Event) -> ET.ElementTree:
    """The document, indented. No DOCTYPE line (as the NZ converter's files): ElementTree
    does not write one, and the DTD it would name is not public."""
    root = usebio_element(doc)
    ET.indent(root, space="  ")
    return ET.ElementTree(root)
