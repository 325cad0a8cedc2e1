"""The observation of one player, as a float32 vector: what the PettingZoo environment and OpenSpiel's
tensors give an agent (docs/bots.md has the layout).

Everything in it comes from the player's `View` (their hand, the cards they
know in other hands, the scores they see), from public facts of the round
(who played each card, who won each trick) and from the family's own public
features. A memoryless agent needs those facts, so the vector spells them
out: the cards each side has taken per suit (Fitzgerald's end-of-round
awards, R16), the tricks each seat has won (R17), the top of each seat's
pile (Kirk's ties, K5), the round number.

`PublicRecord` keeps the round's public facts from the events of the moves
pushed, so the environment updates it once a move instead of re-reading the
round at every observation; `record_of(position)` builds the same record from
a position's events, for whoever observes a position afresh (OpenSpiel).
It reads two kinds of event, which every family's engine emits: a card played
(`CardPlayed`: `seat`, `card`, `trick_no`) and a trick won (`TrickWon`:
`winner`, `cards` in play order).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from diamonds.core.cards import SUITS
from diamonds.core.family import CardPlayedEvent, CardsDealtEvent, TrickWonEvent

from . import FamilyBot, deck_index
from . import family_bot as _family_bot

__all__ = ["Codec", "codec", "PublicRecord", "record_of", "Layout", "observation_size", "observation_vector", "Choices",
           "choices", "describe"]

#: Fitzgerald has the most tricks in a round among the families (at most 20): trick numbers and counts / 20.
_SCALE = 20.0


class Codec:
    """A family's bot part with the observation's and actions' four hooks checked present."""

    __slots__ = ("action_count", "encode", "feature_count", "features")

    def __init__(self, part: FamilyBot, rules: str) -> None:
        if None in (part.action_count, part.encode, part.feature_count, part.features):
            raise TypeError(f"the {rules} family's bot part has no action ids or features for the environment")
        self.action_count: Any = part.action_count
        self.encode: Any = part.encode
        self.feature_count: Any = part.feature_count
        self.features: Any = part.features


def codec(rules: str) -> Codec:
    """The action ids and features of the rule set `rules`' family."""
    return Codec(_family_bot(rules), rules)


class PublicRecord:
    """The current round's public facts, by absolute seat (see the module): who played each card and in which
    trick, who won the trick each card fell in, each seat's tricks won and pile top, each side's cards taken
    per suit, the cards in play order, and the round number (the deals made so far).

    Per-seat and per-side facts are kept twice over (seat s at rows s and s + n), so that the facts from any
    viewer's seat round are one contiguous slice, copied into an observation at once."""

    __slots__ = ("index", "n", "sides", "side_of", "cards", "trick_of", "tricks_won", "taken", "order", "round_no")

    #: `cards[seat]` holds three planes of the deck: PLAYED (1 if seat played the card this round), WON (1 if
    #: seat won the trick it fell in) and TOP (1 if it tops seat's pile: the last card of the last trick they
    #: won, K5, K6).
    PLAYED, WON, TOP = 0, 1, 2

    def __init__(self, config: Any) -> None:
        self.index = deck_index(config)
        self.n, self.sides = config.player_count, config.side_count
        self.side_of = tuple(config.side_of)
        self.round_no = -1
        self.new_round()  # round 0: before the first deal

    def new_round(self) -> None:
        d, n = len(self.index), self.n
        self.cards = np.zeros((2 * n, 3, d), dtype=np.float32)
        self.trick_of = np.zeros(d, dtype=np.float32)  # the trick number each card was played in / 20
        self.tricks_won = np.zeros(2 * n, dtype=np.float32)  # / 20
        self.taken = np.zeros((2 * self.sides, len(SUITS)), dtype=np.float32)  # R16, per side and suit, / 20
        self.order: list[int] = []  # the round's cards played, in play order (deck indexes)
        self.round_no += 1

    def update(self, events: Iterable[Any]) -> None:
        """Take in the events of one move (a deal starts a new round)."""
        n, sides, index, cards = self.n, self.sides, self.index, self.cards
        for event in events:
            kind = type(event)  # the kind by its type; its fields are the family's (the event stays `Any`)
            if issubclass(kind, CardPlayedEvent):
                i = index[event.card]
                cards[event.seat, self.PLAYED, i] = cards[event.seat + n, self.PLAYED, i] = 1.0
                self.trick_of[i] = event.trick_no / _SCALE
                self.order.append(i)
            elif issubclass(kind, TrickWonEvent):
                winner, won = event.winner, event.cards
                side = self.side_of[winner]
                for row in (winner, winner + n):
                    for card in won:
                        cards[row, self.WON, index[card]] = 1.0
                    top = cards[row, self.TOP]
                    top.fill(0.0)
                    top[index[won[-1]]] = 1.0
                    self.tricks_won[row] += 1.0 / _SCALE
                for card in won:
                    suit = getattr(card, "suit", None)  # the bidding game's Joker belongs to no suit
                    if suit is not None:
                        self.taken[side, suit.index] += 1.0 / _SCALE
                        self.taken[side + sides, suit.index] += 1.0 / _SCALE
            elif issubclass(kind, CardsDealtEvent):
                self.new_round()

    def copy(self) -> PublicRecord:
        twin = PublicRecord.__new__(PublicRecord)
        for name in self.__slots__:
            value = getattr(self, name)
            setattr(twin, name, value.copy() if isinstance(value, (np.ndarray, list)) else value)
        return twin

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PublicRecord):
            return NotImplemented
        return self.round_no == other.round_no and self.order == other.order and all(
            np.array_equal(getattr(self, name), getattr(other, name))
            for name in ("cards", "trick_of", "tricks_won", "taken"))

    __hash__ = None  # type: ignore[assignment]


def record_of(position: Any) -> PublicRecord:
    """The public record of `position`'s round, from its events."""
    record = PublicRecord(position.config)
    for events in position.events:
        record.update(events)
    return record


class Layout:
    """Where each part of a set-up's observation lies (docs/bots.md), worked out once per set-up."""

    __slots__ = ("d", "n", "sides", "actions", "features", "cards", "trick_of", "tricks_won", "taken", "prefix",
                 "scores", "round", "family", "size")

    def __init__(self, config: Any, fam: Codec) -> None:
        d, n, sides = len(config.deck), config.player_count, config.side_count
        self.d, self.n, self.sides = d, n, sides
        self.actions, self.features = fam.action_count(config), fam.feature_count(config)
        self.cards = n * d  # after the n x D cards known in each hand
        self.trick_of = self.cards + 3 * n * d
        self.tricks_won = self.trick_of + d
        self.taken = self.tricks_won + n
        self.prefix = self.taken + 4 * sides
        self.scores = self.prefix + self.actions
        self.round = self.scores + 2 * sides
        self.family = self.round + 1
        self.size = self.family + self.features


def observation_size(config: Any, fam: Codec) -> int:
    return Layout(config, fam).size


def observation_vector(view: Any, record: PublicRecord, prefix: Sequence[int] = (), *, fam: Codec | None = None,
                       layout: Layout | None = None, standings: Sequence[Any] | None = None,
                       out: np.ndarray | None = None) -> np.ndarray:
    """The observation of `view` (docs/bots.md), given its round's public record and the ids chosen so far
    of a move in progress. Seats and sides count from the viewer's round. `layout` and `standings` (the rule
    set's, now) may be given where the caller keeps them."""
    position = view._position  # the view's game: read here only through the view's sight and public facts
    state, seat, sight = position.state, view.viewer_seat, view.sight
    config = state.config
    fam = fam or codec(view.rules)
    at = layout or Layout(config, fam)
    index = record.index
    d, n, sides = at.d, at.n, at.sides
    if out is None:
        out = np.zeros(at.size, dtype=np.float32)
    else:
        out.fill(0.0)
    hands = sight.hands
    known = [step * d + index[card] for step in range(n) for card in hands[(seat + step) % n]]
    if known:
        out[known] = 1.0
    out[at.cards:at.trick_of] = record.cards[seat:seat + n].reshape(-1)  # contiguous: a view, copied once
    out[at.trick_of:at.tricks_won] = record.trick_of
    out[at.tricks_won:at.taken] = record.tricks_won[seat:seat + n]
    own = config.side_of[seat]
    out[at.taken:at.prefix] = record.taken[own:own + sides].reshape(-1)
    for action in prefix:
        out[at.prefix + action] = 1.0
    hidden = sight.hidden_scores
    for standing in standings if standings is not None else position.rule_set.standings(state):
        if standing.side not in hidden:
            r = at.scores + 2 * ((standing.side - own) % sides)
            out[r] = standing.score / 100.0
            out[r + 1] = 1.0
    out[at.round] = record.round_no / 10.0
    out[at.family:] = fam.features(state, seat)
    return out


#: The legal moves by their ids, and the ids that may follow each prefix of ids (() for the first).
Choices = tuple[dict[tuple[int, ...], Any], dict[tuple[int, ...], list[int]]]


def choices(position: Any, fam: Codec) -> Choices:
    """The legal moves of `position` by their ids, and the ids that may follow each prefix of them (the mask
    after it). Each move is encoded afresh: looking a move up would hash it, which costs as much."""
    config, encode = position.config, fam.encode
    complete: dict[tuple[int, ...], Any] = {}
    following: dict[tuple[int, ...], list[int]] = {}
    firsts: list[int] = []
    for move in position.legal_moves:
        ids = tuple(encode(config, move))
        complete.setdefault(ids, move)
        if len(ids) == 1:
            firsts.append(ids[0])
        else:
            firsts.append(ids[0])
            for depth in range(1, len(ids)):
                following.setdefault(ids[:depth], []).append(ids[depth])
    following[()] = firsts
    return complete, following


def describe(position: Any, prefix: Sequence[int], action: int, fam: Codec, found: Choices | None = None) -> str:
    """The move text an action stands for after the ids `prefix`: the move's DGN words when it completes one,
    else the words every move it may lead to begins with (the cards of a pass so far, the card taken)."""
    ids = (*prefix, int(action))
    complete, _ = found or choices(position, fam)
    move = complete.get(ids)
    if move is not None:
        return str(position.text(move))
    texts = [position.text(move) for key, move in complete.items() if key[:len(ids)] == ids]
    if not texts:
        return f"(action {action}: not legal here)"
    words = texts[0].split()
    for text in texts[1:]:
        other = text.split()
        common = 0
        while common < min(len(words), len(other)) and words[common] == other[common]:
            common += 1
        words = words[:common]
    return " ".join(words) + " ..."
