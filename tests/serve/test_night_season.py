"""A season is the club's nights: `diamonds stats --by player DIR` and `diamonds ratings DIR` read a folder
whose subfolders are nights served by `diamonds serve` (their tables/*.dgn, in a stable order, the
store, token and lock files beside them left alone), as they read one night."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from command import diamonds  # noqa: F401  (the fixture: the command in this process)
from servehelp import game_items

pytest.importorskip("fastapi")
pytest.importorskip("pyarrow")

from diamonds.serve.club import Club  # noqa: E402


def _night(folder: Path, date: str, games: list[tuple[str, int]]) -> None:
    """A night served in `folder`: one table a game, each played to its end as its scorer would."""
    club = Club.open(str(folder))
    try:
        for rules, seed in games:
            game, _, items = game_items(rules, 3, seed=seed)
            config = game.config
            table, _ = club.create(rules, list(config.players), config.players[config.first_dealer], [],
                                   {"Date": date, "Event": "Club night"})
            for item in items:
                assert club.change(table, "item", item, f'"{table.version}"', None).status == 200
    finally:
        club.close()


def test_stats_and_ratings_read_a_folder_of_nights(diamonds, tmp_path: Path) -> None:  # noqa: F811
    pytest.importorskip("openskill")
    season = tmp_path / "season"
    _night(season / "2026-11-05", "2026.11.05", [("2e", 4), ("bidding", 2)])
    _night(season / "2026-11-12", "2026.11.12", [("2e", 5)])
    assert (season / "2026-11-05" / "club.sqlite").exists()  # a served night's folder, as it is left
    assert sorted(p.name for p in (season / "2026-11-05" / "tables").glob("*.dgn")) == [
        p.name for p in sorted((season / "2026-11-05" / "tables").glob("*.dgn"))]
    league = diamonds("stats", "--by", "player", season, "--format", "csv")
    assert league.code == 0, league
    rows = list(csv.DictReader(io.StringIO(league.out)))
    assert rows, league.out
    games = {(row["player"], row["rules"]): int(row["games"]) for row in rows}  # a row per game, as ever
    assert games == {(name, rules): count for name in ("Ann", "Bob", "Cat")
                     for rules, count in (("2e", 2), ("bidding", 1))}  # both nights' games, every one of them
    one_night = diamonds("stats", "--by", "player", season / "2026-11-12", "--format", "csv")
    assert {(row["player"], row["rules"]): int(row["games"]) for row in csv.DictReader(io.StringIO(one_night.out))} \
        == {("Ann", "2e"): 1, ("Bob", "2e"): 1, ("Cat", "2e"): 1}
    rated = diamonds("ratings", season, "--format", "json")
    assert rated.code == 0, rated
    ratings = json.loads(rated.out)
    assert ratings["games"] == 3
    assert {row["player"]: row["games"] for row in ratings["players"]} == {"Ann": 3, "Bob": 3, "Cat": 3}
    again = diamonds("ratings", season, "--format", "json")
    assert again.out == rated.out  # the same order every time: the same ratings
