"""`diamonds arena`: the games and the standings depend on the seed only (not on --jobs), and validate."""

from __future__ import annotations

import pytest

import diamonds
from diamonds import read_games
from diamonds.bots.arena import (
    ArenaSetup,
    GameResult,
    deal_of,
    format_leads,
    format_standings,
    paired_leads,
    play_game,
    seat_bots,
    standings,
)
from diamonds.cli.main import main
from diamonds.replay.intervals import wilson


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
    table = format_standings(rows)
    for row in rows:  # each bot's share of wins with Wilson's 95% interval over its seats
        low, high = wilson(row.wins, row.games) or (0.0, 1.0)
        line = next(line for line in table.splitlines() if line.startswith(row.bot + " "))
        assert f" {100 * low:.1f}-{100 * high:.1f} " in line and f"{row.mean:.1f} ± {row.interval:.1f}" in line


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


def test_duplicate_plays_each_deal_once_per_rotation_of_the_bots(tmp_path, capsys) -> None:
    """`--duplicate`: 6 games of 3 seats are 2 deals, each dealt alike (the first dealer and the first round's
    hands) in its 3 games with the bots rotated; without it every game has a deal of its own."""
    def deals(*extra: str) -> tuple[list[tuple[tuple[str, ...], str]], str]:
        path = tmp_path / "arena.dgn"
        assert main(["arena", "--rules", "1e", "--players", "3", "--bots", "greedy,random,random", "--games", "6",
                     "--seed", "4", "-o", str(path), "--force", *extra]) == 0
        games = list(read_games(str(path)))
        assert len(games) == 6 and all(game.is_valid for game in games)
        return [((game.tags["Dealer"], *[line for line in str(game).splitlines() if line.startswith("deal ")][:3]),
                 game.tags["Bots"]) for game in games], capsys.readouterr().out

    played, summary = deals("--duplicate")
    assert "6 games of 1e, 3 players, seed 4, 2 duplicate deals" in summary
    cards = [deal for deal, _ in played]
    assert cards[0] and cards[0] == cards[1] == cards[2] != cards[3] == cards[4] == cards[5]
    assert [bots.split().index(next(w for w in bots.split() if w.endswith("=greedy"))) for _, bots in played] == \
        [0, 1, 2, 0, 1, 2]  # the greedy seat goes round once per deal
    fresh, _ = deals()
    assert len({deal for deal, _ in fresh}) == 6


def test_duplicate_needs_whole_deals(capsys) -> None:
    code = main(["arena", "--rules", "kirk", "--bots", "random,random,random,random", "--games", "6", "--duplicate",
                 "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.splitlines() == ["diamonds arena: --duplicate plays each deal once per rotation of the 4 seats' "
                                    "bots: --games 6 is not a multiple of 4"]


def _game(number: int, bots: tuple[str, ...], scores: tuple[int, ...]) -> GameResult:
    best = max(scores)
    return GameResult(number, bots, scores, tuple(score == best for score in scores), "")


def test_a_lead_is_taken_game_by_game_and_deal_by_deal() -> None:
    """A bot's lead over the others' seats: each game's difference (its seats' mean less the others'), then each
    deal's mean of its games, then the deals' mean with its interval. Where every deal's mean lead is the same,
    the interval is nothing, however much the games within a deal differ: the pairing is by deal."""
    games = []
    for deal in range(5):
        base = 10 * deal  # the cards: every seat's score moves with the deal, which the lead must not see
        games += [_game(3 * deal, ("A", "B", "B"), (base + 7, base, base + 2)),  # A leads by 6
                  _game(3 * deal + 1, ("B", "A", "B"), (base + 1, base + 3, base + 1)),  # by 2
                  _game(3 * deal + 2, ("B", "B", "A"), (base, base, base + 4))]  # by 4: a mean of 4 a deal
    leads = {row.bot: row for row in paired_leads((result.number // 3, result) for result in games)}
    assert (leads["A"].deals, leads["A"].lead, leads["A"].interval) == (5, 4.0, 0.0)
    assert (leads["B"].lead, leads["B"].interval) == (-4.0, 0.0)  # B's two seats against A's one
    by_game = {row.bot: row for row in paired_leads((result.number, result) for result in games)}
    assert by_game["A"].deals == 15 and by_game["A"].lead == 4.0 and by_game["A"].interval > 0.5
    few = paired_leads((result.number // 3, result) for result in games[:6])
    assert all(row.deals == 2 and row.interval == float("inf") for row in few)
    assert "(too few)" in format_leads(few, "deal")


def test_the_arena_prints_each_bots_lead_per_deal(tmp_path, capsys) -> None:
    """`--duplicate`: the lead per deal beside the standings; with every game's seats filled alike (one greedy,
    two random), greedy's lead is its mean score less random's, as the standings' means say it."""
    assert main(["arena", "--rules", "1e", "--players", "3", "--bots", "greedy,random,random", "--games", "9",
                 "--duplicate", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "lead over the other bots' seats, per deal" in out
    setup = ArenaSetup("1e", 3, ("greedy", "random", "random"), 4, duplicate=True)
    results = [play_game(setup, number) for number in range(9)]
    means = {row.bot: row.mean for row in standings(results)}
    leads = {row.bot: row for row in paired_leads((deal_of(setup, result.number), result) for result in results)}
    assert leads["greedy"].deals == 3 and abs(leads["greedy"].lead - (means["greedy"] - means["random"])) < 1e-9
    line = next(line for line in out.splitlines() if line.startswith("greedy ") and "[" in line)
    assert f"{leads['greedy'].lead:+.2f}" in line and f"{leads['greedy'].low:+.2f}" in line
    assert main(["arena", "--rules", "1e", "--players", "3", "--bots", "greedy,random,random", "--games", "3",
                 "--seed", "4"]) == 0
    assert "per game" in capsys.readouterr().out
