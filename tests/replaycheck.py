"""Records changed the way a scorer gets things wrong, and the checks every trick-taking family's bridge
shares (kirk, bidding): the helpers that edit a written game by line and token, and the checks of the
samples, their generator and the recording mistakes' goldens.

Lines and columns are 1-based, as the problems report them; a token is a run of non-space characters.
"""

from __future__ import annotations

import functools
import importlib.util
import io
import re
import sys
from pathlib import Path
from types import ModuleType

from diamonds.core import simulate
from diamonds.notation import game_texts, parse_game, parse_games
from diamonds.notation.diagnostics import format_problem
from diamonds.notation.records import GameRecord, Problem
from diamonds.notation.tags import parse_result
from diamonds.notation.writer import write_game
from diamonds.replay import ReplayedGame, record_from_game, replay_record, validate_record

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
INVALID = SAMPLES / "invalid"


@functools.cache
def simulated_text(players: tuple[str, ...], rules: str, seed: int, *, deals: bool = True, **options: str) -> str:
    """A complete simulated game (the first player deals first) written canonically."""
    game = simulate(players, rules=rules, seed=seed, dealer=players[0], options=options or None)
    return write_game(record_from_game(game, tags=[("Event", "test")], deals=deals))


def problems(text: str, *, validates_alike: bool = False) -> list[Problem]:
    """The problems the replay finds in a readable record (and, `validates_alike`, the check without history)."""
    record = parse_game(text)
    assert record.readable, record.problems
    found = replay_record(record).problems
    if validates_alike:
        assert validate_record(record).problems == found, "the check without history finds the same"
    return found


def only_problem(text: str, *, validates_alike: bool = False) -> Problem:
    found = problems(text, validates_alike=validates_alike)
    assert len(found) == 1, found
    return found[0]


def lines_of(text: str) -> list[str]:
    return text.split("\n")


def line_no(text: str, prefix: str, *, hand: int = 1) -> int:
    """The 1-based number of the first line starting with `prefix` in hand `hand` (or in the tags, hand 0)."""
    lines = lines_of(text)
    start = 0
    if hand:
        start = next(i for i, line in enumerate(lines) if line.startswith(f"R{hand} "))
    return next(i for i in range(start, len(lines)) if lines[i].startswith(prefix)) + 1


def token_at(text: str, line: int, index: int) -> tuple[str, int]:
    """The `index`-th token of a line (0-based; negative from the end), and its 1-based column."""
    match = list(re.finditer(r"\S+", lines_of(text)[line - 1]))[index]
    return match.group(), match.start() + 1


def replace_token(text: str, line: int, index: int, new: str) -> tuple[str, int]:
    """The text with one token of a line replaced; and the token's column."""
    lines = lines_of(text)
    match = list(re.finditer(r"\S+", lines[line - 1]))[index]
    lines[line - 1] = lines[line - 1][: match.start()] + new + lines[line - 1][match.end():]
    return "\n".join(lines), match.start() + 1


def drop_line(text: str, line: int) -> str:
    lines = lines_of(text)
    del lines[line - 1]
    return "\n".join(lines)


def edit_line(text: str, line: int, new: str) -> str:
    lines = lines_of(text)
    lines[line - 1] = new
    return "\n".join(lines)


def insert_line(text: str, before: int, new: str) -> str:
    lines = lines_of(text)
    lines.insert(before - 1, new)
    return "\n".join(lines)


def assert_at(problem: Problem, line: int, column: int, *, code: str | None = None, rule: str | None = None) -> None:
    assert (problem.line, problem.column) == (line, column), problem
    if code is not None:
        assert problem.code == code, problem
    if rule is not None:
        assert problem.rule == rule, problem


def unfinished(text: str) -> str:
    """The text with `Result "*"`."""
    return re.sub(r'\[Result "[^"]*"\]', '[Result "*"]', text)


def cut_after(text: str, line: int, keep_tokens: int | None = None) -> str:
    """The text up to line `line` (kept whole, or only its first `keep_tokens` tokens), the rest dropped,
    with `Result "*"`: an unfinished game."""
    lines = lines_of(text)[:line]
    if keep_tokens is not None:
        lines[-1] = " ".join(lines[-1].split()[:keep_tokens])
    return unfinished("\n".join(lines) + "\n")


def without_lines(text: str, *prefixes: str, hand: int = 1) -> str:
    """The text without the lines of a hand that start with the prefixes (`deal Bob`, `kitty`)."""
    for prefix in prefixes:
        text = drop_line(text, line_no(text, prefix, hand=hand))
    return text


def games_of(path: Path) -> list[GameRecord]:
    with path.open(encoding="utf-8", newline="") as stream:
        return parse_games(stream.read())


def printed(path: Path) -> str:
    """What the replay prints of a file's problems, the file named from the project's root."""
    shown = path.relative_to(ROOT).as_posix()
    return "".join(format_problem(shown, record, problem) + "\n"
                   for record in games_of(path) for problem in replay_record(record).problems)


# --------------------------------------------------------------------------- the checks of a family's files


def check_sample(path: Path, rules: str) -> None:
    """Every game of a sample file is of these rules, valid and complete, with its Result the replay's scores."""
    for record in games_of(path):
        assert record.tag_value("Rules") == rules
        replayed = replay_record(record)
        assert replayed.valid, [format_problem(path.name, record, p) for p in replayed.problems]
        assert replayed.complete, replayed.notes
        entries = parse_result(record.tag_value("Result", "*"))
        assert entries is not None, "the Result holds the scores"
        config = replayed.config
        written = {config.seat_of(entry.side[0]): entry.score for entry in entries}
        assert written == {s.side: s.score for s in replayed.game.standings()}
        assert validate_record(record).valid


@functools.cache
def _generator(rules: str) -> ModuleType:
    """samples/make_<rules>_samples.py, run once per process (at collection) and registered in `sys.modules`
    under its name, as an import would: its dataclasses look their module up, when made and when played."""
    spec = importlib.util.spec_from_file_location(f"make_{rules}_samples", SAMPLES / f"make_{rules}_samples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[spec.name]
        raise
    return module


def generated_games(rules: str) -> list:
    """(file name, game index) of every game samples/make_<rules>_samples.py writes, one test each, so that
    a slow generator's games are shared out among the test workers: those played by `mc` again (most of a
    minute of CPU each) are marked slow."""
    import pytest

    return [pytest.param(name, index, id=f"{name}-{index}",
                         marks=[pytest.mark.slow] if any(b.startswith("mc") for b in getattr(sample, "bots", ())) else [])
            for name, samples in _generator(rules).FILES.items() for index, sample in enumerate(samples)]


def check_generator_files(rules: str, paths: list[Path]) -> None:
    """The generator writes exactly these sample files, each its games joined as `write_games` joins them."""
    files = _generator(rules).FILES
    assert set(files) == {p.name for p in paths}
    for name, samples in files.items():
        assert len(_game_pieces(name)) == len(samples), name


def check_generated_game(rules: str, name: str, index: int) -> None:
    """Game `index` of sample `name` is exactly what samples/make_<rules>_samples.py plays for it."""
    module = _generator(rules)
    text = write_game(module.make(module.FILES[name][index])[1])
    assert text == _game_pieces(name)[index], (name, index)


def _game_pieces(name: str) -> list[str]:
    """The sample's games' texts as the reader cuts them (`game_texts`), less the line break `write_games` joins
    them with (a game's text runs to the next game's first tag, so it holds the blank line between)."""
    text = (SAMPLES / name).read_text(encoding="utf-8")
    pieces = [piece for _, _, piece in game_texts(io.StringIO(text))]
    assert all(piece.endswith("\n") for piece in pieces[:-1]) and "".join(pieces) == text
    return [piece[:-1] for piece in pieces[:-1]] + pieces[-1:]


def check_golden(path: Path) -> GameRecord:
    """A recording mistake prints exactly its golden (`<name>.expected`); its one game."""
    golden = path.with_suffix(".expected").read_text(encoding="utf-8")
    assert golden.startswith(f"samples/invalid/{path.name}:")
    assert printed(path) == golden
    (record,) = games_of(path)
    return record


def check_round_trip(record: GameRecord) -> ReplayedGame:
    """A record is written and read back the same, and validates and replays as a complete game."""
    text = write_game(record)
    back = parse_game(text)
    assert back == record
    assert write_game(back) == text
    checked = validate_record(back)
    assert checked.valid and checked.complete, checked.problems
    replayed = replay_record(back)
    assert replayed.valid and replayed.complete
    return replayed
