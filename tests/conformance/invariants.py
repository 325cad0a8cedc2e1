"""What each family conserves: the per-family half of the conformance suite (`test_families.py`).

The suite plays every registered rule set at random and, after every step,
calls the checks registered here under the family's name. A family with no
entry fails the suite (`test_family_has_invariants`), so whoever registers a
family in `diamonds_core/registry.py` adds its entry here too.

An entry says:

* `max_moves(config)`: an upper bound on the moves of a whole game (deals
  included), so that "the game ends" is checked, not hoped for;
* `state(state)`: what holds in every state (conserved quantities);
* `step(before, move, after, events)`: what holds across one move;
* `final(state, standings)`: who wins, by the family's own tie rule;
* `extra_options`: set-ups the suite plays besides player counts × variants,
  as the option tags' text (e.g. Kirk's `Hands`, `Target`).

Expected numbers are worked out from the rulings here (R3: 235 points; K7:
179 points a hand), never read from the engine's constants.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from diamonds.core.cards import Card, Suit

__all__ = ["FamilyInvariants", "INVARIANTS"]


def _nothing(*_: Any) -> None:
    return None


@dataclass(frozen=True)
class FamilyInvariants:
    max_moves: Callable[[Any], int]
    state: Callable[[Any], None] = _nothing
    step: Callable[[Any, Any, Any, tuple[Any, ...]], None] = _nothing
    final: Callable[[Any, tuple[Any, ...]], None] = _nothing
    extra_options: tuple[Mapping[str, str], ...] = field(default=())


# --------------------------------------------------------------------------- Fitzgerald (R1-R18)

#: R3: 110 one-point and 25 five-point crystals.
FITZGERALD_POINTS = 110 * 1 + 25 * 5


def _fitzgerald_max_moves(config: Any) -> int:
    # Per round: the deal, the pass count, one pass per player, every card, and at most one Clubs
    # victim per card (R9), per trick (R10) and per suit majority (R16).
    n = config.player_count
    cards = config.tricks_per_round * config.plays_per_trick
    return config.rounds * (2 + n + 2 * cards + config.tricks_per_round + 4)


def _fitzgerald_state(state: Any) -> None:
    from diamonds.core.fitzgerald import Phase

    config = state.config
    # R3: the crystals only move between the Supply, the Showrooms and the Vaults.
    total = state.supply + sum(state.showroom) + sum(state.vault)
    assert total == FITZGERALD_POINTS, (
        f"R3: supply {state.supply} + showrooms {state.showroom} + vaults {state.vault} = {total}, "
        f"not {FITZGERALD_POINTS}"
    )
    assert state.supply >= 0 and min(state.showroom) >= 0 and min(state.vault) >= 0, "R3: an area below 0"
    assert len(state.showroom) == len(state.vault) == config.side_count
    # R5, R8: while cards are being played, every dealt card is in a hand, the trick, or a won trick.
    if state.phase in (Phase.PLAY, Phase.CHOOSE_VICTIM):
        held = [card for hand in state.hands for card in hand]
        on_table = [card for _, card in state.trick]
        won = sum(sum(row) for row in state.taken)
        dealt = config.hand_size * config.player_count
        assert len(held) + len(on_table) + won == dealt, (
            f"R5: {len(held)} held + {len(on_table)} on the table + {won} won != {dealt} dealt"
        )
        live = held + on_table
        assert len(set(live)) == len(live), "a card is in two places"
        assert set(live) <= set(config.deck), "a card of no deck of this game"


def _fitzgerald_final(state: Any, standings: tuple[Any, ...]) -> None:
    # R18: 2 × Vault + Showroom; ties go to the most in the Vault; a further tie shares the win.
    scores = [2 * vault + showroom for vault, showroom in zip(state.vault, state.showroom)]
    assert [s.score for s in standings] == scores, "R18: score = 2 × Vault + Showroom"
    best = max(scores)
    best_vault = max(vault for vault, score in zip(state.vault, scores) if score == best)
    expected = [score == best and vault == best_vault for score, vault in zip(scores, state.vault)]
    assert [s.winner for s in standings] == expected, "R18: the winners"


# --------------------------------------------------------------------------- Kirk (K1-K8)

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
    from diamonds.core.kirk import Phase

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
    from diamonds.core.kirk import Deal, Phase

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


# --------------------------------------------------------------------------- the registry

INVARIANTS: dict[str, FamilyInvariants] = {
    "fitzgerald": FamilyInvariants(
        max_moves=_fitzgerald_max_moves,
        state=_fitzgerald_state,
        final=_fitzgerald_final,
    ),
    "kirk": FamilyInvariants(
        max_moves=_kirk_max_moves,
        state=_kirk_state,
        step=_kirk_step,
        final=_kirk_final,
        extra_options=({"Hands": "1"}, {"Target": "200"}),
    ),
}
