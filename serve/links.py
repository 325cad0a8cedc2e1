"""The start of the links the server hands out (organiser, scorer, watch): its public URL.

Given (`diamonds serve --public-url URL`, for a proxy or a name on the club's network), or else the
server's own address on the network it listens on: the address it was told to listen on, or, for a
wildcard (`0.0.0.0`, `::`), this machine's address on its local network, found without sending
anything. Never a request's Host header: a phone must get a link that reaches this server, whoever
asked for it and however they named it.
"""

from __future__ import annotations

import io
import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit

__all__ = ["PublicUrlError", "public_url", "check_public_url", "lan_address", "WILDCARDS", "table_links"]

WILDCARDS = ("0.0.0.0", "::", "")
# A private address no packet is sent to: connecting a UDP socket only picks the route (and so the
# source address the machine would use), it sends nothing.
_PROBES = ((socket.AF_INET, "10.255.255.255"), (socket.AF_INET6, "fd00::1"))


class PublicUrlError(ValueError):
    """--public-url is not an http(s) URL of a host (`url` as given)."""

    def __init__(self, url: str, why: str) -> None:
        super().__init__(f"--public-url {url!r}: {why} (for example http://192.168.1.20:8000)")
        self.url, self.why = url, why


def check_public_url(url: str) -> str:
    """The URL as links start with it (no trailing slash), or PublicUrlError."""
    if not url.isprintable() or any(c.isspace() for c in url):
        raise PublicUrlError(url, "no spaces or control characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise PublicUrlError(url, "an http:// or https:// URL with a host")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise PublicUrlError(url, "no query, fragment or user")
    if parts.path not in ("", "/"):  # the pages call /api/… from the root of their origin
        raise PublicUrlError(url, "no path: the pages are served from the root of the URL")
    try:
        parts.port  # noqa: B018 - raises on a port out of range
    except ValueError:
        raise PublicUrlError(url, "the port is not a number from 0 to 65535") from None
    return url.rstrip("/")


def public_url(host: str, port: int, given: str | None = None) -> str:
    """The links' start: `given` if any, else http://ADDRESS:PORT with the address `host` stands for."""
    if given:
        return check_public_url(given)
    address = lan_address(host) if host in WILDCARDS else host
    shown = f"[{address}]" if ":" in address else address
    return f"http://{shown}:{port}"


def lan_address(host: str = "0.0.0.0") -> str:
    """This machine's address on its local network (IPv4 first; IPv6 too when listening on `::`); the
    loopback address when it has none (no network: only this machine can reach it anyway)."""
    families = [socket.AF_INET, socket.AF_INET6] if host == "::" else [socket.AF_INET]
    for family, probe in _PROBES:
        if family not in families:
            continue
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                address = str(sock.getsockname()[0])
        except OSError:
            continue
        if _usable(address):
            return address
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)
    except OSError:
        found = []
    for family in families:
        for info in found:
            address = str(info[4][0])
            if info[0] == family and _usable(address):
                return address
    return "127.0.0.1"


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def table_links(base: str, table_id: str, token: str) -> dict[str, str]:
    """A table's links as the API hands them out: its id, the scorer's token and link (with its QR code, an SVG
    element that stands on its own, with its namespace, for the page's DOMParser) and the watch link."""
    import segno

    scorer_url = f"{base}/score/{table_id}#token={token}"
    buffer = io.BytesIO()
    code: Any = segno.make(scorer_url, error="m")
    code.save(buffer, kind="svg", xmldecl=False, svgns=True, nl=False, scale=3, title="the scorer's link",
              light="#ffffff")
    return {"id": table_id, "scorer_token": token, "scorer_url": scorer_url, "watch_url": f"{base}/watch/{table_id}",
            "qr_svg": buffer.getvalue().decode("utf-8")}
