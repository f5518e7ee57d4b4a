"""The host's first screen (issue 26): at start ``noddy-server`` writes, for each LAN address
of the machine, the ``noddy-client`` and ``nc`` lines friends type."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

from noddy.server.lan import join_lines, lan_addresses


def test_every_address_gets_its_two_lines() -> None:
    assert join_lines("0.0.0.0", 3131, ["192.168.1.20", "10.0.0.5"]) == [
        "Friends on your network join with any of these lines:",
        "    noddy-client 192.168.1.20:3131",
        "    nc 192.168.1.20 3131",
        "    noddy-client 10.0.0.5:3131",
        "    nc 10.0.0.5 3131"]


def test_a_server_bound_to_one_address_names_that_one() -> None:
    assert join_lines("192.168.1.20", 4000, ["10.0.0.5"]) == [
        "Friends on your network join with any of these lines:",
        "    noddy-client 192.168.1.20:4000",
        "    nc 192.168.1.20 4000"]
    assert join_lines("127.0.0.1", 4000, ["10.0.0.5"]) == [
        "Only this machine can join (the server listens on 127.0.0.1 only):",
        "    noddy-client 127.0.0.1:4000",
        "    nc 127.0.0.1 4000"]


def test_a_server_with_tls_adds_the_tls_line_to_each_address() -> None:
    assert join_lines("0.0.0.0", 3131, ["192.168.1.20", "10.0.0.5"], tls_port=3132) == [
        "Friends on your network join with any of these lines:",
        "    noddy-client 192.168.1.20:3131",
        "    nc 192.168.1.20 3131",
        "    noddy-client tls://192.168.1.20:3132",
        "    noddy-client 10.0.0.5:3131",
        "    nc 10.0.0.5 3131",
        "    noddy-client tls://10.0.0.5:3132"]
    assert join_lines("0.0.0.0", 3131, [], tls_port=3132)[1:] == [
        "    noddy-client ADDRESS:3131", "    nc ADDRESS 3131", "    noddy-client tls://ADDRESS:3132"]


def test_no_address_found_says_so_and_still_shows_the_lines() -> None:
    assert join_lines("0.0.0.0", 3131, []) == [
        "No network address of this machine was found: friends type its address in",
        "    noddy-client ADDRESS:3131",
        "    nc ADDRESS 3131"]


def test_addresses_come_from_the_first_source_that_has_usable_ones() -> None:
    def interfaces() -> list[str]:
        return ["127.0.0.1", "169.254.3.4"]  # loopback and link-local only: nobody else reaches them

    def host_name() -> list[str]:
        return ["192.168.1.20", "127.0.1.1", "10.0.0.5", "192.168.1.20"]

    def route() -> list[str]:
        raise AssertionError("not asked: the host name gave addresses")

    assert lan_addresses([interfaces, host_name, route]) == ["192.168.1.20", "10.0.0.5"]
    assert lan_addresses([interfaces, lambda: []]) == []


def test_a_real_start_prints_the_lines_and_they_reach_the_server() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "noddy.server.cli", "--port", "0", "--db", ":memory:"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        line = proc.stdout.readline()
        assert line.startswith("noddy-server listening on 0.0.0.0:")
        port = int(line.rsplit(":", 1)[1])
        expected = join_lines("0.0.0.0", port, lan_addresses())
        while (text := proc.stderr.readline()) and text.rstrip("\n") != expected[0]:
            pass
        shown = [expected[0]] + [proc.stderr.readline().rstrip("\n") for _ in expected[1:]]
        assert shown == expected
        for address in lan_addresses():  # each address shown is one the server answers on
            assert f"    nc {address} {port}" in shown
            with socket.create_connection((address, port), timeout=5) as sock:
                assert json.loads(sock.makefile("rb").readline())["type"] == "greeting"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
