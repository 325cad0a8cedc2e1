"""`diamonds analyse`: every decision judged from the player's own view, with the loss's interval.

A decision is any move a player makes with a choice: a card, a pass count, the
cards passed, a bid, a take (the kitty card and the point card), a final bid, a
Clubs victim, an end-of-round award. Each is judged from what its player could
know at that moment, never the true hands:

- **Worlds.** The family's `determinise` (its `bot` part) redraws everything
  hidden from the player consistently with their view. Every candidate move is
  played out in each world with `greedy` for every seat to the round's end, and
  scored by the change in the player's side's relative score (its score less
  the mean of the other sides'), in the family's own points. Every move sees the
  same worlds (common random numbers), so the played move's loss against the best
  one has a spread per world and a 95% interval. The best is sought among the
  rivals the first worlds rank highest or cannot tell from the highest
  (`contenders`), measured on fresh worlds.
- **Marks.** `?!`, `?` and `??` are given only where the interval's lower end
  clears the threshold (by default the family's: `marks`), so a mark is not
  sampling noise. Where an interval straddles a threshold, more worlds are drawn
  (doubling, up to `max_samples`, by default 64 times `samples`), so two seeds mark the same moves.
  The draws stop before `max_samples` only where the wider 99.9% interval (`Z_EARLY`) already clears or
  misses every threshold: stopping at the first of several 95% looks to clear would let one seed's lucky
  run decide a move near a threshold.
- **Exact.** Where every world drawn from the view is the same world, over at
  least ONE_WORLD (32) draws (the view fixes every hand: counting, or a game
  whose hands are all open), and the round has few enough tricks left for the
  exact solver, the solver's values on that world are used, and the verdict
  says `exact`. With fewer worlds per decision, more are drawn for this test
  alone: one world, or two alike, prove nothing.
- **Double dummy.** `double_dummy=True` judges a round's last tricks with the
  solver on the true hands (hindsight). Its verdicts say `double dummy`.

Per player, `accuracy` gives the decisions judged, the marks, the mean loss and
an accuracy in percent: each decision scores `100 * 2 ** (-loss / mistake)`
(full marks for the best move, 50 at a loss of the family's mistake threshold),
and a player's accuracy is the mean. lichess's formula needs a winning chance
per position; a card game's points have none, and the family's threshold makes
the scale the same across games whose points differ tenfold.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
from collections.abc import Iterable, Sequence
from typing import Any

from diamonds.core.family import move_kind
from diamonds.notation.records import Call, Comment, GameRecord, HandLine, Play, Plays, Round, Take, Trick
from diamonds.notation.words import Shape, vocabulary
from diamonds.notation.writer import write_game

from . import family_bot, table_of
from .montecarlo import gains
from .notes import PlayerSummary, mark_comment
from .solver import MAX_NODES, OverBudget, Solver, exact

__all__ = ["analyse_game", "judge", "judge_decision", "Judgement", "PlayerSummary", "accuracy", "marks", "annotate", "GLYPHS",
           "DEFAULT_SAMPLES", "MORE", "CONSIDERED", "contenders", "clearly_worse", "mark_thresholds", "decision_kind",
           "victim_items", "END_LINE"]

GLYPHS = ("?!", "?", "??")  # inaccuracy, mistake, blunder
DEFAULT_SAMPLES = 48  # worlds per decision at first
MORE = 64  # up to this many times more where a mark is undecided
CONTENDERS = 2  # the best moves on the first worlds, always measured against the played one on fresh worlds
MOST_CONTENDERS = 4  # and up to this many in all, where the first worlds cannot tell the others from the best
CONSIDERED = 12  # candidates judged at a decision with more legal moves (passes): the played one among them
Z95 = 1.96  # the interval a mark is given on
Z_EARLY = 3.29  # the wider interval (99.9%) that must clear or miss every threshold to stop before the most worlds
ONE_WORLD = 32  # worlds that must all be the same before a view is taken to fix every hand (`exact`)


@dataclasses.dataclass(frozen=True, slots=True)
class Judgement:
    """One decision: the played move, the best one found, and the loss between them with its 95% interval."""

    ply: int  # index in game.moves
    round_index: int  # 0-based, in the record
    play_index: int | None  # 0-based among the round's trick cards, for a card; None for other decisions
    kind: str  # "card", "victim", or the item's word ("pass", "bid", "take", "final", "end" ...)
    player: str
    played: str
    best: str
    played_estimate: float
    best_estimate: float
    loss_low: float
    loss_high: float
    samples: int  # worlds drawn (1 for an exact or double-dummy verdict)
    considered: int  # moves judged (all the legal ones, or CONSIDERED of them)
    legal: int  # legal moves
    method: str  # "est" (sampled from the view), "exact" (the view leaves one world), "double dummy"
    glyph: str | None
    at: str = ""  # where the decision was due, as positions are labelled (R2.7.3, R2.end); "": not known

    @property
    def loss(self) -> float:
        return max(0.0, self.best_estimate - self.played_estimate)

    @property
    def exact(self) -> bool:
        return self.method != "est"


def marks(rules: str, mistake: float | None = None, blunder: float | None = None) -> tuple[float, float]:
    """The points below the best move's value that mark `?` and `??` in a game of `rules`: those given,
    else the family's (`FamilyBot.thresholds`); a blunder is never less than a mistake."""
    own_mistake, own_blunder = family_bot(rules).thresholds
    mistake = own_mistake if mistake is None else mistake
    return mistake, max(own_blunder, mistake) if blunder is None else blunder


#: What a decision is, by its move's type: "card", "victim", or its DGN item's word (the engine's `move_kind`).
decision_kind = move_kind


def _mean_and_error(diffs: Sequence[float]) -> tuple[float, float]:
    """The mean of per-world losses and its standard error (0 for one world): an interval is the mean
    less and plus z errors (a normal approximation)."""
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _glyph(low: float, thresholds: Sequence[float]) -> str | None:
    """The strongest mark whose threshold the interval's lower end clears."""
    found = None
    for glyph, threshold in zip(GLYPHS, thresholds):
        if low >= threshold - 1e-9:
            found = glyph
    return found


def _decided(low: float, high: float, thresholds: Sequence[float]) -> bool:
    """No threshold lies inside the interval: more worlds would not change the mark."""
    return all(low >= t - 1e-9 or high < t for t in thresholds)


def contenders(values: Sequence[Sequence[float]], played: int) -> list[int]:
    """The indexes of the moves to measure against the played one: the best CONTENDERS by their mean on
    the first worlds, and any other the first worlds cannot tell from the best of them (up to MOST_CONTENDERS)."""
    means = [sum(v) / len(v) for v in values]
    rivals = sorted((i for i in range(len(values)) if i != played), key=lambda i: -means[i])
    close = [i for i in rivals[CONTENDERS:] if not clearly_worse(values[rivals[0]], values[i], Z95)]
    return [*rivals[:CONTENDERS], *close][:MOST_CONTENDERS]


def clearly_worse(leader: Sequence[float], other: Sequence[float], z: float = Z_EARLY) -> bool:
    """Whether `other` gains less than `leader` over the same worlds, beyond the interval of `z` errors (one world
    gives no interval, so nothing is clearly worse on it)."""
    if len(leader) < 2:
        return False
    mean, error = _mean_and_error([a - b for a, b in zip(leader, other)])
    return mean - z * error > 0


def _candidates(moves: list[Any], played: Any, ply: int) -> list[Any]:
    """Every legal move, or, where there are more than CONSIDERED (a pass of three cards from fifteen), the
    played one and a choice of the others fixed by the decision's place alone, so every seed weighs the
    same candidates."""
    if len(moves) <= CONSIDERED:
        return list(moves)
    others = [m for m in moves if m != played]
    return [played, *random.Random(f"candidates:{ply}").sample(others, CONSIDERED - 1)]


class _Sampler:
    """Worlds drawn from one decision's view, and the gain of given moves in each (the same worlds for all)."""

    def __init__(self, view: Any, rng: random.Random) -> None:
        self.table = table_of(view)
        self.fam = family_bot(view.rules)
        self.rng = rng
        self.first: Any = None
        self.one_world = True
        self.drawn = 0

    def draw(self, moves: Sequence[Any], count: int, values: list[list[float]]) -> bool:
        """Draw `count` worlds and append each move's gain in each to `values` (one list per move); False
        where the family samples no worlds in this phase."""
        rules, seat, round_no = self.table.rules, self.table.seat, self.table.state.round_no
        for _ in range(count):
            world = self.fam.determinise(self.table, self.rng)
            if world is None:
                return False
            self._saw(world)
            for index, gain in enumerate(gains(rules, self.fam, world, moves, seat, self.rng, round_no)):
                values[index].append(gain)
        return True

    def fixes_every_hand(self) -> bool:
        """Whether every world drawn from the view is the same one, over at least ONE_WORLD of them (more are drawn,
        without playing them, where fewer were): a few draws alike (one, with `--samples 1`) prove nothing."""
        while self.one_world and self.drawn < ONE_WORLD:
            self._saw(self.fam.determinise(self.table, self.rng))
        return self.one_world

    def _saw(self, world: Any) -> None:
        self.drawn += 1
        if self.first is None:
            self.first = world
        elif self.one_world and world != self.first:
            self.one_world = False


def judge(game: Any, *, samples: int = DEFAULT_SAMPLES, max_samples: int | None = None, seed: int = 0,
          inaccuracy: float | None = None, mistake: float | None = None, blunder: float | None = None,
          exact_nodes: int = MAX_NODES, double_dummy: bool = False, jobs: int = 1) -> list[Judgement]:
    """Every decision of a valid game with a choice, judged from its player's view (see the module).

    `samples`: worlds per decision at first, `max_samples` (default MORE x samples) where a mark is undecided;
    `exact_nodes`: the solver's budget for a one-world (or double-dummy) verdict, 0 for none. Each decision
    draws its worlds from its own seed (`f"{seed}:{ply}"`), so one decision's verdict does not depend on
    the others'. `jobs`: processes that share the rounds out; the verdicts do not depend on it (a round's
    decisions are judged in order by one solver, whose memo lasts a round)."""
    settings = _Settings(seed, samples, max(samples, max_samples if max_samples is not None else MORE * samples),
                         mark_thresholds(game.rules, inaccuracy, mistake, blunder), exact_nodes, double_dummy)
    spans = _rounds(game) if jobs > 1 else []
    if len(spans) < 2:
        return _judge_plies(game, 0, len(game.moves), settings)
    from diamonds.io.parallel import ordered_map

    text = write_game(game.record)
    judgements: list[Judgement] = []
    with ordered_map(_judge_text_plies, [(text, first, end, settings) for first, end in spans],
                     min(jobs, len(spans))) as parts:
        for part in parts:
            judgements.extend(part)
    return judgements


@dataclasses.dataclass(frozen=True, slots=True)
class _Settings:
    """What `judge` was asked, as a worker process receives it."""

    seed: int
    samples: int
    most: int
    thresholds: tuple[float, float, float]
    exact_nodes: int
    double_dummy: bool


def _rounds(game: Any) -> list[tuple[int, int]]:
    """The plies of each round, from its deal (a chance move) to the next: (first, end) pairs."""
    starts = [0]
    position = game.start()
    for ply, move in enumerate(game.moves):
        if position.is_chance and ply > 0:
            starts.append(ply)
        position.push(move)
    return list(zip(starts, [*starts[1:], len(game.moves)]))


def _judge_text_plies(work: tuple[str, int, int, _Settings]) -> list[Judgement]:
    """`_judge_plies` in a worker process, on the game read again from its DGN."""
    import diamonds

    text, first, end, settings = work
    return _judge_plies(diamonds.Game.from_text(text), first, end, settings)


def _judge_plies(game: Any, first: int, end: int, settings: _Settings) -> list[Judgement]:
    """The decisions among plies first to end - 1, judged in order with one solver."""
    judgements: list[Judgement] = []
    position = game.start()
    solver = Solver(position.rule_set, max_nodes=settings.exact_nodes) if settings.exact_nodes > 0 else None
    round_index, play_index = -1, 0
    for ply, move in enumerate(game.moves[:end]):
        if position.is_chance:
            round_index, play_index = round_index + 1, 0
            position.push(move)
            continue
        if ply >= first:
            found = judge_decision(position, move, ply=ply, seed=settings.seed, samples=settings.samples,
                                   most=settings.most, thresholds=settings.thresholds, solver=solver,
                                   double_dummy=settings.double_dummy)
            if found is not None:
                judgements.append(dataclasses.replace(found, round_index=round_index,
                                                      play_index=play_index if found.kind == "card" else None))
        if decision_kind(move) == "card":
            play_index += 1
        position.push(move)
    return judgements


def mark_thresholds(rules: str, inaccuracy: float | None, mistake: float | None,
                blunder: float | None) -> tuple[float, float, float]:
    """The losses that mark `?!`, `?` and `??` (an inaccuracy: half a mistake unless given)."""
    mistake, blunder = marks(rules, mistake, blunder)
    inaccuracy = mistake / 2 if inaccuracy is None else inaccuracy
    return min(inaccuracy, mistake), mistake, blunder


def judge_decision(position: Any, move: Any, *, ply: int = 0, seed: int = 0, samples: int = DEFAULT_SAMPLES,
                   most: int | None = None, thresholds: tuple[float, float, float] | None = None,
                   solver: Solver | None = None, double_dummy: bool = False) -> Judgement | None:
    """The verdict on `move` at `position` from its player's view, or None where there is no choice (or the
    family samples no worlds there). Reads the position only through the player's `view`, unless
    `double_dummy`; the round and card indexes are left 0 (`judge` fills them)."""
    if position.is_chance or position.is_over:
        return None
    view = position.view(position.to_move_seat)
    moves = view.legal_moves
    if len(moves) < 2 or move not in moves:
        return None
    thresholds = thresholds or mark_thresholds(position.rules, None, None, None)
    verdict = _judge_one(position, view, move, moves, ply, samples, most or MORE * samples, thresholds, solver,
                         double_dummy, random.Random(f"{seed}:{ply}"))
    if verdict is None:
        return None
    best, best_value, played_value, low, high, count, considered, method = verdict
    text = view.text(move)
    return Judgement(ply, 0, None, decision_kind(move), view.viewer, text, view.text(best), played_value, best_value,
                     low, high, count, considered, len(moves), method, _glyph(low, thresholds), view.label)


def _judge_one(position: Any, view: Any, move: Any, moves: list[Any], ply: int, samples: int, most: int,
               thresholds: tuple[float, float, float], solver: Solver | None, double_dummy: bool,
               rng: random.Random) -> tuple[Any, float, float, float, float, int, int, str] | None:
    if double_dummy and solver is not None:
        solution = exact(position, solver)
        if solution is not None:
            return _from_solution(solution.ranked(), move, len(moves), "double dummy")
    candidates = _candidates(moves, move, ply)
    sampler = _Sampler(view, rng)
    chosen: list[list[float]] = [[] for _ in candidates]
    if not sampler.draw(candidates, samples, chosen):
        return None
    if sampler.one_world and solver is not None and solver.applies(sampler.first) and sampler.fixes_every_hand():
        try:
            solution = solver.solve_state(sampler.first)
        except OverBudget:  # the sampled values stand
            solution = None
        if solution is not None:
            ranked = [(m, v) for m, v in solution.ranked() if m in candidates]
            return _from_solution(ranked, move, len(candidates), "exact")
    # The contenders for best are chosen on these worlds and measured against the played move on fresh ones,
    # so that the luckiest of many candidates does not pass for a loss (the winner's curse): the best two, so
    # that a played move these worlds happened to favour is still measured against its nearest rivals, and
    # any other these worlds cannot tell from the best at 95% (up to MOST_CONTENDERS), so that which moves are
    # measured does not hang on the first worlds' luck. A contender the fresh worlds show clearly worse than the
    # leading one (the 99.9% interval) is measured no further.
    played_index = candidates.index(move)
    measured_moves = [move, *(candidates[i] for i in contenders(chosen, played_index))]
    measured: list[list[float]] = [[] for _ in measured_moves]
    sampler.draw(measured_moves, samples, measured)
    while True:
        count = len(measured[0])
        totals = [sum(v) for v in measured]
        rival = max(range(1, len(measured_moves)), key=lambda i: totals[i])
        mean, error = _mean_and_error([b - p for b, p in zip(measured[rival], measured[0])])
        low, high = mean - Z95 * error, mean + Z95 * error
        if count >= most or _decided(mean - Z_EARLY * error, mean + Z_EARLY * error, thresholds):
            break
        kept = [0, *(i for i in range(1, len(measured_moves)) if not clearly_worse(measured[rival], measured[i]))]
        measured_moves, measured = [measured_moves[i] for i in kept], [measured[i] for i in kept]
        sampler.draw(measured_moves, min(count, most - count), measured)
    best = rival if totals[rival] > totals[0] else 0
    return (measured_moves[best], totals[best] / count, totals[0] / count, low, high, count, len(candidates),
            "est")


def _from_solution(ranked: list[tuple[Any, float]], move: Any, considered: int,
                   method: str) -> tuple[Any, float, float, float, float, int, int, str]:
    values = dict(ranked)
    best, best_value = ranked[0]
    loss = best_value - values[move]
    return best, best_value, values[move], loss, loss, 1, considered, method


def accuracy(judgements: Sequence[Judgement], players: Sequence[str], rules: str,
             mistake: float | None = None) -> list[PlayerSummary]:
    """Per player (in seat order): decisions judged, marks, mean loss and accuracy (see the module)."""
    scale = marks(rules, mistake)[0]
    rows = []
    for player in players:
        own = [j for j in judgements if j.player == player]
        losses = [j.loss for j in own]
        scores = [100.0 * 2.0 ** (-loss / scale) for loss in losses]
        rows.append(PlayerSummary(
            player, len(own), sum(j.glyph == "?!" for j in own), sum(j.glyph == "?" for j in own),
            sum(j.glyph == "??" for j in own), sum(losses) / len(losses) if losses else 0.0,
            sum(scores) / len(scores) if scores else 100.0))
    return rows


def _note(j: Judgement) -> Comment:
    """The comment a marked decision gets (its form, and its reader, are `notes`)."""
    return mark_comment(j)


def annotate(record: GameRecord, judgements: list[Judgement]) -> GameRecord:
    """The record with every marked decision annotated once, on its own item: a card gets its glyph and a
    comment; a Clubs victim (R14) a comment on the item its `>Name` is written on (the card that earned the
    action, or the `end` line: `victim_items`); another item (a pass, a bid, a take, an award) the comment on
    its line; a pass count, or an item the record does not write, on the round's header. DGN writes a glyph
    on a card only. All the judgements are given, marked or not: a victim's item is told from the others'."""
    by_round: dict[int, list[Judgement]] = {}
    for j in judgements:
        by_round.setdefault(j.round_index, []).append(j)
    rounds = list(record.rounds)
    for r, found in by_round.items():
        if 0 <= r < len(rounds) and any(j.glyph for j in found):
            rounds[r] = _annotate_round(rounds[r], found)
    return dataclasses.replace(record, rounds=tuple(rounds))


def _opening_word(call: Call | Take) -> str:
    """The word a call or exchange line opens with, as written (an exchange read without it: the registered
    exchange's word). A decision's kind is its item's word (`move_kind`), so the two meet without naming a game."""
    if isinstance(call, Take) and not call.kind:
        return vocabulary().words(Shape.EXCHANGE)[0]
    return call.kind


END_LINE = -1  # `victim_items`: the round's `end` line, where the Clubs majority's victim is written
_AFTER_CARD = re.compile(r"R\d+\.(\d+)\.(\d+)\Z")  # a position's label after a card: R2.7.3 (`Position.label`)
_AT_END = re.compile(r"R\d+\.end\Z")  # at a round's end: R2.end


def victim_items(rnd: Round, victims: Sequence[tuple[int, str, str]]) -> dict[int, int]:
    """Per Clubs victim decision of the round, given as (ply, where it was due, its text `>Name`), the item its
    `>Name` is written on (DGN: docs/dgn.md, "Victims"): the index among the round's trick cards of the card that
    earned the Clubs action, or `END_LINE`. `annotate` writes a victim's mark there, and the page
    (`cli.page_cmd.analysis_of`) reads it back from there: one mapping for both.

    Where the decision was due (`Judgement.at`) says which: after the n-th card of a trick, the card that
    carries its choice is that card (a Club played off-suit, named at once) or an earlier one of the trick (the
    winner of a Clubs lead, named once the trick is complete); at the round's end, the `end` line. A choice
    the record does not write (`>-`, no one to rob) has no item: the card after which it was named stands
    (the round's last card at the end, where there is no `end` line). A decision with no place (`at` not
    known, or not in this round's record) is left out: its note goes on the round's header."""
    by_number: dict[int, tuple[int, Trick]] = {}  # each trick, and the round's cards before it
    start = 0
    for trick in rnd.tricks:
        by_number[trick.number] = (start, trick)
        start += len(trick.plays)
    claimed: set[int] = set()
    items: dict[int, int] = {}
    for ply, at, played in sorted(victims):
        if _AT_END.match(at):
            if rnd.end is not None:
                items[ply] = END_LINE
            elif start:
                items[ply] = start - 1
            continue
        after = _AFTER_CARD.match(at)
        if after is None or int(after.group(1)) not in by_number:
            continue
        offset, trick = by_number[int(after.group(1))]
        named = min(int(after.group(2)), len(trick.plays))
        name = played[1:].casefold()
        carriers = [offset + p for p in range(named - 1, -1, -1) if offset + p not in claimed
                    and (choice := trick.plays[p].choice) is not None and choice.player.casefold() == name]
        if carriers:
            claimed.add(carriers[0])
        if carriers or named:
            items[ply] = carriers[0] if carriers else offset + named - 1
    return items


def _noted(comments: tuple[Comment, ...], notes: Iterable[Comment]) -> tuple[Comment, ...]:
    """`comments` with each note not already among them: analysing an analysed game adds nothing twice."""
    added = tuple(note for note in notes if note not in comments)
    return comments + added if added else comments


def _annotate_round(rnd: Round, judged: list[Judgement]) -> Round:
    marked = sorted((j for j in judged if j.glyph), key=lambda j: j.ply)
    victims = victim_items(rnd, [(j.ply, j.at, j.played) for j in judged if j.kind == "victim"])
    glyphs: dict[int, str] = {}
    on_card: dict[int, list[Comment]] = {}
    on_end: list[Comment] = []
    others: list[Judgement] = []
    for j in marked:
        item = j.play_index if j.play_index is not None else victims.get(j.ply)
        if item is None:
            others.append(j)
            continue
        if j.play_index is not None and j.glyph is not None:
            glyphs[item] = j.glyph
        (on_end if item == END_LINE else on_card.setdefault(item, [])).append(_note(j))
    index = 0
    tricks = []
    for trick in rnd.tricks:
        plays: list[Play] = []
        for play in trick.plays:
            notes = on_card.pop(index, [])
            if notes:  # the scorer's own annotation (`AS!`) stays; the note says the analysis's glyph
                play = dataclasses.replace(play, annotation=play.annotation or glyphs.get(index),
                                           comments=_noted(play.comments, notes))
            plays.append(play)
            index += 1
        tricks.append(dataclasses.replace(trick, plays=Plays(plays)))
    hand_lines, calls, header, end = list(rnd.hand_lines), list(rnd.calls), rnd.header, rnd.end
    if on_end and end is not None:
        end = dataclasses.replace(end, comments=_noted(end.comments, on_end))
    unplaced = [note for item in sorted(on_card) for note in on_card[item]]  # a card the record lacks
    if unplaced:
        header = dataclasses.replace(header, comments=_noted(header.comments, unplaced))
    seen: dict[tuple[str, str], int] = {}
    for j in others:
        note = _note(j)
        placed = False
        if j.kind == "end" and end is not None:
            end, placed = dataclasses.replace(end, comments=_noted(end.comments, (note,))), True
        for i, line in enumerate(hand_lines):
            if (not placed and isinstance(line, HandLine) and line.kind == j.kind and line.player == j.player
                    and not j.played.split()[-1].isdigit()):  # cards passed, not the pass count
                hand_lines[i], placed = dataclasses.replace(line, comments=_noted(line.comments, (note,))), True
        nth = seen.get((j.kind, j.player), 0)
        seen[(j.kind, j.player)] = nth + 1
        matching = [i for i, call in enumerate(calls) if call.player == j.player and _opening_word(call) == j.kind]
        if not placed and nth < len(matching):
            i = matching[nth]
            calls[i], placed = dataclasses.replace(calls[i], comments=_noted(calls[i].comments, (note,))), True
        if not placed:  # a pass count, an item the record does not write (no pass lines), a victim with no place
            header = dataclasses.replace(header, comments=_noted(header.comments, (note,)))
    return dataclasses.replace(rnd, header=header, hand_lines=tuple(hand_lines), calls=tuple(calls),
                               tricks=tuple(tricks), end=end)


def analyse_game(game: Any, **options: Any) -> tuple[GameRecord, list[Judgement]]:
    """The annotated record of a valid game, and the judgements behind it."""
    judgements = judge(game, **options)
    return annotate(game.record, judgements), judgements
