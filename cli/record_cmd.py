"""`diamonds record`: a game recorded live, checked at every item, written through to its file.

Two faces over one `diamonds.replay.recorder.Recorder`: line mode when
standard input is not a terminal (scripts, tests: no screen, refusals on
stderr, exit 1 at the end if anything was refused), and on a terminal a
prompt_toolkit session (the `record` extra) with completion on the legal
cards and the family's table drawn after each item (`record_screen.py`).
Every accepted line is in the file before the next prompt.
"""

from __future__ import annotations

import argparse
import os
import signal
import time
from collections.abc import Iterable
from typing import TextIO

from diamonds.core.errors import with_rule
from diamonds.io.errors import ChangedBehind, ReadOnlyFile, UserError
from diamonds.io.escape import visible
from diamonds.io.interrupt import note_output
from diamonds.io.lock import Snapshot
from diamonds.io.write import write_text
from diamonds.notation.diagnostics import format_problem
from diamonds.notation.tags import UnsafeTagText, check_tags, is_dgn_date, parse_players, parse_variants
from diamonds.notation.words import vocabulary
from diamonds.replay.recorder import QUIT_WORDS, Outcome, Recorder, SetupError, leftover_temporaries, write_through

from .errors import CommandError
from .inputs import display_path
from .players import seat_names

__all__ = ["open_recorder", "run_lines", "Saver", "SETUP_TAGS"]

SETUP_TAGS = ("Event", "Site", "Date", "Round")
EXIT_OK, EXIT_REFUSED, EXIT_INTERRUPTED = 0, 1, 130


class Saver:
    """Writes the recording through to FILE, but only over what it last wrote (or read): if FILE was
    changed behind its back (another program, an editor), it stops with `ChangedBehind` and keeps both
    texts: FILE as the other wrote it, its own beside it as `FILE.mine-<time>.dgn`."""

    def __init__(self, path: str, encoding: str = "utf-8", *, force: bool = False,
                 last: Snapshot | None = None) -> None:
        self.path, self.encoding, self.force = path, encoding, force
        self.last = last if last is not None else Snapshot.of(path)

    def save(self, text: str) -> None:
        if not self.last.still(self.path):
            kept = self._keep_mine(text)
            raise ChangedBehind(display_path(self.path), kept)
        write_through(self.path, text, self.encoding, force=self.force)
        data = text.encode(self.encoding)
        self.last = Snapshot(len(data), 0, data)
        note_output(self.path, "holds every accepted line")  # what an interrupt message says of it

    def _keep_mine(self, text: str) -> str | None:
        base = self.path[:-4] if self.path.lower().endswith(".dgn") else self.path
        mine = f"{base}.mine-{time.strftime('%Y%m%d-%H%M%S')}.dgn"
        try:
            write_text(mine, text, encoding=self.encoding)
        except (OSError, UserError):
            return None
        return mine


def open_recorder(args: argparse.Namespace, ask: object | None) -> Recorder:
    """The game FILE holds, resumed; or a new one from the options (asked for with `ask` on a terminal;
    in line mode missing set-up is an error, never a question). The file is written at once."""
    path = args.file
    data = _read_bytes(path)
    text = _decode(path, data, args.encoding)
    args.saver = Saver(path, args.encoding, force=getattr(args, "force", False),
                       last=Snapshot(len(data or b""), 0, data))
    if data is not None and not getattr(args, "force", False):
        mode = os.stat(path).st_mode
        if not mode & 0o222:  # refused now, before a line is typed, rather than at the first save
            raise ReadOnlyFile(display_path(path), mode)
    # Temporary files of a recorder killed while writing (FILE itself is whole): only those whose
    # owner (the pid in the name) is gone; and the lock says no recorder of FILE is running.
    for leftover in leftover_temporaries(path):
        try:
            os.unlink(leftover)
        except OSError:
            pass
    if text.strip():
        try:
            recorder = Recorder.resume(text)
        except SetupError as error:
            if error.problem is not None and error.record is not None:  # where, the line and a caret
                where, _, shown = format_problem(display_path(path), error.record, error.problem).partition("\n")
                raise CommandError(f"{where}; the game cannot be resumed until that is mended", shown=shown) from None
            raise CommandError(f"{display_path(path)}: cannot resume: {error}") from None
        _check_same_setup(args, recorder, path)
        if recorder.finished:
            raise CommandError(f"{display_path(path)} holds a finished game (Result "
                               f"\"{dict(recorder.tags).get('Result', '')}\"): record the next game in a new file")
        return recorder
    rules, players = args.rules, args.players
    if ask is not None:
        rules = rules or ask("Rules (" + " ".join(_rule_ids()) + "): ")  # type: ignore[operator]
        players = players or ask('Players, in seat order ("Ann Bob Cat"): ')  # type: ignore[operator]
    missing = [name for name, value in (("--rules", rules), ("--players", players)) if not value]
    if missing:
        raise CommandError(f"a new game needs its set-up: {' and '.join(missing)} (standard input is not a "
                           "terminal, so nothing is asked)")
    players = " ".join(seat_names(players, rules))  # a count (--players 4) names the seats Ann, Bob, …
    options = {name[len("tag_"):]: value for name, value in vars(args).items()
               if name.startswith("tag_") and value is not None and name[len("tag_"):] not in SETUP_TAGS}
    extra = [(tag, _setup_tag(args, tag)) for tag in SETUP_TAGS if _setup_tag(args, tag)]
    try:
        check_tags([*extra, *options.items(), ("Players", players), ("Dealer", args.dealer or "")])
        recorder = Recorder.new(rules, parse_players(players), variants=args.variant, dealer=args.dealer,
                                options=options, extra_tags=extra)
    except (SetupError, UnsafeTagText) as error:
        option = f"--{error.tag.lower()}: " if error.tag else ""
        raise CommandError(with_rule(f"{option}{error}", error.rule)) from None
    args.saver.save(recorder.text)
    return recorder


def _setup_tag(args: argparse.Namespace, tag: str) -> str:
    """The value of a set-up tag for a new game: as given; the Date defaults to today (YYYY.MM.DD, the
    DGN form), and `--date ""` or `--date none` leaves it out."""
    value = getattr(args, f"tag_{tag}", None)
    if tag == "Date":
        if value is None:
            return time.strftime("%Y.%m.%d")
        if value.strip().lower() in ("", "none"):
            return ""
        if not is_dgn_date(value):  # the tag is ours to write: in DGN's form, or not at all
            raise CommandError(f"--date {value}: a date is written YYYY.MM.DD, ?? for what is unknown "
                               "(2026.11.20, 2026.11.??), or none to leave it out")
    return value or ""


def _rule_ids() -> list[str]:
    from diamonds.core.registry import FAMILIES

    return [rule_id for family in FAMILIES for rule_id in family.rule_ids]


def _read_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as stream:
            return stream.read()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise CommandError(f"{display_path(path)}: is a folder") from None


def _decode(path: str, data: bytes | None, encoding: str) -> str:
    if data is None:
        return ""
    try:  # as open(newline="") reads it: the line ends kept as they are
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise CommandError(f"{display_path(path)}: not {encoding} text ({error.reason})") from None


def _check_same_setup(args: argparse.Namespace, recorder: Recorder, path: str) -> None:
    """Options given again on resuming must agree with the file: nothing is silently altered."""
    tags = dict(recorder.tags)
    given = {"Rules": args.rules, "Players": " ".join(seat_names(args.players, args.rules)) if args.players else None,
             "Dealer": args.dealer}
    if args.variant:
        given["Variant"] = ", ".join(parse_variants(",".join(args.variant)))
    for name, value in given.items():
        written = tags.get(name, "").replace(" ", "")
        if value and (written.casefold() != value.replace(" ", "").casefold() if name == "Dealer" else
                      written != value.replace(" ", "")):  # a dealer is named in any case, as when it was set
            raise CommandError(f"{display_path(path)} holds a game whose {name} is \"{tags.get(name, '')}\", "
                               f"not \"{value}\": leave the set-up options out to resume it")


def run_lines(recorder: Recorder, path: str, lines: Iterable[str], out: TextIO, err: TextIO, *,
              encoding: str = "utf-8", require_deals: bool = False, saver: Saver | None = None) -> int:
    """Line mode: each input line entered as typed; accepted items written through before the next line."""
    refused = 0
    shown = display_path(path)
    saver = saver or Saver(path, encoding)
    left = False
    try:
        for line in lines:
            if line.strip().lower() in QUIT_WORDS:  # as on a terminal: save (each accepted line is) and leave
                left = True
                break
            outcome = enter(recorder, line, require_deals)
            for info in outcome.info:
                print(visible(info), file=out)
            if outcome.refusal is not None:
                refused += 1
                print(outcome.refusal.text(shown), file=err)
            if outcome.accepted or outcome.info and not line.strip().startswith("?"):
                saver.save(recorder.text)
            out.flush()
    except KeyboardInterrupt as error:  # SIGINT, SIGTERM, SIGHUP: every accepted line is in the file
        signum = getattr(error, "signum", signal.SIGINT)
        name = "" if signum == signal.SIGINT else f" ({getattr(error, 'name', signum)})"
        print(visible(f"{shown}: interrupted{name}; {status(recorder)}"), file=err)
        return 128 + int(signum)
    if recorder.question is not None:  # a `quit` leaves it unrecorded as asked; input that ends there is refused
        refused += 0 if left else 1
        print(waiting_notice(recorder, shown, "left" if left else "end of input"), file=err)
    print(visible(f"{shown}: {status(recorder)}"), file=err)
    if refused:
        print(f"{shown}: {refused} line{'s' if refused != 1 else ''} refused (not recorded)", file=err)
    return EXIT_REFUSED if refused else EXIT_OK


def waiting_notice(recorder: Recorder, shown: str, why: str) -> str:
    """What is not recorded when the recorder stops while its question waits (`why`: left, or end of input)."""
    question = recorder.question
    assert question is not None
    waiting = f"the round's `{question.prompt}Name` line" if question.end else question.item
    return visible(with_rule(f"{shown}: {why} while {waiting} waits: {question.message}", question.rule)
                   + "; not recorded")


def enter(recorder: Recorder, line: str, require_deals: bool) -> Outcome:
    """One line; with `--deal`, a card is refused until the round's hands are entered."""
    if require_deals and line.strip() and recorder.question is None and not recorder.hands_known() and \
            _looks_like_card(line):
        return Outcome(refusal=recorder.refusal_here(line.strip(), f"--deal: enter every hand of "
                                                     f"{recorder.where()} (deal lines) before its first card",
                                                     "missing-deal"))
    return recorder.enter(line)


def _looks_like_card(line: str) -> bool:
    first = line.split()[0].lower()
    return first[:1].isdigit() or first[:1] in "tjqka" and first not in vocabulary().line_words


def status(recorder: Recorder) -> str:
    if recorder.finished:
        result = dict(recorder.tags).get("Result")
        final = [line for line in recorder.text.splitlines() if line.startswith("[Result ")]
        return "saved; the game is over " + (final[0] if final else result or "")
    return (f"saved, unfinished at {recorder.where()} (Result \"*\"); `diamonds record FILE` resumes it")
