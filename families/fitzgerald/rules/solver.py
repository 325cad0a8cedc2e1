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
first move), is the same too. The passes (R6) are over and left out.

The solver keeps, per key, the change in the scores from there to the
round's end, not the scores themselves. Those changes do not depend on the
Vaults (nothing takes from a Vault, R12-R14), which are left out; nor on a
Showroom's or the Supply's points, only on whether each is empty (R3, R12-
R14: an action that would take from an empty one does nothing), and no more
actions are left than `_actions`: an area holding at least that many is
keyed as that many. The rest (Thief, taken counts, tricks won, a pending
victim, dealer) decides what the Suit Actions and R16-R17 do and is kept.
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
    remaining = [card for hand in state.hands for card in hand]
    remaining.extend(card for _, card in state.trick)
    remaining.sort(key=_sort_key)
    place: dict[Card, tuple[int, int]] = {}
    suit, count = -1, 0
    for card in remaining:
        index = card.suit.index
        if index != suit:
            suit, count = index, 0
        place[card] = (index, count)
        count += 1
    hands = tuple(tuple(sorted(place[card] for card in hand)) for hand in state.hands)
    trick = tuple(place[card] for _, card in state.trick)
    most = _actions(state)
    showroom = tuple(min(points, most) for points in state.showroom)
    return (state.phase, state.round_no, state.dealer, state.trick_no, state.leader, hands, trick, state.taken,
            state.tricks_won, showroom, min(state.supply, most), state.thief, state.pending)


def _sort_key(card: Card) -> tuple[int, int]:
    return card.sort_key


def _actions(state: State) -> int:
    """At least the Suit Actions still to be taken this round: one per card still to be played (R9) and
    per trick still to be won (R10), a pending Clubs action (R14), four majorities (R16) and two for
    every player (R17). Each takes at most one point from one area."""
    held = sum(len(hand) for hand in state.hands)
    per_trick = state.config.plays_per_trick
    tricks = -(-(held + len(state.trick)) // per_trick)
    return held + tricks + 1 + 4 + 2 * state.config.player_count
