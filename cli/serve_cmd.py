"""`diamonds serve [DIR]`: the club night in the browser (docs/serve.md).

FastAPI, uvicorn and segno are the `serve` extra: imported here, when the command runs, so the rest
of the command never pays for them; without them the command says so in one line.
"""

from __future__ import annotations

import argparse
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
    from diamonds.serve.app import create_app
    from diamonds.serve.club import Club

    try:
        club = Club.open(args.dir)
    except UserError as error:  # another server holds DIR (the lock), a folder that cannot be written
        raise CommandError(str(error)) from None
    reset_journal()  # what an interrupt says: the night, not the files written on the way
    note_output(club.folder, "holds every change answered (restart on it to carry on)")
    try:
        host = args.host
        shown = f"[{host}]" if ":" in host else host
        if host == "0.0.0.0" or host == "::":
            shown = "THIS-MACHINE"
        base = f"http://{shown}:{args.port}"
        if not _loopback(host):
            print(f"diamonds serve: listening on {visible(host)}: anyone on that network can reach these pages; "
                  "the tokens in the organiser's and scorers' links are what protect them", file=sys.stderr)
        print(f"diamonds serve: the night is in {visible(club.folder)} ({len(club.tables)} table(s))", flush=True)
        print(f"organiser: {base}/organiser#token={club.organiser_token}", flush=True)
        print(f"(the token is also in {visible(club.folder)}/organiser.token)", flush=True)
        config = uvicorn.Config(create_app(club), host=host, port=args.port, log_level="warning",
                                access_log=False, timeout_graceful_shutdown=2)
        server = uvicorn.Server(config)
        server.run()
        return 0 if server.started else 2
    finally:
        club.close()


def _loopback(host: str) -> bool:
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
