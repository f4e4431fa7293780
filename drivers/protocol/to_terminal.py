"""What the hub sends to a table's terminal (BHWP/1, docs/protocol.md §4): its seating,
travellers, rankings, the clock, the director's messages, the next seating, settings,
player names and hand records. Re-exported by ``drivers.protocol.messages``, where every
wire name is imported from. Sans-I/O values: any thread."""

from __future__ import annotations

from dataclasses import dataclass

from drivers.protocol.codec import I32, STR8, TEXT8, TEXT16, U8, U16, ListOf
from drivers.protocol.layout import Message, RankLine, Setting, TravellerEntry, f, message


# -- hub → terminal -------------------------------------------------------------------------
@message(0x20, "hub → terminal")
@dataclass(frozen=True, slots=True)
class Assignment(Message):
    """The table's current round: who sits NS and EW and the boards. Sent after every
    accepted LOGON and to every table when a round starts, each time after SETTINGS; it may
    come again for the same round (a new log-on, a lost one sent again): the round number
    says which."""

    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    ns_pair: int = f(U16, "0 for an empty seat")
    ew_pair: int = f(U16, "0 for an empty seat")
    boards: tuple[int, ...] = f(ListOf(U16, 64), "boards of the round", ())


@message(0x21, "hub → terminal")
@dataclass(frozen=True, slots=True)
class ResultView(Message):
    """The table's own score and the board's traveller as scored at that moment, when the
    event shows travellers: after each result of this table is accepted (a correction
    too), and again when the director changes the board during the table's round. It is
    not refreshed when later tables play the board (a board played once shows 50 %), but
    in a teams event the other room's table of the match gets it again when the second room
    plays the board during the round: both rooms' results and the IMPs."""

    section: str = f(STR8)
    board: int = f(U16)
    own_score_ns: int = f(I32)
    own_value: int = f(I32, "the table's NS percent or IMPs, hundredths")
    value_kind: int = f(U8, "0 percent, 1 IMPs")
    lines: tuple[TravellerEntry, ...] = f(ListOf(TravellerEntry, 64), default=())


@message(0x22, "hub → terminal")
@dataclass(frozen=True, slots=True)
class RankingPage(Message):
    """The standings after a round, sent to every table of the section when they are
    published (once the round is complete and its questions settled, or released by the
    director), usually after the next round's ASSIGNMENT; not sent when the event hides
    rankings. At most 32 lines a page, best first."""

    section: str = f(STR8)
    round: int = f(U16, "standings after this round")
    page: int = f(U8, "1 … pages")
    pages: int = f(U8, "pages of this ranking")
    lines: tuple[RankLine, ...] = f(ListOf(RankLine, 32), default=())


@message(0x23, "hub → terminal", needs_ack=False)
@dataclass(frozen=True, slots=True)
class Clock(Message):
    """The round clock: with every ASSIGNMENT, when the phase changes and every 30 s; the
    terminal counts down itself in between. Unsequenced, so it may overtake queued
    messages."""

    section: str = f(STR8)
    round: int = f(U16)
    phase: int = f(U8, "0 play, 1 last board, 2 no new board, 3 move, 4 paused, 5 break")
    seconds_left: int = f(I32, "negative when over time")


@message(0x24, "hub → terminal")
@dataclass(frozen=True, slots=True)
class TDMessage(Message):
    """Text for the players: from the director, or the hub telling the table that the
    director erased or entered one of its boards."""

    text: str = f(TEXT16)
    beep: int = f(U8, "1 to alert the players", 0)


@message(0x25, "hub → terminal")
@dataclass(frozen=True, slots=True)
class NextSeating(Message):
    """Where a pair of the table plays next, one message per pair (NS pair first): sent
    when the table has finished its boards of the round (or the director ended the
    round), before the next round's ASSIGNMENT. Table 0: the pair has no table in that
    round (it sits out); with ``round`` past the last round (SETTINGS ``rounds``) the
    session is over."""

    section: str = f(STR8)
    round: int = f(U16, "the round it is for (the next one)")
    pair: int = f(U16)
    table: int = f(U16, "0: no table (see above)")
    seat_ns: int = f(U8, "1 NS, 0 EW")
    opponents: int = f(U16, "0: none")
    boards: tuple[int, ...] = f(ListOf(U16, 64), "empty with table 0", ())


@message(0x26, "hub → terminal")
@dataclass(frozen=True, slots=True)
class Settings(Message):
    """The section's settings, before every ASSIGNMENT, and alone when the director starts
    a waiting round's clock or the session ends: ``section`` (its letter) and ``rounds``
    (the number of rounds of the session, in decimal); ``clock`` = ``waiting``
    while the round's clock waits for the director's start (show "waiting for the director";
    results are taken all the same); ``final`` = ``1`` once the session is over (show "final
    results": the RANKING pages that follow are the final standings). A terminal ignores
    keys it does not know."""

    entries: tuple[Setting, ...] = f(ListOf(Setting, 64), default=())


@message(0x27, "hub → terminal")
@dataclass(frozen=True, slots=True)
class PlayerName(Message):
    """The answer to PLAYER_NUMBER: the name the event gives that member number, empty when
    the event does not know the number."""

    section: str = f(STR8)
    table: int = f(U16)
    round: int = f(U16)
    seat: int = f(U8, "seat 0 N, 1 E, 2 S, 3 W")
    number: str = f(STR8, "as keyed")
    name: str = f(TEXT8, "empty: an unknown number")


@message(0x28, "hub → terminal")
@dataclass(frozen=True, slots=True)
class HandRecord(Message):
    """The board's hand record once the table has played it (after its RESULT_VIEW), when
    the event has hand records and shows travellers: the deal, what each declarer makes
    double dummy and the par, so the players see what was makeable. Not sent for a board
    without a hand record. Every table gets one for every board it played: right after its
    RESULT_VIEW when the board's double dummy is known (a file with DoubleDummyTricks, or
    solved already), else as soon as it is solved, within 10 s of that RESULT_VIEW (§3,
    "Hand records"); it may then come after later messages."""

    section: str = f(STR8)
    board: int = f(U16)
    deal: str = f(STR8, "PBN deal, N E S W from N: N:AKQ2.J5.T98.AK3 … (suits ♠.♥.♦.♣)")
    tricks: tuple[int, ...] = f(
        ListOf(U8, 20), "double-dummy tricks: NT, ♠, ♥, ♦, ♣, each by N, S, E, W", ()
    )
    par_score: int = f(I32, "the par score to NS (negative: to EW)", 0)
    par: str = f(TEXT8, "the par as text: NS 620: 4♥ N, 4♥ S", "")
    makeable: str = f(TEXT8, "the makeable contracts as text: NS 4♥, EW 3♣", "")


@message(0x29, "hub → terminal")
@dataclass(frozen=True, slots=True)
class MatchScore(Message):
    """The running score of the table's team match (teams events), when the event shows
    travellers and the round's rankings are not hidden (``hide_rankings_last_rounds``):
    once the table has a result on every board of the round (the end of its segment),
    and again each time the other room brings a board to compare or the director changes
    one of the round's boards. The home team sits NS in the open room and EW in the
    closed room; IMPs are those won by each side over the boards played in both rooms,
    VPs on the event's scale for those boards. A knockout's match is never converted to
    VPs: both VP fields are 0 there, and its carry-over is not in the IMPs (the console
    and the screens show the total)."""

    section: str = f(STR8)
    round: int = f(U16)
    home: int = f(U16, "the home team")
    away: int = f(U16, "the away team")
    home_imps: int = f(I32, "IMPs won by the home team, hundredths")
    away_imps: int = f(I32, "IMPs won by the away team, hundredths")
    home_vp: int = f(I32, "the home team's VPs, hundredths")
    away_vp: int = f(I32, "the away team's VPs, hundredths")
    scored: int = f(U16, "boards the score is over (played in both rooms)")
    out: int = f(U16, "boards of the round not yet played in both rooms")
    home_name: str = f(TEXT8, "the home team's name", "")
    away_name: str = f(TEXT8, "the away team's name", "")
