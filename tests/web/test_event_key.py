"""A phone's terminal page keeps its table's state in the browser under the event's key
(docs/web-terminal.md `welcome`): last week's hands and unsent results must never reach this
week's event on the same phone, while a reload or a hub restart in the same event keeps
everything. The key is the same for one event every time it is read, and differs for
another event, in the same store or in a new store whose numbering starts again at 1."""

from __future__ import annotations

from event_text import one_section_event

from hub.store.store import Store
from hub.web_terminal.views import welcome

EVENT = one_section_event("Club pairs", 'kind = "mitchell", tables = 3, boards_per_round = 2')


def test_one_event_one_key_another_event_another(tmp_path):
    first = Store.open(f"sqlite:///{tmp_path / 'tuesday.db'}")
    tuesday = first.create_event(EVENT)
    key = first.event_key(tuesday)
    assert first.event_key(tuesday) == key  # a restart reads the same
    assert first.event_key(first.create_event(EVENT)) != key
    first.close()
    again = Store.open(f"sqlite:///{tmp_path / 'tuesday.db'}")
    assert again.event_key(tuesday) == key
    again.close()
    other = Store.open(f"sqlite:///{tmp_path / 'next-tuesday.db'}")
    next_week = other.create_event(EVENT)
    assert next_week == tuesday and other.event_key(next_week) != key  # both event 1
    other.close()


def test_the_welcome_names_the_events_key():
    msg = welcome("web-1", "Club pairs", "1@1764.5", "en", 1)
    assert msg["event_key"] == "1@1764.5" and msg["event"] == "Club pairs"
