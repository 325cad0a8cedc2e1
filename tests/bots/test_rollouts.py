"""A family's fast `rollout` is its `greedy` played out: the same end state, the same random numbers drawn.

`mc`, `ismcts` and `analyse` spend nearly all their time in rollouts, which each family plays on its own
mutable lists; the definition they must agree with is the generic `playout`, which applies `greedy`'s
move through the pure engine one decision at a time (docs/bots.md).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from tables import TABLES, new_position, table_id

from diamonds.bots import family_bot, playout, table_of
from diamonds.core.cards import Card, card_text

POSITIONS = 60  # per table: decisions of random games, from a hand's first card to its last trick


@pytest.mark.parametrize("table", TABLES, ids=table_id)
def test_the_rollout_ends_where_greedy_played_through_the_engine_ends(table) -> None:
    rules_id, players, variants = table
    fam = family_bot(rules_id)
    if fam.rollout is None:
        pytest.skip("no rollout of its own: the generic playout is used")
    rng = random.Random(7)
    compared = 0
    while compared < POSITIONS:
        position = new_position(rules_id, players, variants, dealer=rng.randrange(players))
        while not position.is_over and compared < POSITIONS:
            if position.is_chance:
                position.deal(rng)
                continue
            if rng.random() < 0.3:
                table = table_of(position.view(position.to_move_seat))
                state, round_no = table.state, table.state.round_no
                fast_rng, slow_rng = random.Random(compared), random.Random(compared)
                fast = fam.rollout(table.rules, state, fast_rng, round_no)
                slow = playout(table.rules, state, fam.greedy, slow_rng, round_no=round_no)
                assert fast == slow, f"the rollout from {state!r} ends elsewhere"
                assert fast_rng.getstate() == slow_rng.getstate()
                # With a first move (mc's and analyse's: each legal move of a world), the rollout of the state
                # after it, which the family may make on its own table.
                first = rng.choice(table.rules.legal_moves(state))
                after, _ = table.rules.apply(state, first)
                fast_rng, slow_rng = random.Random(compared), random.Random(compared)
                fast = fam.rollout(table.rules, state, fast_rng, round_no, first)
                slow = playout(table.rules, after, fam.greedy, slow_rng, round_no=round_no)
                assert fast == slow, f"the rollout after {first!r} from {state!r} ends elsewhere"
                assert fast_rng.getstate() == slow_rng.getstate()
                compared += 1
            position.push(rng.choice(position.legal_moves))


def _kirk_greedy_by_its_words(hand: list[Card], trick: list[Card], per_trick: int) -> Card:
    """Kirk's greedy as its docstring states it, on the cards' values and points (K3, K7)."""
    from diamonds.families.kirk.rules.rules import card_points, card_value

    def cheap_win(card: Card) -> tuple[int, int, tuple[int, int]]:
        return card_value(card), card_points(card), card.sort_key

    def cheap_throw(card: Card) -> tuple[int, int, tuple[int, int]]:
        return card_points(card), card_value(card), card.sort_key

    if not trick:
        return min(hand, key=cheap_win)  # a lead: the lowest value, keeping the high cards
    best = max(card_value(card) for card in trick)
    if len(trick) == per_trick - 1 or sum(card_points(card) for card in trick) >= 5:
        winners = [card for card in hand if card_value(card) > best]  # a tie counts as a loss
        if winners:
            return min(winners, key=cheap_win)
    return min(hand, key=cheap_throw)


def card_decisions(rules_id: str, players: int, variants: tuple[str, ...], count: int, seed: int):  # type: ignore[no-untyped-def]
    """`count` tables (`table_of`) of random games at a decision of the trick-play phase, with the game's rng."""
    rng = random.Random(seed)
    position = new_position(rules_id, players, variants)
    found = 0
    while found < count:
        if position.is_over:
            position = new_position(rules_id, players, variants, dealer=rng.randrange(players))
        if position.is_chance:
            position.deal(rng)
            continue
        table = table_of(position.view(position.to_move_seat))
        if table.state.phase.name == "PLAY":
            yield table, rng
            found += 1
        position.push(rng.choice(position.legal_moves))


def test_kirks_greedy_plays_by_its_rules_of_thumb() -> None:
    from diamonds.families.kirk.bot import greedy

    for table, rng in card_decisions("kirk", 4, (), 400, seed=3):
        state = table.state
        hand = sorted(state.hands[table.seat], key=lambda card: card.sort_key)
        expected = _kirk_greedy_by_its_words(hand, [card for _, card in state.trick], 4)
        assert greedy(table.rules, state, table.seat, rng).card == expected


def test_kirks_greedy_wins_a_trick_worth_having_with_its_cheapest_winner() -> None:
    """Last to play over a 9: the 10 of Spades (value 10, 1 point), not the Jack or the 10 of Diamonds (value
    11, K3); over the Ace of Diamonds, which nothing beats, the card of fewest points is thrown (K7); a lead is
    the lowest value, then the fewest points."""
    from diamonds.families.kirk.bot import greedy

    position = new_position("kirk", 4)
    position.deal(random.Random(1))
    table = table_of(position.view(0))

    def choice(hand: str, trick: str) -> str:
        cards = [card_text(word) for word in trick.split()]
        seat = len(cards)  # the trick led by seat 0
        hands = tuple(frozenset(card_text(word) for word in hand.split()) if s == seat else frozenset()
                      for s in range(4))
        state = dataclasses.replace(table.state, hands=hands, leader=0, trick=tuple(enumerate(cards)))
        return str(greedy(table.rules, state, seat, random.Random(0)).card)

    assert choice("JH 10D 10S 4C", "9C 2H 3S") == "10S"
    assert choice("KH 4C", "AD") == "4C"
    assert choice("9C 2D 3S", "") == "3S"
    assert choice("9C 2D 3S", "5H") == "3S"  # 5 points not reached, and not last: thrown


def _fitzgerald_card_by_its_words(hand: list[Card], trick: list[tuple[int, Card]], side_of: tuple[int, ...],
                                  seat: int) -> Card:
    """Fitzgerald's greedy card as its docstring states it (R9, R10)."""
    from diamonds.families.fitzgerald.bot import SUIT_WORTH

    if not trick:  # the highest card, the best suit among equals
        return max(hand, key=lambda c: (c.rank, SUIT_WORTH[c.suit.index]))
    led = trick[0][1].suit
    following = [c for c in hand if c.suit is led]
    if not following:  # earn the best suit's action, with its lowest card
        return max(hand, key=lambda c: (SUIT_WORTH[c.suit.index], -c.rank))
    winner, best = trick[0]
    for played_by, card in trick[1:]:
        if card.suit is led and card.rank > best.rank:
            winner, best = played_by, card
    if side_of[winner] == side_of[seat]:
        return min(following, key=lambda c: c.rank)
    beating = [c for c in following if c.rank > best.rank]  # the cheapest card that takes it, else the lowest
    return min(beating or following, key=lambda c: c.rank)


@pytest.mark.parametrize("table", [t for t in TABLES if t[0] in ("1e", "2e", "bga")], ids=table_id)
def test_fitzgeralds_greedy_card_is_its_rules_of_thumb(table) -> None:
    from diamonds.families.fitzgerald.bot import greedy

    for now, rng in card_decisions(*table, 300, seed=11):
        state = now.state
        hand = sorted(state.hands[now.seat], key=lambda card: card.sort_key)
        expected = _fitzgerald_card_by_its_words(hand, list(state.trick), state.config.side_of, now.seat)
        assert greedy(now.rules, state, now.seat, rng).card == expected


def _bidding_play_by_its_words(state, seat: int):  # type: ignore[no-untyped-def]
    """The bidding game's greedy card as its docstring states it (B6-B8): short of the final bid, the cheapest
    play that takes the trick; at it, the dearest play that does not; else the cheapest. Dear: the Joker high,
    then trumps, then by rank, a low ace and a low Joker cheapest; of equals, the first in `legal_moves`'
    order."""
    from diamonds.core.cards import Card
    from diamonds.families.bidding.rules.deck import TRUMPS
    from diamonds.families.bidding.rules.engine import play_choices, playable_in, takes_trick, trick_bar
    from diamonds.families.bidding.rules.state import Played

    def dear(move) -> tuple[int, int]:  # type: ignore[no-untyped-def]
        card = move.card
        if not isinstance(card, Card):
            return (3 if move.high else -1, 0)
        return (1 if card.suit is TRUMPS else 0, 0 if card.is_ace and move.high is False else card.rank)

    bar = trick_bar(state.trick)
    plays = []
    for card in playable_in(state.hands[seat], state.trick[0].suit if state.trick else None):
        for move in play_choices(card):
            counts_as = move.suit if move.suit is not None else (card.suit if isinstance(card, Card) else TRUMPS)
            plays.append((move, takes_trick(bar, Played(seat, card, move.high, counts_as))))
    lowest = min((move for move, _ in plays), key=dear)
    if (state.final_bids[seat] or 0) > state.tricks_won[seat]:
        winners = [move for move, wins in plays if wins]
        return min(winners, key=dear) if winners else lowest
    losers = [move for move, wins in plays if not wins]
    return max(losers, key=dear) if losers else lowest


def test_the_bidding_games_greedy_card_is_its_rules_of_thumb() -> None:
    from diamonds.families.bidding.bot import greedy

    for table, rng in card_decisions("bidding", 3, (), 300, seed=13):
        assert greedy(table.rules, table.state, table.seat, rng) == _bidding_play_by_its_words(table.state, table.seat)
