"""What a bot may use of a `View`, and the generic tools for sampling what it cannot see.

`table_of(view)` is the bots' one door into the game under a view: the rule
set, the current round's states and moves, and the viewer's seat. The states
hold every hand, so whatever reads them promises to read only what the viewer
may know (their own hand, the cards on the table, the public history); the
family's `determinise` is the only reader of the rest, and it redraws it.
`tests/bots/test_no_peeking.py` checks that promise: two positions that differ
only in cards hidden from the viewer give the same choice under the same seed.

`deal_unknown` (from `diamonds.core.sampling`, which the replay's stand-in
deal shares) is the sampler every family's `determinise` uses: it shares
the cards the viewer cannot place among *buckets* (another player's hand, the
kitty, a face-down point card), each of a known size, some refusing suits the
player has shown to be void in (R8, B6).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from diamonds.core.sampling import deal_unknown

__all__ = ["Table", "table_of", "deal_unknown", "round_start", "deck_index"]


@dataclass(frozen=True, slots=True)
class Table:
    """A view's game as the bots use it: the rule set, the round so far, whose view it is."""

    rules: Any  # the Rules class
    states: tuple[Any, ...]  # states[0] just after this round's deal ... states[-1] now
    moves: tuple[Any, ...]  # moves[i] led from states[i] to states[i + 1]
    seat: int

    @property
    def state(self) -> Any:
        return self.states[-1]


def round_start(plies: int, is_deal: Callable[[int], bool]) -> int:
    """The number of moves up to and including the current round's deal (0 when none was made), where
    `is_deal(ply)` says whether move `ply` of the `plies` made was a deal."""
    for ply in range(plies - 1, -1, -1):
        if is_deal(ply):
            return ply + 1
    return 0


def table_of(view: Any) -> Table:
    """The round under `view` (see the module's promise), from its last deal to now."""
    position = view._position  # the bots' one door; see the module docstring
    engine = position.engine
    moves = engine.moves
    is_chance = position.rule_set.is_chance  # a deal is the chance move: no family's class names here
    start = round_start(len(moves), lambda ply: is_chance(engine.state_at(ply)))
    states = tuple(engine.state_at(ply) for ply in range(start, len(moves) + 1))
    return Table(position.rule_set, states, tuple(moves[start:]), view.viewer_seat)


_DECK_INDEXES: Final[dict[Any, dict[Any, int]]] = {}
_LAST_DECK: Final[list[Any]] = [None, None]  # the deck asked for last, by identity, and its index


def deck_index(config: Any) -> dict[Any, int]:
    """Each card of the game's deck and its place in it (the action ids and features), built once a deck.
    The deck asked for last is found by identity first: hashing a deck hashes every card, at every call."""
    deck = config.deck
    if _LAST_DECK[0] is deck:
        last: dict[Any, int] = _LAST_DECK[1]
        return last
    found = _DECK_INDEXES.get(deck)
    if found is None:
        found = _DECK_INDEXES[deck] = {card: i for i, card in enumerate(deck)}
    _LAST_DECK[0], _LAST_DECK[1] = deck, found
    return found
