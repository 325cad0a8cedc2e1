"""Fuzzing: whatever the input, the reader and the replay answer, and every error points into the input.

Inputs: random bytes (decoded as the CLI decodes a file), random unicode, a
soup of DGN-like tokens, the sample games mutated (delete, duplicate, swap,
change or insert a token; cut the text anywhere; delete, duplicate or swap
lines; change a character), and the samples with their moves intact but their
tags changed (so that the replay gets as far as the Result check). For every
input exactly one of these holds:

* every game replays valid (complete or not), or
* some game has problems, and each one is our own `Problem` with
  1 <= line <= the number of lines of the input and
  1 <= column <= the length of that line + 1
  (lines as the reader counts them: `text.split("\\n")`, so line N+1 column 1
  after a final line break is the end of the input).

The same text is also checked the way `diamonds validate` checks it
(`game_texts`, `parse_game`, `validate_record`): it must report the same
problems in the same places as `read_games` and `replay_record`.

Nothing may escape `read_games`, `replay_record` or `format_problem`, and no
input may take more than `TIME_LIMIT` seconds of CPU time (a SIGPROF watchdog turns a hang
into a failure instead of a stuck CI run). A few inputs also go through the
CLI in-process: `diamonds.cli.main.main(["validate", path])` returns 0 or 1.

The fuzzers of hundreds of inputs are marked `slow` (CI runs them; `pytest -m slow tests/notation`).
In CI (CI=true) Hypothesis is derandomized, so a run sees the same inputs
every time; locally each run explores new ones. The long campaign is
`bench/fuzz_campaign.py`, the large inputs `bench/pathological.py`; what they
found is pinned at the end of this file (as xfail(strict=True) tests while a
bug is open; all of them are fixed today).
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import re
import signal
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from diamonds.notation import game_texts, parse_game, read_games
from diamonds.notation.diagnostics import format_problem
from diamonds.notation.records import Problem
from diamonds.replay import replay_record, validate_record

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_FILES = sorted((ROOT / "samples").glob("*.dgn"))
INVALID_FILES = sorted((ROOT / "samples" / "invalid").glob("*.dgn"))
TIME_LIMIT = 10  # seconds of CPU time for one input; a sample takes milliseconds

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def fuzz_settings(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, derandomize=IN_CI, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# --------------------------------------------------------------------------- the oracle


class Hang(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float = TIME_LIMIT):
    """Raise `Hang` in this (the main) thread when the block uses more than `seconds` of CPU time. CPU time,
    not wall time: a loop that never ends uses it up, but time spent waiting for a core on a loaded machine
    does not count (at a load of 16 on 2 cores a read of 0.5 s of CPU took over 10 s of wall time; issue 34)."""
    if not hasattr(signal, "setitimer"):  # pragma: no cover - not on POSIX
        yield
        return

    def on_alarm(signum, frame):  # noqa: ARG001
        raise Hang(f"no answer within {seconds} s of CPU time")

    previous = signal.signal(signal.SIGPROF, on_alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def check_text(text: str) -> str:
    """Read and check every game of `text` the API's way and the CLI's way; the outcome, or an AssertionError.

    The API's way: `read_games`, then `replay_record`. The CLI's way (`diamonds validate`): `game_texts`,
    `parse_game` on each, then `validate_record`. Both must give the same problems, in the same places.
    Outcomes: "valid-complete", "valid-incomplete", "invalid" (our own errors, well placed), "empty".
    """
    lines = text.split("\n")
    outcome = "empty"
    with time_limit():
        records = list(read_games(io.StringIO(text)))
        cli_records = [parse_game(game, first_line=first, index=index)
                       for index, first, game in game_texts(io.StringIO(text))]
        assert len(cli_records) == len(records), "game_texts and read_games cut the text differently"
        for record, cli_record in zip(records, cli_records):
            replayed = replay_record(record)
            checked = validate_record(cli_record)
            for problem in replayed.problems:
                assert isinstance(problem, Problem), problem
                line, column = problem.line, problem.column
                where = f"{line}:{column} {problem.code}: {problem.message}"
                assert 1 <= line <= len(lines), f"line outside the input ({len(lines)} lines): {where}"
                assert 1 <= column <= len(lines[line - 1]) + 1, (
                    f"column outside line {line} ({len(lines[line - 1])} characters): {where}")
                shown = format_problem("fuzz.dgn", record, problem)
                assert isinstance(shown, str) and f":{line}:{column}:" in shown, shown
            for problem in checked.problems:
                format_problem("fuzz.dgn", cli_record, problem)
            assert verdict(checked) == verdict(replayed), "the CLI's check and the replay disagree"
            if replayed.problems:
                outcome = "invalid"
            elif outcome == "empty":
                outcome = "valid-complete" if replayed.complete else "valid-incomplete"
            elif not replayed.complete and outcome == "valid-complete":
                outcome = "valid-incomplete"
    return outcome


def verdict(replayed) -> tuple:
    problems = [(p.line, p.column, p.code, p.rule, p.message) for p in replayed.problems]
    return replayed.valid, replayed.complete, problems


def decode_like_cli(data: bytes) -> str:
    """What `cli.inputs.open_text` reads from a file, up to its first bad byte (where the CLI stops reading):
    UTF-8 and universal newlines; U+FFFD stands for the bytes the CLI refuses."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace", newline=None).read()


# --------------------------------------------------------------------------- inputs

SAMPLES = [path.read_text(encoding="utf-8") for path in SAMPLE_FILES]
CORPUS = SAMPLES + [path.read_text(encoding="utf-8") for path in INVALID_FILES]
PIECES = re.compile(r"\s+|\S+")
SAMPLE_WORDS = sorted({word for text in SAMPLES for word in text.split()})

DICTIONARY = [
    "1D", "15C", "16H", "0D", "07D", "7d", "7\u2666", "15\u2663", "5H>Ann", "5H>", "5H>>Bob", "12C!!", "3S?!",
    "5H!!!", "5Hx", "5", "R1", "R0", "R2", "R99999999999999999999", "R", "dealer", "pass", "deal", "end", ">Ann",
    ">", "1.", "0.", "2.", "11.", "1..", ".", "[", "]", '"', "{", "}", "{c}", "{[x]}", ";", ";c\n", "\\", '\\"',
    '[Players "Ann Bob"]', '[Players "Ann Bob Cat"]', '[Players ""]', '[Players "Ann ann"]',
    '[Result "Ann 1, Bob 2"]', '[Result "*"]', '[Result ","]', '[Result "Ann+Cat 1, Bob+Dan 2"]',
    '[Rules "1e"]', '[Rules "3e"]', '[Variant "partnership"]', '[Variant "x"]', '[Dealer "x"]', '[X "\\q"]',
    "\n", "\r", "\r\n", "\t", "\ufeff", "\x00", "\u2028", "\x85", "-1", "0", "3", "4", "*", "+", ",",
    "Ann", "ann", "Zed", "a" * 17, "\u00c5sa", "\n\n[Event \"x\"]\n", "999999", "1234567", "R1234567",
    "1234567.", "9" * 4301, "R" + "9" * 4301, "9" * 4301 + ".", '[Result "Ann ' + "9" * 4301 + ', Bob 1"]',
]
DGN_ALPHABET = "RDHSCdhsc0123456789.[]{};\"\\>!?+-_*, \t\n\r\u2666\u2665\u2660\u2663\ufeff\u00a0\u2028\x00"

tokens = st.one_of(st.sampled_from(DICTIONARY), st.sampled_from(SAMPLE_WORDS),
                   st.text(alphabet=DGN_ALPHABET, max_size=6), st.text(max_size=4))


@st.composite
def token_soup(draw) -> str:
    words = draw(st.lists(tokens, max_size=80))
    seps = draw(st.lists(st.sampled_from([" ", " ", "\n", "", "\t", "\r\n"]), min_size=len(words),
                         max_size=len(words)))
    return "".join(w + s for w, s in zip(words, seps))


MUTATIONS = ("delete", "duplicate", "swap", "change", "insert", "cut", "delete-line", "duplicate-line",
             "swap-lines", "char")


@st.composite
def mutated_game(draw) -> str:
    """A sample (or a recording mistake) with one to four mutations."""
    text = draw(st.sampled_from(CORPUS))
    for _ in range(draw(st.integers(1, 4))):
        text = mutate(draw, text, draw(st.sampled_from(MUTATIONS)))
    return text


def mutate(draw, text: str, how: str) -> str:
    if how == "cut":
        return text[: draw(st.integers(0, len(text)))]
    if how == "char":
        at = draw(st.integers(0, len(text)))
        new = draw(st.text(alphabet=DGN_ALPHABET, max_size=1) | st.characters())
        return text[:at] + new + text[at + draw(st.integers(0, 1)):]
    if how.endswith(("-line", "-lines")):
        lines = text.split("\n")
        i = draw(st.integers(0, len(lines) - 1))
        if how == "delete-line":
            del lines[i]
        elif how == "duplicate-line":
            lines[i:i + 1] = [lines[i]] * draw(st.integers(2, 5))
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)
    pieces = PIECES.findall(text)
    words = [k for k, piece in enumerate(pieces) if not piece.isspace()]
    if not words:
        return text + draw(tokens)
    i = words[draw(st.integers(0, len(words) - 1))]
    if how == "delete":
        pieces[i] = ""
    elif how == "duplicate":
        pieces[i] = pieces[i] + draw(st.sampled_from([" ", "", "\n"])) + pieces[i]
    elif how == "swap":
        j = words[draw(st.integers(0, len(words) - 1))]
        pieces[i], pieces[j] = pieces[j], pieces[i]
    elif how == "change":
        pieces[i] = draw(tokens)
    else:  # insert
        pieces[i] = draw(tokens) + draw(st.sampled_from([" ", "", "\n"])) + pieces[i]
    return "".join(pieces)


ALLOWED = {"valid-complete", "valid-incomplete", "invalid", "empty"}

# --------------------------------------------------------------------------- the API


@pytest.mark.slow
@fuzz_settings(300)
@given(st.binary(max_size=3000))
@example(b"")
@example(b"\xff\xfe[\x00")
@example(b"[Players \"Ann Bob\"]\r\nR1 dealer Ann pass 1\r1. 5H\xc3")
def test_random_bytes_give_an_answer_with_well_placed_errors(data):
    assert check_text(decode_like_cli(data)) in ALLOWED


@pytest.mark.slow
@fuzz_settings(300)
@given(st.text(alphabet=st.characters(blacklist_categories=()), max_size=2000))
def test_random_unicode_gives_an_answer_with_well_placed_errors(text):
    assert check_text(text) in ALLOWED


@pytest.mark.slow
@fuzz_settings(300)
@given(token_soup())
@example('[Players "Ann Bob"]\nR1 dealer Ann pass 1\n1. 5H 6H ; x\n[Players "Ann Bob"]')
@example('{ [Players "Ann Bob"]\n}\nR1 dealer Ann pass 1')
def test_dgn_token_soup_gives_an_answer_with_well_placed_errors(text):
    assert check_text(text) in ALLOWED


@pytest.mark.slow
@fuzz_settings(400)
@given(mutated_game())
def test_mutated_games_give_an_answer_with_well_placed_errors(text):
    assert_answered(text)


def assert_answered(text: str) -> None:
    """The oracle's outcome is an allowed one; hypothesis tallies the outcomes (`event`)."""
    outcome = check_text(text)
    event(outcome)
    assert outcome in ALLOWED


TAG_VALUES = ["", " ", "*", ",", "x", "1e", "2e", "bga", " 2e ", "partnership", "perfect", "partnership, perfect",
              ",,", "Ann", "ann", "Ann 1", "Ann -3", "Ann 03", "+", "Ann+ 3", "Ann+Bob 3, Cat 4", "A B", "A a"]


@st.composite
def game_with_mutated_tags(draw) -> str:
    """A sample whose moves are intact but whose tags are changed: the replay reaches the Result check."""
    lines = draw(st.sampled_from(SAMPLES)).split("\n")
    tags = [k for k, line in enumerate(lines) if line.startswith("[")]
    for _ in range(draw(st.integers(1, 3))):
        k = draw(st.sampled_from(tags))
        match = re.match(r'\[(\w+) "(.*)"\]\Z', lines[k])
        if match is None:
            continue
        name, value = match.groups()
        how = draw(st.sampled_from(["value", "word", "shuffle", "rename", "duplicate"]))
        if how == "value":
            value = draw(st.sampled_from(TAG_VALUES) | st.text(alphabet=DGN_ALPHABET + "AnBob", max_size=12))
        elif how == "word":
            words = re.split(r"(\W)", value)
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(TAG_VALUES + words))
            value = "".join(words)
        elif how == "shuffle":
            parts = value.split(",") if "," in value else value.split(" ")
            value = ("," if "," in value else " ").join(draw(st.permutations(parts)))
        elif how == "rename":
            name = draw(st.sampled_from(["Players", "Result", "Dealer", "Variant", "Rules", "Event"]))
        else:
            lines.insert(k, lines[k])
            continue
        value = value.replace("\\", "\\\\").replace('"', '\\"')
        lines[k] = f'[{name} "{value}"]'
    return "\n".join(lines)


@pytest.mark.slow
@fuzz_settings(150)
@given(game_with_mutated_tags())
def test_games_with_mutated_tags_give_an_answer_with_well_placed_errors(text):
    assert_answered(text)


@pytest.mark.slow
@fuzz_settings(150)
@given(st.sampled_from(CORPUS), st.data())
def test_a_game_cut_anywhere_gives_an_answer_with_well_placed_errors(text, data):
    cut = data.draw(st.integers(0, len(text)))
    assert check_text(text[:cut]) in ALLOWED


@pytest.mark.slow  # the whole check at every character
def test_the_smallest_sample_cut_at_every_character():
    text = min(SAMPLES, key=len)
    outcomes = {check_text(text[:cut]) for cut in range(len(text) + 1)}
    assert outcomes <= ALLOWED
    assert "invalid" in outcomes and "empty" in outcomes


CUT_SHARES = 8  # every sample's cuts dealt into this many tests, so that xdist's workers share them
BOUNDARY_CUTS = 3  # the first line breaks of each later game are also cut with the games before it kept
WHOLE_ROUNDS = 2  # a game's first rounds and its last are cut at every line break ...
MIDDLE_STRIDE = 4  # ... the rounds between them at every fourth, and after each round header
ROUND_HEADER = re.compile(r"R\d+ ")


def sample_cuts(text: str) -> list[tuple[int, int]]:
    """The line breaks of `text` to cut at, as (start, cut): the prefix `text[start:cut]` to check.

    A file's games are read one by one (`game_texts`), so a cut inside a game is checked from that game's
    first line: the games before it read the same whatever follows, and re-reading them at each cut made
    this test quadratic in the file's length. Across a boundary the file is cut from its start too, for the
    first `BOUNDARY_CUTS` line breaks of each later game, so the reading of a game after whole ones is
    checked as well.

    Each cut still replays its game from the start, so a long game (the bidding samples run to 20 hands of
    25 lines) costs the square of its length. Its first `WHOLE_ROUNDS` rounds and its last are cut at every
    line break (the set-up, the first deal, the game's end); a round between them after its header and at
    every `MIDDLE_STRIDE`-th line break, which meets the same kinds of item in a later hand."""
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    starts = [line_starts[first - 1] for _, first, _ in game_texts(io.StringIO(text))] or [0]
    starts[0] = 0
    breaks = [m.start() for m in re.finditer("\n", text)] + [len(text)]
    cuts = []
    for game, start in enumerate(starts):
        end = starts[game + 1] if game + 1 < len(starts) else len(text) + 1
        inside = [cut for cut in breaks if start <= cut < end]
        cuts += [(start, cut) for cut in _thinned(text, inside)]
        if game:
            cuts += [(0, cut) for cut in inside[:BOUNDARY_CUTS]]
    return cuts


def _thinned(text: str, breaks: list[int]) -> list[int]:
    """`breaks` (one game's line breaks, in order) less the thinned ones of its middle rounds."""
    round_of, line_in_round, number = [], [], 0
    for at, cut in enumerate(breaks):
        line = text[(breaks[at - 1] + 1) if at else text.rfind("\n", 0, cut) + 1:cut]
        if ROUND_HEADER.match(line):
            number += 1
            line_in_round.append(0)
        else:
            line_in_round.append(line_in_round[-1] + 1 if line_in_round else 0)
        round_of.append(number)
    last = number
    return [cut for cut, number, line in zip(breaks, round_of, line_in_round)
            if number <= WHOLE_ROUNDS or number >= last or line % MIDDLE_STRIDE == 0]


def test_the_cuts_start_at_games_and_cover_the_first_and_last_rounds_and_every_round_header():
    many = thinned = 0
    for text in SAMPLES:
        cuts = sample_cuts(text)
        at = {cut for _, cut in cuts}
        every = {m.start() for m in re.finditer("\n", text)} | {len(text)}
        assert at <= every
        games = [game for _, _, game in game_texts(io.StringIO(text))]
        starts = sorted({start for start, _ in cuts})
        assert len(starts) == len(games)
        for start, game in zip(starts[1:], games[1:]):
            assert text[start:].startswith(game.lstrip("\n")[:40])
        many += len(games) > 1
        for game_start, game_end in zip(starts, starts[1:] + [len(text) + 1]):
            headers = [m.end() for m in re.finditer(r"(?m)^R\d+ .*$", text) if game_start <= m.start() < game_end]
            assert set(headers) <= at  # every round is cut after its header
            if len(headers) > WHOLE_ROUNDS + 1:  # the first rounds and the last: at every line break
                first = {cut for cut in every if game_start <= cut < headers[WHOLE_ROUNDS]}
                final = {cut for cut in every if headers[-1] <= cut < game_end}
                assert first | final <= at
            thinned += len({cut for cut in every if game_start <= cut < game_end} - at)
    assert many >= 2  # the samples have files of several games, so the boundary cuts are exercised
    assert thinned  # and games long enough to be thinned


@pytest.mark.slow
@pytest.mark.parametrize("share", range(CUT_SHARES))
def test_every_sample_cut_in_every_round(share):
    """Every sample's cuts (`sample_cuts`), once across the shares (share k takes cuts k, k + 8, ...)."""
    for text in SAMPLES:
        for start, cut in sample_cuts(text)[share::CUT_SHARES]:
            assert check_text(text[start:cut]) in ALLOWED, (text[start:start + 60], cut)


def test_the_samples_themselves_are_valid_so_the_mutations_start_from_valid_games():
    for text in SAMPLES:
        assert check_text(text) == "valid-complete"


def test_the_watchdog_turns_a_hang_into_a_failure():
    with pytest.raises(Hang):
        with time_limit(0.05):
            while True:
                pass


# --------------------------------------------------------------------------- the CLI, in-process


def validate_in_process(data: bytes, *options: str) -> tuple[int, str]:
    from diamonds.cli.main import main

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "fuzz.dgn")
        with open(path, "wb") as out:
            out.write(data)
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), time_limit():
            status = main(["validate", path, *options])
    return status, stdout.getvalue()


cli_inputs = st.one_of(
    st.binary(max_size=500),
    mutated_game().map(lambda text: text.encode("utf-8", "surrogatepass")),
)


@fuzz_settings(12)
@given(cli_inputs)
@example(b"")
@example(SAMPLES[0].encode())
@example(SAMPLES[0][:len(SAMPLES[0]) // 2].encode())
def test_cli_validate_answers_0_or_1_and_never_raises(data):
    status, out = validate_in_process(data)
    assert status in (0, 1), out
    assert re.search(r"^\d+ games?: \d+ valid, \d+ invalid, \d+ incomplete(, 1 file unreadable)?$", out, re.M), out


@fuzz_settings(8)
@given(cli_inputs)
def test_cli_validate_json_places_every_error_inside_the_file(data):
    status, out = validate_in_process(data, "--format", "json")
    assert status in (0, 1)
    report = json.loads(out)
    lines = decode_like_cli(data).split("\n")
    for game in report["files"][0]["games"]:
        for error in game["errors"]:
            assert 1 <= error["line"] <= len(lines), error
            assert 1 <= error["column"] <= len(lines[error["line"] - 1]) + 1, error
    summary = report["summary"]
    assert status == (1 if summary["invalid"] or summary["unreadable_files"] or summary["files_without_games"] else 0)


@fuzz_settings(5)
@given(cli_inputs)
def test_cli_validate_quiet_prints_only_the_summary(data):
    status, out = validate_in_process(data, "--quiet")
    assert status in (0, 1)
    assert len(out.strip().splitlines()) == 1, out


# --------------------------------------------------------------------------- found by the campaign
#
# `python bench/fuzz_campaign.py --inputs 1000000 --seed 1`: each distinct crash is pinned here with its
# minimal input, marked xfail(strict=True) while it is not fixed (strict: a fix makes the run fail as
# XPASS, so the mark cannot outlive the bug).
#
# The first campaign (on the tree of 02:43, before 13b54b1) found one class, in five places: a number of
# more than 4300 digits (Python's limit for int(str)) raised ValueError out of read_games (round number,
# pass count and trick number, in both readers) and out of replay_record (a Result score). 13b54b1 made
# them syntax errors; these are now plain regression tests.

DIGITS = "9" * 4301  # past Python's limit for int(str) (sys.get_int_max_str_digits(), 4300 by default)

INT_LIMIT_CASES = {
    # The fast reader (one item per line, no comments)
    "round-number-fast": f'[Players "Ann Bob"]\nR{DIGITS} dealer Ann pass 1\n',
    "pass-count-fast": f'[Players "Ann Bob"]\nR1 dealer Ann pass {DIGITS}\n',
    "trick-number-fast": f'[Players "Ann Bob"]\nR1 dealer Ann pass 1\n{DIGITS}. 5H\n',
    # The Lark parser (a comment sends the game there)
    "round-number-parser": f'[Players "Ann Bob"] {{x}}\nR{DIGITS} dealer Ann pass 1\n',
    "pass-count-parser": f'[Players "Ann Bob"] {{x}}\nR1 dealer Ann pass {DIGITS}\n',
    "trick-number-parser": f'[Players "Ann Bob"] {{x}}\nR1 dealer Ann pass 1\n{DIGITS}. 5H\n',
    # The replay, reading the Result tag (notation.tags.parse_result)
    "result-score": f'[Players "Ann Bob"]\n[Result "Ann {DIGITS}, Bob 1"]\n',
}


@pytest.mark.parametrize("text", INT_LIMIT_CASES.values(), ids=INT_LIMIT_CASES.keys())
def test_a_number_too_long_for_int_is_an_error_not_a_crash(text):
    assert check_text(text) == "invalid"


# A lettered card (`AC`, a card of the bidding game's pack) in a trick of a Fitzgerald game with deal lines: the
# trick loop looked its move up among the deck's cards and crashed with a KeyError. Found by
# test_mutated_games_give_an_answer_with_well_placed_errors.

FOREIGN_CARD = ('[Rules "1e"]\n[Players "hwalsh Ines_B Kofi"]\n[Dealer "Kofi"]\n[Result "*"]\n\nR1 dealer Kofi pass 2\n'
                "deal hwalsh 5D 10D 11D 3H 15H 6S 9S 10S 3C 10C\ndeal Ines_B 1D 4D 14D 2H 10H 11H 1S 11C 14C 15C\n"
                "deal Kofi 3D 13D 6H 5S 7S 12S 13S 2C 4C 9C\npass hwalsh 11D 6S\npass Ines_B 1D 14D\npass Kofi 13S 4C\n")


@pytest.mark.parametrize("trick", ["1. AC 15C 9C\n", "1. {hwalsh leads} AC 15C>hwalsh 9C\n"])
def test_a_card_of_no_deck_in_a_dealt_trick_is_an_error_not_a_crash(trick):
    assert check_text(FOREIGN_CARD + trick) == "invalid"
    for check in (validate_record, replay_record):
        problems = check(parse_game(FOREIGN_CARD + trick)).problems
        assert [(p.pos.line, p.message) for p in problems][:1] == [(13, "AC is not in this game's deck (ranks 1-15)")]


# --------------------------------------------------------------------------- found by bench/pathological.py
#
# Reading was quadratic where many items of one round carry a comment (each commented item cost the
# size of its round again); comments are now attached in one pass per round. The test compares the reader's
# CPU time at 8 times the items with its time at the base size, in the same process: a linear reader costs
# about 8 times as much (8 to 11 measured, at a load of 13 on 2 cores), a quadratic one about 64 times (40 at
# these sizes, its linear part included). A ratio of two costs on one machine does not depend on that
# machine's speed, as the 5 s watchdog at 20,000 items did (4.9 s of wall time at a load of 8; issue 34).

BASE_ITEMS = 2_000
GROWTH = 8
DECK = [f"{rank}{suit}" for suit in "DHSC" for rank in range(1, 16)]
QUADRATIC_CASES = {
    "a-comment-on-each-trick": lambda n: '[Players "Ann Bob Cat"]\nR1 dealer Ann pass 1\n'
                                         + "".join(f"{k}. 5H {{c}}\n" for k in range(1, n + 1)),
    "a-comment-on-each-card": lambda n: '[Players "Ann Bob Cat"]\nR1 dealer Ann pass 1\n1.'
                                        + "".join(f" {DECK[k % len(DECK)]} {{c}}" for k in range(n)),
}


def reading_costs(small: str, large: str, repeats: int) -> tuple[float, float]:
    """The least CPU time (not wall time: waiting for a core is not counted) of reading each text, the two
    taken in turn so that both meet the same neighbours (CI runs another test worker beside this one), with
    the cyclic garbage collector off: its full passes grow with the heap and were the ratio's noise (26.9
    once in CI, against 8 to 11 alone)."""
    costs: dict[str, list[float]] = {"small": [], "large": []}
    collecting = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            for size, text in (("small", small), ("large", large)):
                began = time.process_time()
                with time_limit():
                    records = list(read_games(io.StringIO(text)))
                costs[size].append(time.process_time() - began)
                assert len(records) == 1
    finally:
        if collecting:
            gc.enable()
    return min(costs["small"]), min(costs["large"])


@pytest.mark.slow  # 16,000 commented items
@pytest.mark.parametrize("make", QUADRATIC_CASES.values(), ids=QUADRATIC_CASES.keys())
def test_comments_on_many_items_are_read_in_linear_time(make):
    small, large = reading_costs(make(BASE_ITEMS), make(BASE_ITEMS * GROWTH), 3)
    ratio = large / small
    assert ratio < GROWTH * 2.5, f"{GROWTH} times the items cost {ratio:.1f} times as much"
