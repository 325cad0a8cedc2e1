"""Fitzgerald's solver key: what of a state decides the rest of its round, for the end-of-round solver's memo.

Two states of one round with equal keys have the same future under every
play (the same legal moves, in the same order, up to cards that play alike,
and the same scores at the round's end), so the solver may share their values.

A card's rank matters only against the ranks of the other cards of its suit
still to be played: the highest of the led suit wins the trick (R10); the
Suit Actions (R9, R10, R12-R14) and the end-of-round majorities (R16) go by
suit alone. So in play each card held or on the trick is keyed as its suit
and its rank's place among the cards of that suit still held or on the trick:
two hands whose cards differ only in ranks that no card still to be played
lies between play alike. The order is kept (the places keep the ranks'
order), so `legal_moves`' order, and with it the solver's tie-break (the
first move), is the same too. The passes (R6) are over and left out; the
rest of the state (scores, Supply, Thief, taken counts, tricks won, a
pending victim) decides what the Suit Actions and R16-R18 do and is kept.
"""

from __future__ import annotations

from collections.abc import Hashable

from diamonds.core.cards import Card

from .state import Phase, State

__all__ = ["solver_key"]

_IN_PLAY = (Phase.PLAY, Phase.CHOOSE_VICTIM)


def solver_key(state: State) -> Hashable:
    """See the module. Before play (the deal, the passes) and after the game the state itself."""
    if state.phase not in _IN_PLAY:
        return state
    ranks: dict[object, list[int]] = {}
    for hand in state.hands:
        for card in hand:
            ranks.setdefault(card.suit, []).append(card.rank)
    for _, card in state.trick:
        ranks.setdefault(card.suit, []).append(card.rank)
    place = {suit: {rank: index for index, rank in enumerate(sorted(held))} for suit, held in ranks.items()}

    def key(card: Card) -> tuple[int, int]:
        return card.sort_key[0], place[card.suit][card.rank]

    hands = tuple(tuple(sorted(key(card) for card in hand)) for hand in state.hands)
    trick = tuple(key(card) for _, card in state.trick)
    return (state.phase, state.round_no, state.dealer, state.trick_no, state.leader, hands, trick, state.taken,
            state.tricks_won, state.showroom, state.vault, state.supply, state.thief, state.pending)
