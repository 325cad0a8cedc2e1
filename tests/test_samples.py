"""samples/: the recorded games replay valid and complete; the recording mistakes print their goldens exactly."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from diamonds.families.fitzgerald.rules import RULE_SETS as FITZGERALD_RULES
from diamonds.notation import read_games
from diamonds.notation.diagnostics import format_problem
from diamonds.notation.records import GameRecord
from diamonds.notation.tags import parse_result, parse_variants
from diamonds.replay import replay_record

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
INVALID = SAMPLES / "invalid"
VALID_FILES = sorted(SAMPLES.glob("*.dgn"))
INVALID_FILES = sorted(INVALID.glob("*.dgn"))


def games_of(path: Path) -> list:  # type: ignore[type-arg]
    with path.open(encoding="utf-8", newline="") as stream:
        return list(read_games(stream))


ALL_GAMES = [(path, record) for path in VALID_FILES for record in games_of(path)]


@pytest.mark.parametrize(("path", "record"), ALL_GAMES,
                         ids=[f"{p.name}#{r.index}" for p, r in ALL_GAMES])
def test_every_sample_game_is_valid_and_complete_with_its_result_confirmed(path, record):
    assert record.readable, record.problems
    replayed = replay_record(record)
    assert replayed.valid, [format_problem(path.name, record, p) for p in replayed.problems]
    assert replayed.complete, replayed.notes
    entries = parse_result(record.tag_value("Result", "*"))
    assert entries is not None, "the Result holds the scores"
    config = replayed.game.config
    written = {tuple(sorted(config.seat_of(name) for name in e.side)): e.score for e in entries}
    actual = {config.sides[r.side]: r.score for r in replayed.game.standings()}
    assert written == actual


def fitzgerald_games() -> list[tuple[Path, GameRecord]]:
    """The samples of Fitzgerald's family (the other families have samples and tests of their own)."""
    return [(path, record) for path, record in ALL_GAMES if record.tag_value("Rules", "2e") in FITZGERALD_RULES]


def test_the_samples_cover_every_rule_set_table_size_and_variant():
    assert len(fitzgerald_games()) >= 10
    seen = set()
    for _, record in fitzgerald_games():
        players = len(record.tag_value("Players").split())
        variants = parse_variants(record.tag_value("Variant", ""))
        seen.add(record.tag_value("Rules", "2e"))
        seen.add(f"{players}p" + ("-partnership" if "partnership" in variants else ""))
        seen.update(variants)
    assert {"1e", "2e", "bga", "2p", "3p", "4p-partnership", "5p", "6p-partnership", "perfect"} <= seen


def test_the_samples_look_like_club_records():
    annotations: set[str] = set()
    commented = without_deals = 0
    for _, record in fitzgerald_games():
        assert all(record.tag_value(name) for name in ("Event", "Site", "Date", "Round"))
        assert len(record.tag_value("Date")) == 10 and record.tag_value("Date")[4] == "."
        plays = [p for rnd in record.rounds for t in rnd.tricks for p in t.plays]
        annotations.update(p.annotation for p in plays if p.annotation)
        commented += bool(record.comments or any(p.comments for p in plays))
        without_deals += not any(rnd.lines("deal") for rnd in record.rounds)
    assert annotations == {"!", "?", "!!", "??", "!?", "?!"}
    assert commented >= 3 and without_deals >= 1


def test_the_multi_game_file_yields_all_its_games_in_order():
    path = SAMPLES / "club-night-2026-11-20.dgn"
    games = games_of(path)
    assert len(games) >= 3
    assert [g.index for g in games] == list(range(1, len(games) + 1))
    assert [g.tag_value("Round") for g in games] == [str(i) for i in range(1, len(games) + 1)]
    starts = [n for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if line.startswith("[Event")]
    assert [g.first_line for g in games] == starts


def test_every_sample_file_is_made_by_the_generator():
    spec = importlib.util.spec_from_file_location("make_samples", SAMPLES / "make_samples.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    files = {path for path, _ in fitzgerald_games()}
    assert set(module.FILES) == {p.name for p in files}
    assert {name: len(samples) for name, samples in module.FILES.items()} == {p.name: len(games_of(p)) for p in files}


# --------------------------------------------------------------------------- recording mistakes


def printed(path: Path) -> str:
    """What the checker prints for a file: every problem of every game, path from the repository root."""
    shown = path.relative_to(ROOT).as_posix()
    return "".join(format_problem(shown, record, problem) + "\n"
                   for record in games_of(path) for problem in replay_record(record).problems)


def test_there_are_about_a_dozen_recording_mistakes_each_with_a_golden():
    assert len(INVALID_FILES) >= 12
    assert {p.stem for p in INVALID.glob("*.expected")} == {p.stem for p in INVALID_FILES}


@pytest.mark.parametrize("path", INVALID_FILES, ids=lambda p: p.stem)
def test_a_recording_mistake_prints_exactly_its_golden(path):
    golden = path.with_suffix(".expected").read_text(encoding="utf-8")
    assert golden, "a golden is never empty: the file has a mistake"
    assert golden.startswith(f"samples/invalid/{path.name}:")
    assert printed(path) == golden


@pytest.mark.parametrize("path", INVALID_FILES, ids=lambda p: p.stem)
def test_a_recording_mistake_is_one_game_with_one_problem(path):
    (record,) = games_of(path)
    assert len(replay_record(record).problems) == 1
