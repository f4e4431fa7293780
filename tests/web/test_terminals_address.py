"""`bridgehub run --terminals 0.0.0.0:PORT` listens on every address, but the link it prints
is what a TD types into a phone: it must name an address of this machine, never 0.0.0.0
(issue 15 [ENTRY]: "serves a terminal web app to the venue network")."""

from __future__ import annotations

import socket

import pytest

from hub.web_terminal.address import page_url, terminals_address, venue_host


def test_a_given_address_is_printed_as_given():
    assert page_url("10.0.0.2", 7180) == "http://10.0.0.2:7180/"
    assert page_url("fe80::1", 7180) == "http://[fe80::1]:7180/"


def test_every_address_is_printed_as_one_of_this_machines_addresses():
    host = venue_host("0.0.0.0")
    assert host not in ("0.0.0.0", "")
    assert "0.0.0.0" not in page_url("0.0.0.0", 7180)
    with socket.socket() as s:  # an address of this machine: it can be bound
        s.bind((socket.gethostbyname(host), 0))


@pytest.mark.parametrize("given", ["7180", ":7180", "host:port", "10.0.0.2:70000"])
def test_a_badly_written_address_says_how_to_write_it(given):
    with pytest.raises(ValueError, match="write HOST:PORT"):
        terminals_address(given)
