"""A long, seeded fuzzing campaign for the DGN reader and the replay (run by hand, not in CI).

    python bench/fuzz_campaign.py --inputs 1000000 --seed 1
    python bench/fuzz_campaign.py --inputs 20000 --seed 7 --timeout 5 --out /tmp/fuzz

Input i of a campaign is made from `random.Random(f"{seed}:{i}")` alone, so
any input can be made again (`--show I`) without running the ones before it.
The inputs are: random bytes (decoded as the CLI decodes a file: UTF-8 with
U+FFFD for bad bytes, universal newlines), random unicode text, a soup of
DGN-like tokens, and, mostly, valid games (the samples, and simulated games of
every rule set) with one to six mutations: delete, duplicate, swap or change a
token, insert one, cut the text anywhere, delete/duplicate/swap/repeat lines,
change a character, splice two games.

The oracle is the fuzz tests' (tests/notation/test_fuzz.py): `read_games`, then
`replay_record` and `format_problem` on every problem, must not raise (nor
the CLI's way: `game_texts`, `parse_game`, `validate_record`, which must
report the same problems), and
every problem must have 1 <= line <= lines of the input and
1 <= column <= length of that line + 1. Outcomes are counted per input:

    valid-complete, valid-incomplete   every game of the input replays with no problem
    invalid                            at least one game has our own, well placed, error
    empty                              no game at all (only white space)
    crash                              an exception escaped          (a bug)
    bad-position                       a problem outside the input   (a bug)
    disagree                           `diamonds validate`'s way (game_texts, parse_game, validate_record)
                                       gives other problems than read_games + replay_record (a bug)
    hang                               over --timeout seconds: the worker is killed (a bug)
    died                               the worker process died (out of memory, a signal)

Two worker processes (--workers) share the inputs; the parent is the watchdog:
a worker that spends more than --timeout seconds on one input is killed,
the input is recorded as a hang, and a new worker carries on after it. Each
worker runs under an address-space limit (--memory-mb), so a runaway
allocation is a MemoryError (a crash), not a dead machine. For every new
crash signature the worker saves the input and a minimized reproducer
(token-, line- then character-level delta debugging that keeps the same
signature) under --out (a new temporary directory by default).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import multiprocessing as mp
import multiprocessing.connection
import os
import random
import re
import resource
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # helpers beside the repo; `diamonds` itself comes from the install

from diamonds.notation import read_games  # noqa: E402  (imported before the workers fork: all run the same code)
from diamonds.notation.diagnostics import format_problem  # noqa: E402
from diamonds.notation.records import Problem  # noqa: E402
from diamonds.replay import replay_record  # noqa: E402

try:  # the CLI's way of checking (`diamonds validate`), where the tree has it
    from diamonds.notation import game_texts, parse_game  # noqa: E402
    from diamonds.replay import validate_record  # noqa: E402
except ImportError:  # pragma: no cover - an older tree
    game_texts = parse_game = validate_record = None  # type: ignore[assignment]

OUTCOMES = ("valid-complete", "valid-incomplete", "invalid", "empty", "crash", "bad-position", "disagree", "hang",
            "died")
BUGS = ("crash", "bad-position", "disagree", "hang", "died")
KINDS = ("bytes", "unicode", "soup", "mutation")
KIND_WEIGHTS = (7, 7, 6, 80)
MAX_INPUT = 64_000  # characters: mutations that grow a text past this are cut back

# --------------------------------------------------------------------------- the oracle


class BadPosition(Exception):
    def __init__(self, problem: Problem, why: str) -> None:
        super().__init__(f"{why}: {problem.line}:{problem.column} {problem.code}: {problem.message}")
        self.problem = problem
        self.why = why


class Disagreement(Exception):
    """The CLI's way (game_texts, parse_game, validate_record) and the API's way give different answers."""

    def __init__(self, what: str, api: object, cli: object) -> None:
        super().__init__(f"{what}: API {api!r}, CLI {cli!r}")
        self.what = what


def _verdict(replayed: Any) -> tuple[Any, ...]:
    return replayed.valid, replayed.complete, [(p.line, p.column, p.code, p.rule, p.message)
                                                for p in replayed.problems]


def check_text(text: str) -> str:
    """Read and replay every game of `text`; the outcome, or an exception for a bug.

    Lines are what the reader counts: `text.split("\\n")` (so a position just
    after a final line break, line N+1 column 1, is the end of the input).
    The CLI's way of checking must agree with `read_games` + `replay_record`.
    """
    lines = text.split("\n")
    outcome = "empty"
    records = list(read_games(io.StringIO(text)))
    cli_records: list[Any] = []
    if game_texts is not None:
        cli_records = [parse_game(game, first_line=first, index=index)
                       for index, first, game in game_texts(io.StringIO(text))]
        if len(cli_records) != len(records):
            raise Disagreement("games", len(records), len(cli_records))
    for number, record in enumerate(records):
        replayed = replay_record(record)
        for problem in replayed.problems:
            if not isinstance(problem, Problem):
                raise TypeError(f"a problem that is not a Problem: {problem!r}")
            line, column = problem.line, problem.column
            if not 1 <= line <= len(lines):
                raise BadPosition(problem, f"line {line} outside 1..{len(lines)}")
            if not 1 <= column <= len(lines[line - 1]) + 1:
                raise BadPosition(problem, f"column {column} outside 1..{len(lines[line - 1]) + 1} of line {line}")
            shown = format_problem("fuzz.dgn", record, problem)
            if not isinstance(shown, str):
                raise TypeError("format_problem did not return a str")
        if cli_records:
            checked = validate_record(cli_records[number])
            for problem in checked.problems:
                format_problem("fuzz.dgn", cli_records[number], problem)
            api, cli = _verdict(replayed), _verdict(checked)
            if api != cli:
                what = "problems" if api[2] != cli[2] else "valid" if api[0] != cli[0] else "complete"
                raise Disagreement(what, api, cli)
        if replayed.problems:
            outcome = "invalid"
        elif outcome == "empty":
            outcome = "valid-complete" if replayed.complete else "valid-incomplete"
        elif outcome == "valid-complete" and not replayed.complete:
            outcome = "valid-incomplete"
    return outcome


def decode_like_cli(data: bytes) -> str:
    """What `cli.inputs.open_text` makes of a file's bytes (UTF-8, U+FFFD for bad bytes, universal newlines)."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace", newline=None).read()


def signature(error: BaseException) -> str:
    """Which bug: the exception type and the innermost frame in the project's code."""
    if isinstance(error, BadPosition):
        return f"bad-position:{error.problem.code}:{re.sub(r'[0-9]+', 'N', error.why.split(':')[0])}"
    if isinstance(error, Disagreement):
        return f"disagree:{error.what}"
    frames = traceback.extract_tb(error.__traceback__)
    own = [f for f in frames if str(ROOT) in f.filename and "fuzz_campaign" not in f.filename]
    where = own[-1] if own else (frames[-1] if frames else None)
    place = f"{os.path.relpath(where.filename, ROOT)}:{where.lineno}:{where.name}" if where else "?"
    return f"crash:{type(error).__name__}:{place}"


def run_oracle(text: str) -> tuple[str, BaseException | None]:
    try:
        return check_text(text), None
    except BadPosition as error:
        return "bad-position", error
    except Disagreement as error:
        return "disagree", error
    except RecursionError as error:
        return "crash", error
    except Exception as error:  # noqa: BLE001 - any escape is the finding
        return "crash", error


# --------------------------------------------------------------------------- the corpus


def corpus() -> list[str]:
    """The texts mutations start from: samples, their single games, invalid samples, simulated games."""
    texts: list[str] = []
    for path in sorted((ROOT / "samples").glob("*.dgn")):
        text = path.read_text(encoding="utf-8")
        texts.append(text)
        games = [g for _, g in _split(text)]
        if len(games) > 1:
            texts.extend(games)
    for path in sorted((ROOT / "samples" / "invalid").glob("*.dgn")):
        texts.append(path.read_text(encoding="utf-8"))
    texts.extend(simulated_games())
    return texts


def _split(text: str) -> list[tuple[int, str]]:
    from diamonds.notation import split_games

    return list(split_games(io.StringIO(text)))


def simulated_games() -> list[str]:
    from diamonds.core import ConfigError, simulate
    from diamonds.notation.writer import write_game
    from diamonds.replay import record_from_game

    out = []
    rng = random.Random(20261120)
    for rules in ("1e", "2e", "bga"):
        for n in range(2, 7):
            for variants in ((), ("partnership",), ("perfect",)):
                try:
                    game = simulate(n, rules=rules, variants=variants, seed=rng.randrange(2**32))
                except ConfigError:
                    continue
                record = record_from_game(game, tags=[("Event", f"Fuzz {rules} {n}p")], deals=rng.random() < 0.6)
                out.append(write_game(record))
    return out


# --------------------------------------------------------------------------- inputs

DICTIONARY = (
    "1D", "15C", "16H", "0D", "07D", "7d", "7\u2666", "15\u2663", "1\u2665", "9\u2660", "5H>Ann", "5H>", "5H>>Bob",
    "12C!!", "3S?!", "5H!!!", "5H>Bob!?", "5Hx", "5", "R1", "R0", "R2", "R99999999999999999999", "R", "dealer",
    "pass", "deal", "end", ">Ann", ">", "1.", "0.", "2.", "11.", "99999999999999999999.", "1..", ".", "[", "]",
    '"', '[Players "Ann Bob"]', '[Players "Ann Bob Cat"]', '[Result "Ann 1, Bob 2"]', '[Result "*"]',
    '[Result "Ann+Cat 1, Bob+Dan 2"]', '[Result ","]', '[Result "Ann -5"]', '[Rules "1e"]', '[Rules "bga"]',
    '[Rules "3e"]', '[Variant "partnership"]', '[Variant "perfect, partnership"]', '[Variant "x"]',
    '[Dealer "x"]', '[Dealer ""]', '[Players ""]', '[Players "A B C D E F G"]', '[Players "Ann ann"]',
    '[X "\\q"]', '[X "\\"]', "{", "}", "{c}", "{[x]}", ";", ";c\n", "\\", '\\"', "\n", "\r", "\r\n", "\t",
    "\ufeff", "\x00", "\u2028", "\x85", "\x0c", "\u2666", "-1", "0", "1", "3", "4", "99999999999999999999",
    "*", "+", ",", "Ann", "ann", "ANN", "Bob", "Zed", "a" * 17, "A-", "A_1", "\u00c5sa", "\U0001f0a1",
    "\n\n[Event \"x\"]\n", "\n[Players \"Ann Bob\"]\nR1 dealer Ann pass 1\n1. 5H 6H\n",
    # numbers past Python's 4300-digit limit for int(str)
    "R" + "9" * 4400, "9" * 4400 + ".", "9" * 4400, '[Result "Ann ' + "9" * 4400 + ', Bob 1"]',
)
UNICODE_POOL = (
    "RDHSCdhsc0123456789.[]{};\"\\>!?+-_*, \t\n\r" + "\u2666\u2665\u2660\u2663\ufeff\u00a0\u2028\u0085\x00\x0b\x0c"
)
PIECES = re.compile(r"\s+|\S+")


def make_input(seed: int, index: int, docs: list[str]) -> tuple[str, str]:
    """(kind, text) of input `index` of the campaign `seed`."""
    rng = random.Random(f"{seed}:{index}")
    kind = rng.choices(KINDS, KIND_WEIGHTS)[0]
    if kind == "bytes":
        size = rng.choice((rng.randrange(16), rng.randrange(256), rng.randrange(4096)))
        if rng.random() < 0.5:
            data = rng.randbytes(size)
        else:  # bytes from a game, so the structure is half there
            base = rng.choice(docs).encode("utf-8")
            data = bytearray(base[: size or 1])
            for _ in range(rng.randrange(1, 9)):
                if data:
                    data[rng.randrange(len(data))] = rng.randrange(256)
            data = bytes(data)
        return kind, decode_like_cli(data)
    if kind == "unicode":
        size = rng.choice((rng.randrange(16), rng.randrange(256), rng.randrange(2048)))
        chars = []
        for _ in range(size):
            roll = rng.random()
            if roll < 0.6:
                chars.append(rng.choice(UNICODE_POOL))
            elif roll < 0.9:
                chars.append(chr(rng.randrange(0x20, 0x3000)))
            else:
                chars.append(chr(rng.randrange(0x110000)))  # surrogates included: read_games takes any str
        return kind, "".join(chars)
    if kind == "soup":
        words = [rng.choice(DICTIONARY + tuple(PIECES.findall(rng.choice(docs)))) for _ in range(rng.randrange(60))]
        seps = (" ", " ", " ", "\n", "\n", "", "\t", "\r\n")
        return kind, "".join(w + rng.choice(seps) for w in words)
    text = rng.choice(docs)
    if rng.random() < 0.1:
        text = text + rng.choice(("", "\n")) + rng.choice(docs)
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4, 6))):
        text = mutate(text, rng, docs)
        if len(text) > MAX_INPUT:
            text = text[:MAX_INPUT]
    return kind, text


def mutate(text: str, rng: random.Random, docs: list[str]) -> str:
    op = rng.choice(MUTATIONS)
    return op(text, rng, docs)


def _tokens(text: str) -> tuple[list[str], list[int]]:
    pieces = PIECES.findall(text)
    words = [i for i, p in enumerate(pieces) if not p.isspace()]
    return pieces, words


def _token_op(change: Callable[[list[str], list[int], random.Random], None]) -> Callable[..., str]:
    def op(text: str, rng: random.Random, docs: list[str]) -> str:
        pieces, words = _tokens(text)
        if not words:
            return text + rng.choice(DICTIONARY)
        change(pieces, words, rng)
        return "".join(pieces)

    op.__name__ = change.__name__
    return op


def _delete_token(pieces: list[str], words: list[int], rng: random.Random) -> None:
    pieces[rng.choice(words)] = ""


def _duplicate_token(pieces: list[str], words: list[int], rng: random.Random) -> None:
    i = rng.choice(words)
    pieces[i] = pieces[i] + rng.choice((" ", "", "\n")) + pieces[i]


def _swap_tokens(pieces: list[str], words: list[int], rng: random.Random) -> None:
    i, j = rng.choice(words), rng.choice(words)
    if rng.random() < 0.5:  # a neighbour, most often
        k = words.index(i)
        j = words[min(len(words) - 1, k + 1)]
    pieces[i], pieces[j] = pieces[j], pieces[i]


def _change_token(pieces: list[str], words: list[int], rng: random.Random) -> None:
    i = rng.choice(words)
    word = pieces[i]
    roll = rng.random()
    if roll < 0.4:
        pieces[i] = rng.choice(DICTIONARY)
    elif roll < 0.6 and re.search(r"[0-9]", word):
        number = rng.choice(("0", "1", "2", "3", "9", "10", "15", "16", "99", "00", "-1", str(rng.randrange(10**30)),
                              "1" * rng.choice((4300, 4301, 5000))))
        pieces[i] = re.sub(r"[0-9]+", number, word, count=1)
    elif roll < 0.7:
        pieces[i] = word.swapcase()
    elif roll < 0.8:
        pieces[i] = pieces[rng.choice(words)]
    else:
        at = rng.randrange(len(word) + 1)
        pieces[i] = word[:at] + rng.choice(UNICODE_POOL) + word[at + 1:]


def _insert_token(pieces: list[str], words: list[int], rng: random.Random) -> None:
    i = rng.choice(words)
    pieces[i] = rng.choice(DICTIONARY) + rng.choice((" ", "", "\n")) + pieces[i]


def cut(text: str, rng: random.Random, docs: list[str]) -> str:
    return text[: rng.randrange(len(text) + 1)]


def _line_op(text: str, rng: random.Random, docs: list[str]) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    roll = rng.random()
    if roll < 0.3:
        del lines[i]
    elif roll < 0.55:
        lines.insert(i, lines[i])
    elif roll < 0.8:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif roll < 0.9:
        lines[i] = lines[i].replace(" ", rng.choice(("", "  ", "\t", "\n", "{}", "{x}")))
    else:
        lines[i:i + 1] = [lines[i]] * rng.randrange(2, 40)
    return "\n".join(lines)


def _char_op(text: str, rng: random.Random, docs: list[str]) -> str:
    at = rng.randrange(len(text) + 1)
    roll = rng.random()
    if roll < 0.4:
        return text[:at] + rng.choice(UNICODE_POOL) + text[at:]
    if roll < 0.7:
        return text[:at] + text[at + 1:]
    return text[:at] + rng.choice(UNICODE_POOL) + text[at + 1:]


def _splice(text: str, rng: random.Random, docs: list[str]) -> str:
    other = rng.choice(docs)
    return text[: rng.randrange(len(text) + 1)] + other[rng.randrange(len(other) + 1):]


MUTATIONS: tuple[Callable[[str, random.Random, list[str]], str], ...] = (
    _token_op(_delete_token), _token_op(_delete_token), _token_op(_duplicate_token), _token_op(_swap_tokens),
    _token_op(_swap_tokens), _token_op(_change_token), _token_op(_change_token), _token_op(_change_token),
    _token_op(_insert_token), cut, _line_op, _line_op, _char_op, _char_op, _splice,
)

# --------------------------------------------------------------------------- minimizing


def minimize(text: str, keeps: Callable[[str], bool], budget: float = 30.0) -> str:
    """Delta debugging: drop pieces (tokens, then lines, then characters) while `keeps` holds."""
    deadline = time.monotonic() + budget
    for split in (lambda t: PIECES.findall(t), lambda t: t.splitlines(keepends=True), list):
        parts = split(text)
        chunk = max(1, len(parts) // 2)
        while chunk >= 1 and time.monotonic() < deadline:
            i, changed = 0, False
            while i < len(parts) and time.monotonic() < deadline:
                candidate = parts[:i] + parts[i + chunk:]
                if keeps("".join(candidate)):
                    parts, changed = candidate, True
                else:
                    i += chunk
            if not changed:
                chunk //= 2
        text = "".join(parts)
    # Then simpler characters: a letter for anything odd, where that keeps the bug.
    return text


def _slug(sig: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", sig).strip("-")[:60] + "-" + hashlib.sha1(sig.encode()).hexdigest()[:8]


def save(out: Path, sig: str, index: int, text: str, minimal: str | None) -> tuple[str, str | None]:
    base = out / _slug(sig)
    raw = base.with_suffix(f".{index}.input")
    raw.write_bytes(text.encode("utf-8", "surrogatepass"))
    small = None
    if minimal is not None:
        path = base.with_suffix(".min.dgn")
        path.write_bytes(minimal.encode("utf-8", "surrogatepass"))
        small = str(path)
    return str(raw), small


def snapshot(where: Path) -> None:
    """The code under test, as imported (it may change in the work tree while a long campaign runs)."""
    for package in ("notation", "replay", "diamonds_core", "grammars"):
        for path in sorted((ROOT / package).glob("*.*")):
            if path.suffix in (".py", ".lark"):
                target = where / package / path.name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(path.read_bytes())


# --------------------------------------------------------------------------- workers


def worker(slot: int, indices: range, seed: int, docs: list[str], counts: Any, current: Any, started: Any,
           conn: multiprocessing.connection.Connection, memory_mb: int, out: str) -> None:
    if memory_mb:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    seen: set[str] = set()
    base = slot * len(KINDS) * len(OUTCOMES)
    for index in indices:
        kind, text = make_input(seed, index, docs)
        current[slot] = index
        started[slot] = time.monotonic()
        outcome, error = run_oracle(text)
        started[slot] = 0.0
        counts[base + KINDS.index(kind) * len(OUTCOMES) + OUTCOMES.index(outcome)] += 1
        if error is None:
            continue
        sig = signature(error)
        detail = ("".join(traceback.format_exception(error)[-6:])
                  if not isinstance(error, (BadPosition, Disagreement)) else str(error)[:2000])
        first = sig not in seen
        seen.add(sig)
        message: dict[str, Any] = {"type": "bug", "sig": sig, "index": index, "kind": kind, "detail": detail,
                                   "size": len(text), "first": first}
        if first:
            raw, _ = save(Path(out), sig, index, text, None)
            message["raw"] = raw
        conn.send(message)
        if first:  # minimize while the watchdog allows a longer time for it
            started[slot] = -time.monotonic()

            def keeps(candidate: str) -> bool:
                found, err = run_oracle(candidate)
                return err is not None and signature(err) == sig  # noqa: B023  (used at once, in this iteration)

            small = minimize(text, keeps)
            started[slot] = 0.0
            _, path = save(Path(out), sig, index, text, small)
            conn.send({"type": "minimal", "sig": sig, "index": index, "path": path, "text": small})
    conn.send({"type": "done", "slot": slot})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="how many inputs (default 100000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="first input index (to resume a campaign)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per input before it is a hang")
    parser.add_argument("--minimize-timeout", type=float, default=120.0, help="seconds for minimizing one crash")
    parser.add_argument("--memory-mb", type=int, default=3000, help="address-space limit per worker (0: none)")
    parser.add_argument("--out", help="where reproducers go (default: a new temporary directory)")
    parser.add_argument("--progress", type=float, default=60.0, help="seconds between progress lines")
    parser.add_argument("--show", type=int, metavar="I", help="print input I of --seed (repr) and its outcome, then exit")
    args = parser.parse_args(argv)

    docs = corpus()
    if args.show is not None:
        kind, text = make_input(args.seed, args.show, docs)
        outcome, error = run_oracle(text)
        print(f"input {args.show} of seed {args.seed}: {kind}, {len(text)} characters, {outcome}")
        print(repr(text))
        if error is not None:
            traceback.print_exception(error)
        return 0

    out = Path(args.out or tempfile.mkdtemp(prefix="diamonds-fuzz-"))
    out.mkdir(parents=True, exist_ok=True)
    snapshot(out / "src")
    stop = args.start + args.inputs
    workers = args.workers
    ctx = mp.get_context("fork")
    counts = ctx.Array("q", workers * len(KINDS) * len(OUTCOMES), lock=False)
    current = ctx.Array("q", workers, lock=False)
    started = ctx.Array("d", workers, lock=False)
    print(f"fuzz campaign: seed {args.seed}, inputs {args.start}..{stop - 1}, {workers} workers, "
          f"timeout {args.timeout:g}s, corpus {len(docs)} texts, reproducers in {out}", flush=True)
    t0 = time.monotonic()

    procs: list[Any] = [None] * workers
    conns: list[Any] = [None] * workers
    done = [False] * workers

    def launch(slot: int, first: int) -> None:
        receive, send = ctx.Pipe(duplex=False)
        indices = range(first, stop, workers)
        proc = ctx.Process(target=worker, args=(slot, indices, args.seed, docs, counts, current, started, send,
                                                args.memory_mb, str(out)), daemon=True)
        proc.start()
        send.close()
        procs[slot], conns[slot] = proc, receive
        started[slot] = 0.0
        if not indices:
            done[slot] = True

    for slot in range(workers):
        launch(slot, args.start + slot)

    bugs: dict[str, dict[str, Any]] = {}

    def record_bug(message: dict[str, Any]) -> None:
        entry = bugs.setdefault(message["sig"], {"count": 0, "first_index": message["index"], "kind": message["kind"],
                                                 "detail": message["detail"], "size": message["size"]})
        entry["count"] += 1
        if message.get("raw"):
            entry.setdefault("raw", message["raw"])
        if entry["count"] == 1:
            print(f"NEW BUG {message['sig']} at input {message['index']} ({message['kind']}, "
                  f"{message['size']} chars)\n{message['detail']}", flush=True)

    def host_bug(slot: int, outcome: str, what: str) -> None:
        index = current[slot]
        kind, text = make_input(args.seed, index, docs)
        counts[slot * len(KINDS) * len(OUTCOMES) + KINDS.index(kind) * len(OUTCOMES) + OUTCOMES.index(outcome)] += 1
        sig = f"{outcome}:{what}"
        raw, _ = save(out, sig, index, text, None)
        record_bug({"sig": sig, "index": index, "kind": kind, "detail": what, "size": len(text), "raw": raw})

    last_progress = t0
    while not all(done):
        ready = mp.connection.wait([c for s, c in enumerate(conns) if not done[s]], timeout=0.5)
        for conn in ready:
            slot = conns.index(conn)
            try:
                message = conn.recv()
            except (EOFError, OSError):
                proc = procs[slot]
                proc.join(timeout=5)
                if not done[slot]:  # died without "done"
                    if started[slot] != 0.0:
                        host_bug(slot, "died", f"worker exit code {proc.exitcode}")
                        launch(slot, current[slot] + workers)
                    else:  # between inputs: nothing to blame
                        launch(slot, current[slot] + workers)
                continue
            if message["type"] == "bug":
                record_bug(message)
            elif message["type"] == "minimal":
                bugs[message["sig"]]["minimal"] = message["text"]
                bugs[message["sig"]]["minimal_path"] = message["path"]
            elif message["type"] == "done":
                done[slot] = True
                procs[slot].join()
        now = time.monotonic()
        for slot in range(workers):
            if done[slot]:
                continue
            since = started[slot]
            if since > 0 and now - since > args.timeout:
                procs[slot].kill()
                procs[slot].join()
                host_bug(slot, "hang", f"over {args.timeout:g}s on one input")
                launch(slot, current[slot] + workers)
            elif since < 0 and now + since > args.minimize_timeout:  # minimizing took too long: keep the raw input
                procs[slot].kill()
                procs[slot].join()
                launch(slot, current[slot] + workers)
        if now - last_progress >= args.progress:
            last_progress = now
            total = sum(counts)
            rate = total / (now - t0)
            eta = (args.inputs - total) / rate if rate else 0
            print(f"[{now - t0:7.0f}s] {total} inputs, {rate:.0f}/s, eta {eta:.0f}s, bugs "
                  f"{sum(b['count'] for b in bugs.values())} ({len(bugs)} distinct)", flush=True)

    elapsed = time.monotonic() - t0
    table = [[0] * len(OUTCOMES) for _ in KINDS]
    for slot in range(workers):
        for k in range(len(KINDS)):
            for o in range(len(OUTCOMES)):
                table[k][o] += counts[slot * len(KINDS) * len(OUTCOMES) + k * len(OUTCOMES) + o]
    total = sum(map(sum, table))
    print(f"\ndone: {total} inputs in {elapsed:.0f}s ({total / elapsed:.0f} inputs/s), seed {args.seed}")
    width = max(map(len, OUTCOMES))
    print(f"{'outcome':<{width}} " + " ".join(f"{k:>9}" for k in KINDS) + f" {'total':>9}")
    for o, name in enumerate(OUTCOMES):
        row = [table[k][o] for k in range(len(KINDS))]
        print(f"{name:<{width}} " + " ".join(f"{v:>9}" for v in row) + f" {sum(row):>9}")
    print(f"{'all':<{width}} " + " ".join(f"{sum(table[k]):>9}" for k in range(len(KINDS))) + f" {total:>9}")
    found = sum(table[k][OUTCOMES.index(b)] for k in range(len(KINDS)) for b in BUGS)
    print(f"\nbugs: {found} inputs, {len(bugs)} distinct")
    for sig, entry in sorted(bugs.items(), key=lambda item: -item[1]["count"]):
        print(f"\n* {sig}: {entry['count']} inputs, first input {entry['first_index']} ({entry['kind']})")
        print(f"  input:   {entry.get('raw')}")
        if "minimal" in entry:
            shown = repr(entry["minimal"])
            if len(shown) > 400:
                shown = re.sub(r"(.)\1{19,}", lambda m: f"{m.group(1)}×{len(m.group(0))}", shown)
            print(f"  minimal: {entry['minimal_path']} ({len(entry['minimal'])} chars)  {shown[:400]}")
        print("  " + entry["detail"].strip().replace("\n", "\n  "))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
