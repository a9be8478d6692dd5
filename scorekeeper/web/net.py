"""The laptop's LAN address, and the QR code drawn in the terminal. No starlette here.

The address is found by the UDP-connect trick: connecting a UDP socket sends no packet, but makes
the system pick the interface (and address) it would route by; it is then cross-checked against
the interfaces' own addresses (``ifaddr``), so that a VPN or a stale route is not printed alone.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Callable, Iterable

#: TEST-NET-1 (RFC 5737): never routed anywhere; connect() on UDP only picks the route.
PROBE = ("192.0.2.1", 9)


def udp_guess(probe: tuple[str, int] = PROBE) -> str | None:
    """The address the system would send from (no packet is sent by a UDP connect)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(probe)
        return s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()


def interface_addresses(adapters: Iterable | None = None) -> list[str]:
    """Every IPv4 address of the interfaces that another device could reach (no loopback,
    no link-local), in interface order."""
    if adapters is None:
        import ifaddr

        adapters = ifaddr.get_adapters()
    out: list[str] = []
    for adapter in adapters:
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue  # IPv6: (address, flowinfo, scope)
            addr = ipaddress.ip_address(ip.ip)
            if addr.is_loopback or addr.is_link_local or addr.is_unspecified:
                continue
            if ip.ip not in out:
                out.append(ip.ip)
    return out


def lan_addresses(guess: Callable[[], str | None] = udp_guess,
                  adapters: Iterable | None = None) -> list[str]:
    """The candidate addresses, best first: the routed one when an interface holds it, then the
    other private addresses, then the rest. ``["127.0.0.1"]`` when there is no network."""
    found = interface_addresses(adapters)
    routed = guess()
    ordered = sorted(found, key=lambda a: (a != routed, not ipaddress.ip_address(a).is_private))
    return ordered or ["127.0.0.1"]


def qr_lines(text: str) -> list[str]:
    """``text`` as a QR code for a terminal: two modules a character (▀), drawn with explicit
    black and white (256-colour 16 and 231) so that it scans on light and dark themes alike."""
    import segno

    qr = segno.make(text, error="m")
    rows = [[bool(v) for v in row] for row in qr.matrix_iter(scale=1, border=4)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    colour = {True: 16, False: 231}  # dark module: black; light: white
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2]):
        line = "".join(f"\x1b[38;5;{colour[t]}m\x1b[48;5;{colour[b]}m▀" for t, b in zip(top, bottom))
        lines.append(line + "\x1b[0m")
    return lines
