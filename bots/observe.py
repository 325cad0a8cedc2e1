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

from . import FamilyBot, deck_index
from . import family_bot as _family_bot

__all__ = ["Codec", "codec", "PublicRecord", "record_of", "observation_size", "observation_vector"]

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
    per suit, and the round number (the deals made so far)."""

    __slots__ = ("index", "n", "sides", "side_of", "played_by", "trick_of", "won_by", "tricks_won", "taken", "top",
                 "order", "round_no")

    def __init__(self, config: Any) -> None:
        self.index = deck_index(config)
        self.n, self.sides = config.player_count, config.side_count
        self.side_of = tuple(config.side_of)
        self.round_no = -1
        self.new_round()  # round 0: before the first deal

    def new_round(self) -> None:
        d, n = len(self.index), self.n
        self.played_by = np.zeros((n, d), dtype=np.float32)  # [seat, card] 1 if seat played it this round
        self.won_by = np.zeros((n, d), dtype=np.float32)  # [seat, card] 1 if seat won the trick it fell in
        self.trick_of = np.zeros(d, dtype=np.float32)  # the trick number it was played in / 20
        self.tricks_won = np.zeros(n, dtype=np.float32)
        self.taken = np.zeros((self.sides, len(SUITS)), dtype=np.float32)  # R16, per side and suit
        self.top = np.zeros((n, d), dtype=np.float32)  # [seat, card] 1 if it tops the seat's pile (K5, K6)
        self.order: list[int] = []  # the round's cards played, in play order (deck indexes)
        self.round_no += 1

    def update(self, events: Iterable[Any]) -> None:
        """Take in the events of one move (a deal starts a new round)."""
        for event in events:
            name = type(event).__name__
            if name == "CardPlayed":
                i = self.index[event.card]
                self.played_by[event.seat, i] = 1.0
                self.order.append(i)
                self.trick_of[i] = event.trick_no / _SCALE
            elif name == "TrickWon":
                winner, cards = event.winner, event.cards
                columns = [self.index[card] for card in cards]
                self.won_by[winner, columns] = 1.0
                self.tricks_won[winner] += 1.0
                self.top[winner, :] = 0.0
                self.top[winner, columns[-1]] = 1.0
                side = self.side_of[winner]
                for card in cards:
                    suit = getattr(card, "suit", None)  # the bidding game's Joker belongs to no suit
                    if suit is not None:
                        self.taken[side, suit.index] += 1.0 / _SCALE
            elif name == "CardsDealt":
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
            for name in ("played_by", "won_by", "trick_of", "tricks_won", "taken", "top"))

    __hash__ = None  # type: ignore[assignment]


def record_of(position: Any) -> PublicRecord:
    """The public record of `position`'s round, from its events."""
    record = PublicRecord(position.config)
    for events in position.events:
        record.update(events)
    return record


def observation_size(config: Any, fam: Codec) -> int:
    d, n, sides = len(config.deck), config.player_count, config.side_count
    return (4 * n + 1) * d + n + 4 * sides + fam.action_count(config) + 2 * sides + 1 + fam.feature_count(config)


def observation_vector(view: Any, record: PublicRecord, prefix: Sequence[int] = (), *, fam: Codec | None = None,
                       out: np.ndarray | None = None) -> np.ndarray:
    """The observation of `view` (docs/bots.md), given its round's public record and the ids chosen so far
    of a move in progress. Seats and sides count from the viewer's round."""
    position = view._position  # the view's game: read here only through the view's sight and public facts
    state, seat, sight = position.state, view.viewer_seat, view.sight
    config = state.config
    fam = fam or codec(view.rules)
    index = record.index
    d, n, sides = len(index), record.n, config.side_count
    if out is None:
        out = np.zeros(observation_size(config, fam), dtype=np.float32)
    else:
        out.fill(0.0)
    order = [(seat + step) % n for step in range(n)]  # absolute seats, from the viewer round
    for step, s in enumerate(order):
        known = sight.hands[s]
        if known:
            out[[step * d + index[card] for card in known]] = 1.0
    at = n * d
    out[at:at + n * d] = record.played_by[order].ravel()
    at += n * d
    out[at:at + n * d] = record.won_by[order].ravel()
    at += n * d
    out[at:at + d] = record.trick_of
    at += d
    out[at:at + n] = record.tricks_won[order] / _SCALE
    at += n
    own = config.side_of[seat]
    side_order = [(own + r) % sides for r in range(sides)]
    out[at:at + 4 * sides] = record.taken[side_order].ravel()
    at += 4 * sides
    out[at:at + n * d] = record.top[order].ravel()
    at += n * d
    for action in prefix:
        out[at + action] = 1.0
    at += fam.action_count(config)
    hidden = sight.hidden_scores
    for standing in position.rule_set.standings(state):
        if standing.side not in hidden:
            r = (standing.side - own) % sides
            out[at + 2 * r] = standing.score / 100.0
            out[at + 2 * r + 1] = 1.0
    at += 2 * sides
    out[at] = record.round_no / 10.0
    at += 1
    out[at:at + fam.feature_count(config)] = fam.features(state, seat)
    return out
