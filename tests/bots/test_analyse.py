"""`diamonds analyse`: marks from mc's estimates; the output validates and is canonical (`fmt`)."""

from __future__ import annotations

import diamonds
from diamonds.bots.analyse import analyse_game
from diamonds.cli.main import main
from diamonds.notation.writer import write_game


def test_marks_follow_the_thresholds() -> None:
    game = next(diamonds.read_games("samples/bga-2p-online.dgn"))
    record, judgements = analyse_game(game, samples=2, seed=1, mistake=0.5, blunder=3.0)
    assert judgements and all(j.loss >= -1e-9 for j in judgements)
    for j in judgements:
        assert j.glyph == ("??" if j.loss >= 3.0 else "?" if j.loss >= 0.5 else None)
    text = write_game(record)
    assert text.count("{best: ") == sum(1 for j in judgements if j.glyph) > 0
    again = diamonds.Game.from_text(text)
    assert again.is_valid and again.moves == game.moves


def test_command_output_validates_and_is_canonical(tmp_path) -> None:
    out = tmp_path / "annotated.dgn"
    assert main(["analyse", "samples/kirk-4p-hands.dgn", "-o", str(out), "--samples", "1", "--mistake", "1"]) == 0
    assert "{best: " in out.read_text(encoding="utf-8")
    assert main(["validate", str(out)]) == 0
    assert main(["fmt", "--check", str(out)]) == 0
