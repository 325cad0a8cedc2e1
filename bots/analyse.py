"""`diamonds analyse`: every card played is judged, exactly near a round's end, else by `mc`.

At every card play with a choice where at most four tricks remain in the
round, the solver (`diamonds.bots.solver`) gives every legal move its exact
value, seeing every hand (the record's, or those inferred for a complete
round): the verdict says `exact`. Elsewhere, or where the search would pass its
node budget, an `MCBot` (its own seed per decision:
`random.Random(f"{seed}:{ply}")`) estimates every legal move from the
player's own view: the verdict says `est`. A card whose
value falls short of the best one's by `mistake` points or more gets `?`, by
`blunder` or more `??` (by default the family's own: `marks`), and a comment `{best: X (est a) vs played (est b)}`,
or `{best: X (exact a) vs played (exact b)}` (both count the change in the
player's side's score less the mean of the other sides', to the end of the
round: mc's mean over its samples, the solver's under max-n play). The record is the game's own
(its comments and layout kept), with those marks added, so the output still
validates and is canonical for `fmt`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from diamonds.notation.records import Comment, GameRecord, Plays

from . import MCBot, family_bot
from .solver import MAX_NODES, Solver, exact

__all__ = ["analyse_game", "Judgement", "marks"]


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
    exact: bool = False  # the solver's values (every hand seen), not mc's estimates

    @property
    def loss(self) -> float:
        return self.best_estimate - self.played_estimate


def judge(game: Any, *, samples: int = 16, seed: int = 0, mistake: float | None = None,
          blunder: float | None = None, exact_nodes: int = MAX_NODES) -> list[Judgement]:
    """Every card play with a choice, judged (see the module); `exact_nodes` is the solver's budget per
    decision (0: mc everywhere). `mistake` and `blunder` default to the family's (`marks`)."""
    mistake, blunder = marks(game.rules, mistake, blunder)
    judgements: list[Judgement] = []
    position = game.start()
    solver = Solver(position.rule_set, max_nodes=exact_nodes) if exact_nodes > 0 else None
    # A move is a card played to a trick where the family's marks (the replay's stops) say so: no family's
    # class names here. A chance move (a deal) opens a round.
    card_played = position.family.part("marks").card_played
    events = game.end().events
    round_index, play_index = -1, 0
    for ply, move in enumerate(game.moves):
        if position.is_chance:
            round_index, play_index = round_index + 1, 0
        elif any(card_played(event) is not None for event in events[ply]):
            view = position.view(position.to_move_seat)
            if len(view.legal_moves) > 1:
                solution = exact(position, solver) if solver is not None else None
                if solution is not None:
                    ranked = solution.ranked()
                else:
                    ranked = MCBot(f"{seed}:{ply}", samples=samples).estimates(view)
                if ranked:
                    estimates = dict(ranked)
                    best, best_estimate = ranked[0]
                    played_estimate = estimates[move]
                    loss = best_estimate - played_estimate
                    glyph = "??" if loss >= blunder else "?" if loss >= mistake else None
                    judgements.append(Judgement(round_index, play_index, view.viewer, view.text(move),
                                                view.text(best), played_estimate, best_estimate, glyph,
                                                solution is not None))
            play_index += 1
        position.push(move)
    return judgements


def marks(rules: str, mistake: float | None = None, blunder: float | None = None) -> tuple[float, float]:
    """The points below the best move's value that mark `?` and `??` in a game of `rules`: those given,
    else the family's (`FamilyBot.thresholds`); a blunder is never less than a mistake."""
    own_mistake, own_blunder = family_bot(rules).thresholds
    mistake = own_mistake if mistake is None else mistake
    return mistake, max(own_blunder, mistake) if blunder is None else blunder


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
                    word = "exact" if mark.exact else "est"
                    text = (f"best: {mark.best} ({word} {mark.best_estimate:.1f}) "
                            f"vs played ({word} {mark.played_estimate:.1f})")
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
