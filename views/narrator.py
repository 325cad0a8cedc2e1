"""A game told as it is played, from one player's seat: the replay's step log, line by line as the moves come.

`diamonds play` says what every move did (a card, the trick's winner, a Suit Action, a hand's scoring) in
the words of the replay's `--steps` log (the family view's `step_lines`, so with what the seat may not see
left out: another's pass, a kitty take), and after each round the scores the seat may see (a hidden
Vault is `?`, R2). The stops are cut from the game's events by the family's `steps` part, the one cutter.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from diamonds.core import family_of
from diamonds.replay import record_from_game
from diamonds.replay.validate import ReplayedGame

from . import View

__all__ = ["Narrator", "scores_line"]


class Narrator:
    """Says each event once: `news(engine)` gives the lines of what happened since it was last asked."""

    def __init__(self, view: View, seat: int) -> None:
        self.view, self.seat = view, seat
        self.said = 0  # events told so far, over the whole game
        self.scored = 0  # the last round whose scores were told

    def news(self, engine: Any) -> list[str]:
        steps = family_of(engine.config.rules).part("steps")(ReplayedGame(record_from_game(engine), engine.config,
                                                                        engine))
        lines: list[str] = []
        seen = 0
        for step in steps:
            new = seen + len(step.events) - self.said
            seen += len(step.events)
            if new <= 0:
                continue
            lines += self.view.step_lines(dataclasses.replace(step, events=step.events[-new:]), self.seat)
        self.said = seen
        ended = [step.round_no for step in steps if step.kind == "end"]
        rules, state = engine.rules, engine.state
        # the scores once the round is wholly over (a deal due, or the game's end): not before the round's last
        # decision (an end-of-round Clubs victim, R14)
        if ended and ended[-1] > self.scored and (rules.is_chance(state) or rules.is_over(state)):
            self.scored = ended[-1]
            lines.append(scores_line(rules, state, engine.moves, self.seat, ended[-1]))
        return lines


def scores_line(rules: Any, state: Any, moves: Any, seat: int, round_no: int) -> str:
    """`Scores at R2.end: Ann 12, Bob ?, Cat ?`: every side's score, `?` where `seat` may not see it."""
    config = state.config
    hidden = rules.sight(state, moves, seat).hidden_scores if not rules.is_over(state) else frozenset()
    parts = []
    for standing in rules.standings(state):
        names = " and ".join(config.players[s] for s in config.sides[standing.side])
        parts.append(f"{names} {'?' if standing.side in hidden else standing.score}")
    return f"Scores at R{round_no}.end: " + ", ".join(parts)
