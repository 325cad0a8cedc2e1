"""A bot never sees hidden cards: two positions that differ only in cards hidden from its player
(the others' unplayed, unpassed, untaken cards, dealt differently) give the same choice under the same seed."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from tables import TABLES, new_position, play, table_id

import diamonds
from diamonds.bots import make_bot


def _named_cards(move: Any) -> set[Any]:
    """The cards a move names (a card played, cards passed, a card taken and a point card laid)."""
    cards: set[Any] = set()
    for name in ("card", "point"):
        if getattr(move, name, None) is not None:
            cards.add(getattr(move, name))
    cards.update(getattr(move, "cards", ()) or ())
    return cards


def twin(position: Any, viewer: int, rng: random.Random) -> Any | None:
    """The same moves, with the round's deal changed only in the others' cards that no later move names."""
    moves = list(position.moves)
    start = max(i for i, move in enumerate(moves) if type(move).__name__ == "Deal")
    deal = moves[start]
    fixed = set().union(*(_named_cards(move) for move in moves[start + 1:]))
    others = [seat for seat in range(len(position.players)) if seat != viewer]
    free = [card for seat in others for card in deal.hands[seat] if card not in fixed]
    dealt = {card for hand in deal.hands for card in hand} | set(getattr(deal, "kitty", ()))
    free += [card for card in position.config.deck if card not in dealt]  # cards out of play (Fitzgerald)
    for _ in range(200):
        rng.shuffle(free)
        hands, taken = list(deal.hands), 0
        for seat in others:
            keep = [card for card in deal.hands[seat] if card in fixed]
            size = len(deal.hands[seat]) - len(keep)
            hands[seat] = tuple(keep + free[taken:taken + size])
            taken += size
        if all(set(hands[s]) == set(deal.hands[s]) for s in others):
            continue
        other = diamonds.Position(position.rules, position.players, dealer=position.config.first_dealer,
                                  variants=[v.value if hasattr(v, "value") else v
                                            for v in getattr(position.config, "variants", ())])
        try:
            for move in moves[:start]:
                other.push(move)
            other.push(dataclasses.replace(deal, hands=tuple(hands)))
            for move in moves[start + 1:]:
                other.push(move)
        except diamonds.IllegalMove:
            continue
        return other
    return None


@pytest.mark.parametrize("table", TABLES, ids=table_id)
@pytest.mark.parametrize("bot", ["random", "greedy", "mc:3", "ismcts:3"])
def test_same_view_same_choice(table, bot) -> None:
    rules, players, variants = table
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        position = new_position(rules, players, variants, dealer=seed % players)
        stop = rng.randrange(1, 60)
        play(position, [make_bot("greedy", seed=s) for s in range(players)], rng, stop_after=stop)
        if position.is_over or position.is_chance:
            continue
        viewer = position.to_move_seat
        other = twin(position, viewer, random.Random(seed))
        if other is None:
            continue
        assert [list(map(str, other.hand(s))) for s in range(players)] != \
               [list(map(str, position.hand(s))) for s in range(players)]
        view, twin_view = position.view(viewer), other.view(viewer)
        assert view.legal_moves == twin_view.legal_moves and view.public_moves == twin_view.public_moves
        for run in range(2):
            assert make_bot(bot, seed=run).choose(view) == make_bot(bot, seed=run).choose(twin_view)
        checked += 1
    assert checked >= 3, f"only {checked} positions could be twinned"


def test_the_twins_catch_a_peeking_bot() -> None:
    """The check has teeth: a bot reading the next player's hand through the view's position is caught."""

    class Peeker:
        def choose(self, view: Any) -> Any:
            position = view._position
            nxt = (view.viewer_seat + 1) % len(view.players)
            key = sum(card.rank for card in position.hand(nxt))
            return view.legal_moves[key % len(view.legal_moves)]

    caught = 0
    for seed in range(12):
        rng = random.Random(seed)
        position = new_position("kirk", 4, dealer=seed % 4)
        play(position, [make_bot("greedy", seed=s) for s in range(4)], rng, stop_after=rng.randrange(1, 40))
        viewer = position.to_move_seat
        other = twin(position, viewer, random.Random(seed))
        if other is not None and Peeker().choose(position.view(viewer)) != Peeker().choose(other.view(viewer)):
            caught += 1
    assert caught >= 3
