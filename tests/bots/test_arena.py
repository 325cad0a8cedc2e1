"""`diamonds arena`: the games and the standings depend on the seed only (not on --jobs), and validate."""

from __future__ import annotations

import pytest

import diamonds
from diamonds.bots.arena import ArenaSetup, format_standings, play_game, seat_bots, standings
from diamonds.cli.main import main


def test_seats_rotate() -> None:
    setup = ArenaSetup("2e", 4, ("mc", "greedy", "greedy", "random"), 1)
    assert seat_bots(setup, 0) == ("mc", "greedy", "greedy", "random")
    assert seat_bots(setup, 1) == ("random", "mc", "greedy", "greedy")


def test_a_game_is_its_seed() -> None:
    setup = ArenaSetup("kirk", 4, ("mc:2", "greedy", "random", "random"), 7, options={"Hands": "1"})
    first, again = play_game(setup, 3), play_game(setup, 3)
    assert first == again
    game = diamonds.Game.from_text(first.text)
    assert game.is_valid and game.is_complete
    assert game.tags["Bots"] == "Ann=greedy Bob=random Cat=random Dan=mc:2"


@pytest.mark.process  # --jobs 2: worker processes
def test_command_is_reproducible_across_jobs(tmp_path, capsys) -> None:
    outputs = []
    for jobs in ("1", "2"):
        path = tmp_path / f"arena{jobs}.dgn"
        assert main(["arena", "--rules", "2e", "--players", "3", "--bots", "mc:2,greedy,random", "--games", "6",
                     "--seed", "5", "--jobs", jobs, "-o", str(path)]) == 0
        outputs.append((path.read_text(encoding="utf-8"), capsys.readouterr().out))
    assert outputs[0] == outputs[1]
    games = list(diamonds.read_games(str(tmp_path / "arena1.dgn")))
    assert len(games) == 6 and all(game.is_valid for game in games)
    assert "mc:2" in outputs[0][1] and "rating" in outputs[0][1]


def test_standings_table() -> None:
    setup = ArenaSetup("2e", 2, ("greedy", "random"), 2)
    rows = standings(play_game(setup, number) for number in range(4))
    assert {row.bot for row in rows} == {"greedy", "random"} and all(row.games == 4 for row in rows)
    assert "greedy" in format_standings(rows)


@pytest.mark.process  # interpreters of other hash seeds
def test_games_do_not_depend_on_the_hash_seed(tmp_path) -> None:
    """Sets of cards are never iterated where their order could decide a move: other interpreters agree."""
    import os
    import subprocess
    import sys

    texts = []
    for hash_seed in ("1", "2"):
        path = tmp_path / f"h{hash_seed}.dgn"
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        code = ("from diamonds.cli.main import main; import sys; sys.exit(main(['arena', '--rules', '1e', "
                f"'--players', '3', '--bots', 'mc:2,greedy,random', '--games', '2', '--seed', '9', '-o', {str(path)!r}]))")
        subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, timeout=300)
        texts.append(path.read_text(encoding="utf-8"))
    assert texts[0] == texts[1]
