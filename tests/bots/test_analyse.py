"""`diamonds analyse`: marks from mc's estimates, exact values in a round's last four tricks; the output
validates and is canonical (`fmt`)."""

from __future__ import annotations

import random

import pytest

import diamonds
from diamonds.bots import family_bot
from diamonds.bots.analyse import analyse_game, marks
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



def test_by_default_a_game_is_marked_in_its_own_family_s_points() -> None:
    """A Kirk trick is worth tens of points (K7), a Suit Action 1 to 3 (R12): Kirk's game is marked by its
    own thresholds, so a card that loses 3 points there is no mistake, as it would be in Fitzgerald's."""
    rng = random.Random(3)
    pos = diamonds.Position("kirk", default_names(4), dealer=0, options={"Hands": "1"})
    while not pos.is_over:
        if pos.is_chance:
            pos.deal(rng)
        else:
            pos.push(rng.choice(pos.legal_moves))
    _, judgements = analyse_game(pos.game(), samples=1, seed=1, exact_nodes=0)
    mistake, blunder = family_bot("kirk").thresholds
    assert (mistake, blunder) == marks("kirk") and mistake > marks("2e")[1]
    for j in judgements:
        assert j.glyph == ("??" if j.loss >= blunder else "?" if j.loss >= mistake else None)
    assert any(marks("2e")[0] <= j.loss < mistake for j in judgements)  # marked in Fitzgerald's points
    # one threshold given: the other is the family's, and a blunder is never less than a mistake
    assert marks("kirk", 3.0) == (3.0, blunder) and marks("kirk", 40.0) == (40.0, 40.0)
    assert marks("kirk", None, 12.0) == (mistake, 12.0)

@pytest.mark.slow  # mc's samples on every decision of a game
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
