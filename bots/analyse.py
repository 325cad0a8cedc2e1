"""`diamonds analyse`: `mc` judges every card played, from its player's own view.

At every card play with a choice, an `MCBot` (its own seed per decision:
`random.Random(f"{seed}:{ply}")`) estimates every legal move. A card whose
estimate falls short of the best one's by `mistake` points or more gets `?`,
by `blunder` or more `??`, and a comment `{best: X (est a) vs played (est b)}`
(the estimates are the mean change in the player's side's score less the mean
of the other sides', to the end of the round). The record is the game's own
(its comments and layout kept), with those marks added, so the output still
validates and is canonical for `fmt`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from diamonds.notation.records import Comment, GameRecord, Plays

from . import MCBot

__all__ = ["analyse_game", "Judgement"]


@dataclasses.dataclass(frozen=True)
class Judgement:
    round_index: int  # 0-based, in the record
    play_index: int  # 0-based, among the round's trick cards
    player: str
    played: str
    best: str
    played_estimate: float
    best_estimate: float
    glyph: str | None

    @property
    def loss(self) -> float:
        return self.best_estimate - self.played_estimate


def judge(game: Any, *, samples: int = 16, seed: int = 0, mistake: float = 2.0,
          blunder: float = 5.0) -> list[Judgement]:
    """Every card play with a choice, judged (see the module)."""
    judgements: list[Judgement] = []
    position = game.start()
    round_index, play_index = -1, 0
    for ply, move in enumerate(game.moves):
        kind = type(move).__name__
        if kind == "Deal":
            round_index, play_index = round_index + 1, 0
        elif kind == "PlayCard" and not position.is_chance:
            view = position.view(position.to_move_seat)
            if len(view.legal_moves) > 1:
                ranked = MCBot(f"{seed}:{ply}", samples=samples).estimates(view)
                if ranked:
                    estimates = dict(ranked)
                    best, best_estimate = ranked[0]
                    played_estimate = estimates[move]
                    loss = best_estimate - played_estimate
                    glyph = "??" if loss >= blunder else "?" if loss >= mistake else None
                    judgements.append(Judgement(round_index, play_index, view.viewer, view.text(move),
                                                view.text(best), played_estimate, best_estimate, glyph))
            play_index += 1
        position.push(move)
    return judgements


def annotate(record: GameRecord, judgements: list[Judgement]) -> GameRecord:
    """The record with a glyph and a comment on every card judged a mistake."""
    marks = {(j.round_index, j.play_index): j for j in judgements if j.glyph}
    rounds = []
    for r, rnd in enumerate(record.rounds):
        index = 0
        tricks = []
        for trick in rnd.tricks:
            plays = []
            for play in trick.plays:
                mark = marks.get((r, index))
                if mark is not None:
                    text = f"best: {mark.best} (est {mark.best_estimate:.1f}) vs played (est {mark.played_estimate:.1f})"
                    play = dataclasses.replace(play, annotation=mark.glyph,
                                               comments=play.comments + (Comment(text, True),))
                plays.append(play)
                index += 1
            tricks.append(dataclasses.replace(trick, plays=Plays(plays)))
        rounds.append(dataclasses.replace(rnd, tricks=tuple(tricks)))
    return dataclasses.replace(record, rounds=tuple(rounds))


def analyse_game(game: Any, **options: Any) -> tuple[GameRecord, list[Judgement]]:
    """The annotated record of a valid game, and the judgements behind it."""
    judgements = judge(game, **options)
    return annotate(game.record, judgements), judgements
