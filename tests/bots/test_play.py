"""`diamonds play`: a whole game against the bots from piped lines; illegal lines are refused and asked again."""

from __future__ import annotations

import io

import diamonds
from diamonds.cli.main import main
from diamonds.core.cards import standard_cards


def test_a_whole_kirk_hand_from_piped_lines(tmp_path, monkeypatch, capsys) -> None:
    deck = [str(card) for card in standard_cards(2)]
    lines = ["moves", "9X"] + deck * 13  # each prompt takes the first card of the pack Ann still holds
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    out = tmp_path / "mine.dgn"
    assert main(["play", "--rules", "kirk", "--as", "Ann", "--bots", "greedy", "--hands", "1", "--seed", "4",
                 "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "game over" in said and "'9X' is not one of" in said
    assert "  Diamonds: " in said and "  Clubs: " in said  # `moves`: the cards by suit
    assert "wins trick 13" in said and "Scores at R1.end: Ann " in said  # told as the replay tells it
    game = next(diamonds.read_games(str(out)))
    assert game.is_valid and game.is_complete
    assert game.tags["Bots"] == "Ann=human Bob=greedy Cat=greedy Dan=greedy"
