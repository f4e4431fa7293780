"""The projector names pairs as the room does (issue [EVENING], TD trial F16): in a Mitchell
EW 3 of a 7-table section is "EW 3", not the hub's own number 10."""

from __future__ import annotations

from hub.result_screen.barometer import screen_row


def test_a_mitchell_row_is_shown_with_its_room_label():
    row = {"rank": "1", "pair": 10, "direction": "EW", "label": "EW 3", "name": "Ann & Bo"}
    assert screen_row({**row, "text": "61.90"}).entrant == "EW 3"


def test_a_row_without_a_label_keeps_its_number_and_direction():
    row = {"rank": "2", "pair": 5, "direction": "NS", "text": "55.00"}
    assert screen_row(row).entrant == "5 NS"
