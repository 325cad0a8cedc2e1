"""`diamonds serve [DIR]`: the club night in the browser (docs/serve.md).

FastAPI, uvicorn and segno are the `serve` extra: imported here, when the command runs, so the rest
of the command never pays for them; without them the command says so in one line. The links it prints
and the server hands out start with --public-url, or the server's own address on the network it listens
on (`diamonds.serve.links`); the organiser's link is printed with its QR code.
"""

from __future__ import annotations

import argparse
import gc
import ipaddress
import sys

from diamonds.io.errors import UserError
from diamonds.io.escape import visible
from diamonds.io.interrupt import note_output, reset_journal

from .errors import CommandError

__all__ = ["run"]

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def run(args: argparse.Namespace) -> int:
    try:
        import fastapi  # noqa: F401
        import segno  # noqa: F401
        import uvicorn
    except ImportError as error:
        raise CommandError(f"needs the serve extra ({error.name} is missing): pip install 'diamonds[serve]'") from None
    from diamonds.serve.app import create_app, http_protocol
    from diamonds.serve.club import Club
    from diamonds.serve.links import WILDCARDS, PublicUrlError, lan_address, public_url

    try:
        base = public_url(args.host, args.port, args.public_url)
    except PublicUrlError as error:
        raise CommandError(str(error)) from None
    try:
        club = Club.open(args.dir)
    except UserError as error:  # another server holds DIR (the lock), a folder that cannot be written
        raise CommandError(str(error)) from None
    reset_journal()  # what an interrupt says: the night, not the files written on the way
    note_output(club.folder, "holds every change answered (restart on it to carry on)")
    try:
        host = args.host
        if not _loopback(host):
            print(f"diamonds serve: listening on {visible(host)}: anyone on that network can reach these pages; "
                  "the tokens in the organiser's and scorers' links are what protect them", file=sys.stderr)
            if args.public_url is None and host in WILDCARDS and _loopback(lan_address(host)):
                print("diamonds serve: this machine has no address on a network: the links say 127.0.0.1, "
                      "which only this machine reaches (--public-url sets them)", file=sys.stderr)
        organiser = f"{base}/organiser#token={club.organiser_token}"
        print(f"diamonds serve: the night is in {visible(club.folder)} ({len(club.tables)} table(s))", flush=True)
        print(f"organiser: {visible(organiser)}", flush=True)
        _print_qr(organiser)
        print(f"(the token is also in {visible(club.folder)}/organiser.token; links start with {visible(base)})",
              flush=True)
        config = uvicorn.Config(create_app(club, base), host=host, port=args.port, log_level="warning",
                                access_log=False, timeout_graceful_shutdown=2, http=http_protocol())
        config.load()  # uvicorn's own imports (its protocol, the app's wrapping), made before the heap is frozen
        # The objects made so far (the modules, FastAPI's and pydantic's models, the night's tables) live as long as
        # the server: frozen, the collector no longer walks them. Every full collection walked them (about 54,000
        # objects, 40 ms or more each time), and those pauses, not the work, were the tail of a busy night's
        # latency (bench/serve.py; docs/serve.md).
        gc.collect()
        gc.freeze()
        server = uvicorn.Server(config)
        server.run()
        return 0 if server.started else 2
    finally:
        club.close()


def _print_qr(url: str) -> None:
    """The organiser's link as a QR code in the terminal (two rows of modules a line: half blocks), for a
    phone's camera; left out where standard output cannot show those characters."""
    import io

    import segno

    drawn = io.StringIO()
    segno.make(url, error="l").terminal(out=drawn, compact=True)
    try:
        drawn.getvalue().encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        print("(no QR code: this terminal's encoding cannot draw it)", flush=True)
        return
    print(drawn.getvalue(), end="", flush=True)


def _loopback(host: str) -> bool:
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
