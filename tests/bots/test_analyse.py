"""`diamonds analyse`: marks from mc's estimates, exact values in a round's last four tricks; the output
validates and is canonical (`fmt`)."""

from __future__ import annotations

import random

import diamonds
from diamonds.bots.analyse import analyse_game
from diamonds.bots.solver import MAX_NODES, MAX_TRICKS
from diamonds.cli.main import MAX_EXACT_NODES, main
from diamonds.core.simulate import default_names
from diamonds.notation.writer import write_game


def test_marks_follow_the_thresholds() -> None:
    game = next(diamonds.read_games("samples/bga-2p-online.dgn"))
    record, judgements = analyse_game(game, samples=2, seed=1, mistake=0.5, blunder=3.0, exact_nodes=0)
    assert judgements and all(j.loss >= -1e-9 for j in judgements)
    for j in judgements:
        assert j.glyph == ("??" if j.loss >= 3.0 else "?" if j.loss >= 0.5 else None)
    text = write_game(record)
    assert text.count("{best: ") == sum(1 for j in judgements if j.glyph) > 0
    again = diamonds.Game.from_text(text)
    assert again.is_valid and again.moves == game.moves


def test_command_output_validates_and_is_canonical(tmp_path) -> None:
    out = tmp_path / "annotated.dgn"
    assert main(["analyse", "samples/kirk-4p-hands.dgn", "-o", str(out), "--samples", "1", "--mistake", "1",
                 "--exact-nodes", "0"]) == 0
    assert "{best: " in out.read_text(encoding="utf-8")
    assert main(["validate", str(out)]) == 0
    assert main(["fmt", "--check", str(out)]) == 0


def one_round(seed: int) -> str:
    """A first round of 2e for four, played at random, as DGN with its deal lines (Result "*")."""
    rng = random.Random(seed)
    position = diamonds.Position("2e", default_names(4), dealer=0)
    position.deal(rng)
    while not position.is_chance:
        position.push(rng.choice(position.legal_moves))
    return str(position.game({"Event": "Exact"}))


def test_the_last_four_tricks_are_judged_exactly(tmp_path) -> None:
    game = diamonds.Game.from_text(one_round(5))
    assert "deal Ann" in str(game) and game.is_valid
    record, judgements = analyse_game(game, samples=1, seed=0, mistake=0.01)
    tricks = game.start().config.tricks_per_round
    exact = [j for j in judgements if j.exact]
    assert exact and any(j.loss > 0 for j in exact)
    # exactly the decisions of the last four tricks (the solver's budget is never reached in 2e for four)
    assert {j.play_index // 4 >= tricks - MAX_TRICKS for j in judgements} == {True, False}
    assert all(j.exact == (j.play_index // 4 >= tricks - MAX_TRICKS) for j in judgements)
    out = tmp_path / "annotated.dgn"  # what `diamonds analyse` writes
    out.write_text(write_game(record), encoding="utf-8")
    text = out.read_text(encoding="utf-8")
    assert "(exact " in text and "(est " in text
    again = diamonds.Game.from_text(text)
    assert again.is_valid and again.moves == game.moves
    assert main(["validate", str(out)]) == 0
    assert main(["fmt", "--check", str(out)]) == 0


def test_the_command_default_budget_is_the_solver_s() -> None:
    assert MAX_EXACT_NODES == MAX_NODES
