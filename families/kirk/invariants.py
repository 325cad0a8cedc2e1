"""What Kirk's game (K1-K8) conserves, worked out from the rulings (never read from the engine's constants): the
family's `invariants` part, which the conformance suite (tests/conformance/test_families.py) checks after every
move of games played at random."""

from __future__ import annotations

from typing import Any

from diamonds.core.cards import Card, Suit
from diamonds.core.family import FamilyInvariants

__all__ = ["INVARIANTS"]

#: K2: the standard pack.
KIRK_DECK_SIZE = 52
KIRK_HAND = 13
#: K7, worked out: each other suit 9 × 1 + 3 × 5 + 10 = 34; Diamonds 9 × 3 + 3 × 10 + 20 = 77.
KIRK_HAND_POINTS = 3 * 34 + 77


def _kirk_points(card: Card) -> int:
    """K7, written out again here (not the engine's `card_points`)."""
    base = 1 if card.rank <= 10 else 5 if card.rank <= 13 else 10
    if card.suit is Suit.DIAMONDS:
        return 3 if base == 1 else 2 * base
    return base


def _kirk_max_moves(config: Any) -> int:
    per_hand = 1 + KIRK_DECK_SIZE  # the deal and every card
    if config.hands is not None:
        return config.hands * per_hand
    # K8 with a target: 179 points a hand among four players, so the leader gains at least 179 / 4.
    return (config.target * 4 // KIRK_HAND_POINTS + 2) * per_hand


def _kirk_state(state: Any) -> None:
    from diamonds.families.kirk.rules import Phase

    config = state.config
    deck = set(config.deck)
    assert len(deck) == KIRK_DECK_SIZE, "K2: the standard 52-card pack"
    held = [card for hand in state.hands for card in hand]
    on_table = [card for _, card in state.trick]
    piled = [card for pile in state.piles for card in pile]
    if state.phase is Phase.PLAY:
        # K2, K4, K6: every card of the pack is in a hand, on the table, or in a scoring pile.
        every = held + on_table + piled
        assert len(every) == KIRK_DECK_SIZE and set(every) == deck, (
            f"K2: {len(held)} held + {len(on_table)} on the table + {len(piled)} in piles, "
            f"{len(set(every))} distinct, not the 52 cards of the pack"
        )
        hands_done = state.hand_no - 1
    elif state.phase is Phase.GAME_OVER:
        # The last hand's piles stay for show: all 52 cards, worth 179 (K7).
        assert not held and not on_table
        assert len(piled) == KIRK_DECK_SIZE and set(piled) == deck, "K6: the last hand's piles hold the pack"
        assert sum(_kirk_points(card) for card in piled) == KIRK_HAND_POINTS, "K7: a hand's piles score 179"
        hands_done = state.hand_no
    else:
        assert not held and not on_table and not piled, "K2: nothing in play before the deal"
        hands_done = state.hand_no - 1
    # K7: each finished hand added exactly 179 points to the totals.
    assert sum(state.totals) == KIRK_HAND_POINTS * hands_done, (
        f"K7: totals {state.totals} after {hands_done} hands, not {KIRK_HAND_POINTS} a hand"
    )


def _kirk_step(before: Any, move: Any, after: Any, events: tuple[Any, ...]) -> None:
    from diamonds.families.kirk.rules import Deal, Phase

    if isinstance(move, Deal):
        # K2: 13 distinct cards each, the 52 cards of the pack between them.
        assert [len(hand) for hand in after.hands] == [KIRK_HAND] * 4, "K2: thirteen cards each"
        assert set().union(*after.hands) == set(after.config.deck), "K2: the whole pack is dealt"
    if before.phase is Phase.PLAY and (after.phase is not Phase.PLAY or after.hand_no != before.hand_no):
        # The hand just ended: its piles scored 179 in all (K7).
        gained = sum(after.totals) - sum(before.totals)
        assert gained == KIRK_HAND_POINTS, f"K7: a hand scores {KIRK_HAND_POINTS}, this one {gained}"
        assert all(now >= then for now, then in zip(after.totals, before.totals)), "K7: totals never fall"


def _kirk_final(state: Any, standings: tuple[Any, ...]) -> None:
    # K8: the highest total wins; players tied on it share the win.
    best = max(state.totals)
    assert [s.score for s in standings] == list(state.totals)
    assert [s.winner for s in standings] == [total == best for total in state.totals], "K8: the winners"
    config = state.config
    if config.target is not None:
        assert best >= config.target, "K8: a target game ends once someone reaches the target"
    else:
        assert state.hand_no == config.hands, "K8: the game lasts its number of hands"


INVARIANTS = FamilyInvariants(
    max_moves=_kirk_max_moves,
    state=_kirk_state,
    step=_kirk_step,
    final=_kirk_final,
    extra_options=({"Hands": "1"}, {"Target": "200"}),
)
