"""The host's first screen: which addresses friends on the LAN can give ``noddy-client`` or
``nc`` to reach this server.

A server listening on every interface (``0.0.0.0``, the default) is known to the others by
the machine's own addresses, which the host rarely knows by heart; so at start
``noddy-server`` writes, for each of them, the exact lines to type (:func:`join_lines`).
Finding them needs no package and sends nothing (:func:`lan_addresses`): the address of each
network interface (Linux: ``SIOCGIFADDR`` for each of ``socket.if_nameindex()``), else the
addresses the host name resolves to, else the one the system would send from to a private
address (a UDP socket *connected*, which sends no packet).  Loopback and link-local
(169.254.x.x) addresses are left out: nobody else reaches the server there.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
from typing import Callable, Iterable

from noddy.protocol.i18n import _

#: Linux's ioctl that reads an interface's IPv4 address.
SIOCGIFADDR = 0x8915

#: The listening addresses that mean every interface.
EVERY_INTERFACE = ("0.0.0.0", "", "::")


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def _from_interfaces() -> list[str]:
    """Each interface's IPv4 address (Linux ioctl); nothing where that is not available."""
    try:
        import fcntl
        names = [name for _, name in socket.if_nameindex()]
    except (ImportError, OSError, AttributeError):
        return []
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for name in names:
            request = struct.pack("256s", name.encode()[:15])
            try:
                reply = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, request)
            except OSError:  # an interface without an IPv4 address
                continue
            found.append(socket.inet_ntoa(reply[20:24]))
    return found


def _from_host_name() -> list[str]:
    with contextlib.suppress(OSError, UnicodeError):
        return [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    return []


def _from_route() -> list[str]:
    """The address the system would send from towards a private network: connecting a UDP
    socket only chooses the route, nothing is sent."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.connect(("10.255.255.255", 9))
        return [sock.getsockname()[0]]
    return []


def lan_addresses(sources: Iterable[Callable[[], list[str]]] = (_from_interfaces, _from_host_name,
                                                                _from_route)) -> list[str]:
    """The machine's IPv4 addresses others on the network may reach, in the order found, each
    once: from the first of ``sources`` that finds any."""
    for source in sources:
        found = list(dict.fromkeys(a for a in source() if _usable(a)))
        if found:
            return found
    return []


def join_lines(host: str, port: int, addresses: list[str], tls_port: int | None = None) -> list[str]:
    """What the host is told at start: for each address friends can use, the exact
    ``noddy-client ADDRESS:PORT`` and ``nc ADDRESS PORT`` lines, each on a line of its own
    (to copy whole), and ``noddy-client tls://ADDRESS:TLS_PORT`` when the server also
    listens with TLS (``tls_port``).

    >>> print("\\n".join(join_lines("0.0.0.0", 3131, ["192.168.1.20", "10.0.0.5"])))
    Friends on your network join with any of these lines:
        noddy-client 192.168.1.20:3131
        nc 192.168.1.20 3131
        noddy-client 10.0.0.5:3131
        nc 10.0.0.5 3131
    >>> join_lines("127.0.0.1", 4000, [])[0]
    'Only this machine can join (the server listens on 127.0.0.1 only):'
    >>> join_lines("10.0.0.5", 3131, [], tls_port=3132)[1:]
    ['    noddy-client 10.0.0.5:3131', '    nc 10.0.0.5 3131', '    noddy-client tls://10.0.0.5:3132']
    """
    loopback = ipaddress.ip_address(host).is_loopback if _is_ip(host) else host == "localhost"
    if host not in EVERY_INTERFACE:
        addresses = [host]
    if not addresses:
        addresses, head = ["ADDRESS"], _("No network address of this machine was found: friends type its "
                                         "address in")
    else:
        head = (_("Only this machine can join (the server listens on {host} only):").format(host=host)
                if loopback else _("Friends on your network join with any of these lines:"))
    return [head] + [line for a in addresses for line in _lines(a, port, tls_port)]


def _lines(address: str, port: int, tls_port: int | None) -> list[str]:
    """One address's lines (a TLS client verifies the certificate: see PROTOCOL.md, Encryption)."""
    lines = [f"    noddy-client {address}:{port}", f"    nc {address} {port}"]
    if tls_port is not None:
        lines.append(f"    noddy-client tls://{address}:{tls_port}")
    return lines


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True
