"""Result intake (decisions D9, D11, D21): accepted, held or refused, stored before the
answer, repeats never doubled, the same submission with other content held (never
dropped); and who may submit for a table. Terminals' wire messages go through the
base-station adapter (D18), so the codes the terminals see are checked too."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from drivers.protocol.link import Received
from drivers.protocol.messages import NO_DECLARER, NO_PLAY, NakCode, Result
from hub.live.port.base_station import REFUSALS, request
from hub.live.port.terminal_port import Outcome, ResultSubmission
from hub.live.results.intake import Intake, IntakeResult
from hub.live.results.no_play import NoPlay
from hub.live.results.result_writer import Queued, ResultWriter, store_no_plays, store_pending
from hub.live.results.stored import Stored
from hub.standings.rebuild import rebuild
from hub.store.store import ResultEntry, Store

ROOT = Path(__file__).parents[3]
EVENT = (ROOT / "examples" / "club_howell.toml").read_text("utf-8")
WITH_DEALS = EVENT.replace(
    'name = "Evening"', 'name = "Evening"\nhand_records = "realbridge_2021_online_qual_open_r2.pbn"'
)


class Desk:
    """Intake as the hub runs it: checked on the loop, stored by the writer, answered after
    the commit; what the terminal is told (its NAK code) as the base station says it."""

    def __init__(self, store: Store, eid: int) -> None:
        self.store, self.event_id = store, eid
        movements = {s: store.movement(eid, s) for s in store.sections(eid)}
        self.intake = Intake(movements, lambda who, what, d: store.audit(eid, who, what, d))
        self.intake.load(store.live_results(eid), Stored.read(store, eid).deals)

    def logon(self, serial, section, table, pin_ok=False):
        return Answer(IntakeResult(self.intake.logon(serial, section, table, pin_ok)))

    def submit(self, serial, msg: Result):
        sub = request("line", Received(1, 1, 1, msg))
        assert isinstance(sub, ResultSubmission)
        out = self.intake.prepare(serial, sub)
        if isinstance(out, IntakeResult):
            return Answer(out)
        if isinstance(out, NoPlay):  # recorded by the writer's commit, then answered
            (recorded,) = store_no_plays(self.store, self.event_id, [out])
            return Answer(self.intake.no_play_recorded(out, recorded))
        (stored,) = store_pending(self.store, self.event_id, [out])
        return Answer(self.intake.stored(out, stored))


class Answer:
    def __init__(self, out: IntakeResult) -> None:
        self.verdict = out.outcome
        self.text = out.verdict.text
        self.code = REFUSALS[out.verdict.reason] if out.verdict.reason else None
        self.stored, self.alert = out.stored, out.alert


class Verdict:
    ACCEPTED = Outcome.ACCEPTED
    HELD = Outcome.HELD
    DUPLICATE = Outcome.DUPLICATE
    REFUSED = Outcome.REFUSED
    LOGGED_ON = Outcome.OK


@pytest.fixture
def intake(store_url):
    store = Store.open(store_url)
    eid = store.create_event(EVENT)
    yield Desk(store, eid)
    store.close()


def result(
    table=1, rnd=1, board=1, ns=10, ew=1, contract="4S", declarer=0, lead="", tricks=10, revision=1
):
    return Result("A", table, rnd, board, ns, ew, contract, declarer, lead, tricks, 0, revision)


def test_an_accepted_result_is_stored_before_the_answer(intake, store_url):
    """D11: the result writer answers the terminal only after the commit: at the moment of
    the answer, another engine (a fresh connection to the store) already reads it."""
    assert intake.logon("BM-1", "A", 1).verdict is Verdict.LOGGED_ON
    sub = request("line", Received(1, 1, 1, result()))
    assert isinstance(sub, ResultSubmission)
    seen = []

    def answer(s, out):
        other = Store.open(store_url)
        try:
            live = other.live_results(intake.event_id)
            seen.append(
                (out.outcome, [(r.contract, r.declarer, r.tricks, r.entered_by) for r in live])
            )
        finally:
            other.close()

    async def then(s, out):
        return None

    writer = ResultWriter(intake.store, intake.event_id, intake.intake, answer, then)
    asyncio.run(writer.write([Queued("BM-1", sub)]))
    assert seen == [(Verdict.ACCEPTED, [("4S", "N", 10, "BM-1")])]


def test_a_repeat_is_a_duplicate_never_a_second_record(intake):
    intake.logon("BM-1", "A", 1)
    intake.submit("BM-1", result())
    again = intake.submit("BM-1", result())
    assert again.verdict is Verdict.DUPLICATE
    assert len(intake.store.results(intake.event_id)) == 1


@pytest.mark.parametrize(
    ("msg", "code", "text"),
    [
        (result(contract="8S"), NakCode.INVALID_RESULT, "level 1-7"),
        (result(contract="4S", declarer=NO_DECLARER), NakCode.INVALID_RESULT, "needs a declarer"),
        (result(tricks=14), NakCode.INVALID_RESULT, "tricks 14 must be 0-13"),
        (result(lead="ZZ"), NakCode.INVALID_RESULT, "is not a card"),
        (result(table=9), NakCode.NOT_LOGGED_ON, "log on to table A9 first"),
        (result(rnd=12), NakCode.NOT_IN_MOVEMENT, "round 12 is not in the movement"),
    ],
)
def test_refused_results_say_why(intake, msg, code, text):
    intake.logon("BM-1", "A", 1)
    out = intake.submit("BM-1", msg)
    assert out.verdict is Verdict.REFUSED and out.code is code and text in out.text
    assert intake.store.results(intake.event_id) == []
    assert intake.store.audit_log(intake.event_id)[-1]["action"] == "refused"


def test_wrong_board_or_pairs_are_held_for_the_director(intake):
    intake.logon("BM-1", "A", 1)
    wrong_board = intake.submit("BM-1", result(board=5))
    assert wrong_board.verdict is Verdict.HELD and "board 5 is not played" in wrong_board.alert
    swapped = intake.submit("BM-1", result(board=2, ns=1, ew=10))
    assert swapped.verdict is Verdict.HELD and "wrong way round" in swapped.alert
    assert intake.store.live_results(intake.event_id) == []


def test_the_players_read_why_a_result_is_held_and_a_resend_is_still_held(intake):
    """D9, D21: a held result is stored for the director; the players are told why (so they
    can say what happened when the director comes), and a resend of it (a lost answer) is
    told "held" again, not "already stored" as if it counted; the director is not alerted
    twice and nothing is stored twice."""
    intake.logon("BM-1", "A", 1)
    first = intake.submit("BM-1", result(board=5))
    assert first.verdict is Verdict.HELD and first.text.startswith("held for the director: ")
    assert "board 5 is not played at table 1 in round 1" in first.text
    again = intake.submit("BM-1", result(board=5))
    assert again.verdict is Verdict.HELD and again.text == first.text
    assert again.alert is None and again.stored is not None and again.stored.duplicate
    assert len(intake.store.results(intake.event_id)) == 1


def test_a_second_different_entry_is_held_but_a_correction_is_accepted(intake):
    intake.logon("BM-1", "A", 1)
    intake.submit("BM-1", result())
    fixed = intake.submit("BM-1", result(tricks=9, revision=2))
    assert fixed.verdict is Verdict.ACCEPTED
    assert [r.tricks for r in intake.store.live_results(intake.event_id)] == [9]
    intake.logon("BM-2", "A", 1, pin_ok=True)  # a replacement terminal, confirmed by the TD
    clash = intake.submit("BM-2", result(tricks=11))
    assert clash.verdict is Verdict.HELD and "second, different result" in clash.alert


def test_a_held_table_needs_the_directors_pin(intake):
    assert intake.logon("BM-1", "A", 1).verdict is Verdict.LOGGED_ON
    refused = intake.logon("BM-9", "A", 1)
    assert refused.verdict is Verdict.REFUSED and refused.code is NakCode.TABLE_HELD
    assert intake.submit("BM-9", result()).code is NakCode.NOT_LOGGED_ON
    assert intake.logon("BM-9", "A", 1, pin_ok=True).verdict is Verdict.LOGGED_ON
    assert intake.submit("BM-1", result()).code is NakCode.NOT_LOGGED_ON  # taken over
    assert intake.logon("BM-9", "A", 77).code is NakCode.NOT_IN_MOVEMENT


def test_a_takeover_armed_for_a_phone_serves_only_that_phone(intake):
    """D20 and docs/web-terminal.md ("re-issued by the director"): a phone with the table's
    new code may take the table from the lost phone; armed for that phone's serial, it is
    not left for the next terminal to come, whose claim still needs the director's PIN (the
    phone's log-on can be refused before it is used, e.g. by the event's terminal list)."""
    assert intake.logon("web-0000lostone", "A", 1).verdict is Verdict.LOGGED_ON
    intake.intake.allow_takeover("A", 1, "web-00newphone")
    stranger = intake.logon("BM-9", "A", 1)
    assert stranger.verdict is Verdict.REFUSED and stranger.code is NakCode.TABLE_HELD
    assert intake.logon("web-00newphone", "A", 1).verdict is Verdict.LOGGED_ON
    assert intake.logon("BM-9", "A", 1).code is NakCode.TABLE_HELD  # used once


def test_the_lead_must_be_in_the_opening_leaders_hand(store_url):
    """With hand records, the lead is checked: board 11 of the RealBridge deal file. A lead
    not in the leader's hand is held for the director with the reason (TD trial F3: never a
    silent refusal that stops the table)."""
    store = Store.open(store_url)
    eid = store.create_event(WITH_DEALS, base_dir=ROOT / "tests" / "data")
    intake = Desk(store, eid)
    movement = store.movement(eid, "A")
    row = next(r for r in movement.rows if 11 in r.boards)
    intake.logon("BM-1", "A", row.table)
    base = dict(table=row.table, rnd=row.round, board=11, ns=row.ns_pair, ew=row.ew_pair)
    # N: KT8.A96.A95.7542, E: Q5.KJ52.KQ874.T8; North declares, so East leads.
    bad = intake.submit("BM-1", result(**base, contract="3NT", lead="SK", tricks=9))
    assert bad.verdict is Verdict.HELD and "SK is not in E's hand" in bad.alert
    fixed = result(**base, contract="3NT", lead="dk", tricks=9, revision=2)
    good = intake.submit("BM-1", fixed)  # the table's correction
    assert good.verdict is Verdict.ACCEPTED and good.stored.lead == "DK"
    store.close()


def test_pass_out_and_no_play(intake):
    intake.logon("BM-1", "A", 1)
    passed = intake.submit("BM-1", result(contract="PASS", declarer=NO_DECLARER, tricks=0))
    assert passed.verdict is Verdict.ACCEPTED and passed.stored.contract == "PASS"
    noplay = intake.submit(
        "BM-1", result(board=2, contract="", declarer=NO_DECLARER, tricks=NO_PLAY)
    )
    assert noplay.verdict is Verdict.ACCEPTED and "not played" in noplay.alert
    view = rebuild(intake.store, intake.event_id)["A"]
    assert [b.board for b in view.boards] == [1]


def _td_erases(intake, board=1, table=1, rnd=1, ns=10, ew=1):
    """The director erases the board's result (the console's erase): the store's erasure,
    then intake reads the board back, as the hub does after a director's change."""
    erased = ResultEntry("A", table, rnd, board, ns, ew, erased=True, entered_by="TD")
    intake.store.record(intake.event_id, [erased])
    live = [r for r in intake.store.live_results(intake.event_id) if r.board == board]
    intake.intake.board_changed("A", board, live)


def test_d21_a_re_entry_after_an_erasure_with_the_same_revision_is_stored(intake):
    """Decisions D21: the TD erased the result; the terminal (firmware that starts again at
    revision 1) enters the board again. It is a new live result, never "duplicate"."""
    intake.logon("BM-1", "A", 1)
    assert intake.submit("BM-1", result()).verdict is Verdict.ACCEPTED
    _td_erases(intake)
    again = intake.submit("BM-1", result(tricks=9))  # revision 1 again
    assert again.verdict is Verdict.ACCEPTED, again.text
    assert [r.tricks for r in intake.store.live_results(intake.event_id)] == [9]
    assert intake.submit("BM-1", result(tricks=9)).verdict is Verdict.DUPLICATE  # its resend


def test_d21_the_same_content_after_an_erasure_is_accepted_again(intake):
    """Not a duplicate of the erased result: the same 4S= entered again after the erasure is
    the board's live result."""
    intake.logon("BM-1", "A", 1)
    intake.submit("BM-1", result())
    _td_erases(intake)
    assert intake.store.live_results(intake.event_id) == []
    again = intake.submit("BM-1", result())
    assert again.verdict is Verdict.ACCEPTED, again.text
    (live,) = intake.store.live_results(intake.event_id)
    assert (live.tricks, live.entered_by) == (10, "BM-1")


def test_d21_the_same_submission_with_other_content_is_held_never_dropped(intake):
    """A terminal that lost its revision counter in a reboot sends revision 1 again with
    another result: held for the director with that reason; the first stays live."""
    intake.logon("BM-1", "A", 1)
    intake.submit("BM-1", result())
    other = intake.submit("BM-1", result(tricks=11))
    assert other.verdict is Verdict.HELD
    assert "same submission, different content" in other.alert
    history = intake.store.results(intake.event_id)
    assert [(r.tricks, r.status) for r in history] == [(10, "accepted"), (11, "held")]
    assert [r.tricks for r in intake.store.live_results(intake.event_id)] == [10]
    assert intake.submit("BM-1", result(tricks=11)).verdict is Verdict.HELD  # still held
    assert intake.submit("BM-1", result()).verdict is Verdict.DUPLICATE
    assert len(intake.store.results(intake.event_id)) == 2
