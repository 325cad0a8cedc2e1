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

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from diamonds.core.cards import Card

from .config import GameConfig
from .engine import Table
from .moves import ChooseVictim, Move, PlayCard
from .state import PendingVictim, Phase, State

__all__ = ["solver_key", "FitzgeraldEndgame"]

_IN_PLAY = (Phase.PLAY, Phase.CHOOSE_VICTIM)


def solver_key(state: State) -> Hashable:
    """See the module. Before play (the deal, the passes) and after the game the state itself."""
    if state.phase not in _IN_PLAY:
        return state
    return _key(state.config, state.phase, state.round_no, state.dealer, state.trick_no, state.leader, state.hands,
                state.trick, state.taken, state.tricks_won, state.showroom, state.supply, state.thief, state.pending)


def _key(config: GameConfig, phase: Phase, round_no: int, dealer: int, trick_no: int, leader: int,
         hands: Sequence[Iterable[Card]], trick: Sequence[tuple[int, Card]], taken: Sequence[Sequence[int]],
         tricks_won: Sequence[int], showroom: Sequence[int], supply: int, thief: int | None,
         pending: PendingVictim | None) -> Hashable:
    """`solver_key` of the state with these fields (a `State`'s, or a `Table`'s in play)."""
    remaining = [card for hand in hands for card in hand]
    remaining.extend(card for _, card in trick)
    held = len(remaining) - len(trick)
    remaining.sort(key=_sort_key)
    place: dict[Card, tuple[int, int]] = {}
    suit, count = -1, 0
    for card in remaining:
        index = card.suit.index
        if index != suit:
            suit, count = index, 0
        place[card] = (index, count)
        count += 1
    most = _actions(config, held, len(trick))
    return (phase, round_no, dealer, trick_no, leader,
            tuple(tuple(sorted(place[card] for card in hand)) for hand in hands),
            tuple(place[card] for _, card in trick), tuple(tuple(row) for row in taken), tuple(tricks_won),
            tuple(min(points, most) for points in showroom), min(supply, most), thief, pending)


def _sort_key(card: Card) -> tuple[int, int]:
    return card.sort_key


def _actions(config: GameConfig, held: int, on_trick: int) -> int:
    """At least the Suit Actions still to be taken this round: one per card still to be played (R9) and
    per trick still to be won (R10), a pending Clubs action (R14), four majorities (R16) and two for
    every player (R17). Each takes at most one point from one area."""
    tricks = -(-(held + on_trick) // config.plays_per_trick)
    return held + tricks + 1 + 4 + 2 * config.player_count


class FitzgeraldEndgame:
    """A round being played, for the solver (`diamonds.core.family.Endgame`): the engine's own mutable
    `Table` makes the moves (so the rules are the engine's), and a move is taken back by putting back
    the table's fields as they were before it."""

    __slots__ = ("table", "round_no", "saved")

    def __init__(self, state: State) -> None:
        self.table = Table(state, record=False)
        self.round_no = state.round_no
        self.saved: list[tuple[Any, ...]] = []

    def to_move(self) -> int | None:
        table = self.table
        if table.round_no != self.round_no or table.phase not in _IN_PLAY:
            return None
        if table.phase is Phase.PLAY:
            return (table.leader + len(table.trick)) % len(table.names)
        pending = table.pending
        assert pending is not None
        return pending.actor if pending.actor is not None else table.config.sides[pending.side][0]

    def moves(self) -> list[Move]:
        """`legal_moves`: R8 in play (the led suit if held, else any card, in display order); R14's victims."""
        table = self.table
        if table.phase is Phase.PLAY:
            hand = sorted(table.hands[(table.leader + len(table.trick)) % len(table.names)], key=_sort_key)
            if table.trick:
                led = table.trick[0][1].suit
                following = [card for card in hand if card.suit is led]
                hand = following or hand
            return [PlayCard(card) for card in hand]
        pending = table.pending
        assert pending is not None
        named: list[Move] = [ChooseVictim(seat) for side in pending.candidates for seat in table.config.sides[side]]
        return named if pending.required else [ChooseVictim(None), *named]

    def play(self, move: Move) -> None:
        table = self.table
        self.saved.append((
            table.phase, table.round_no, table.dealer, [set(hand) for hand in table.hands], table.pass_count,
            list(table.passed), table.trick_no, table.leader, list(table.trick), [list(row) for row in table.taken],
            list(table.tricks_won), list(table.showroom), list(table.vault), table.supply, table.thief,
            table.pending,
        ))
        table.apply(move)

    def undo(self) -> None:
        table = self.table
        (table.phase, table.round_no, table.dealer, table.hands, table.pass_count, table.passed, table.trick_no,
         table.leader, table.trick, table.taken, table.tricks_won, table.showroom, table.vault, table.supply,
         table.thief, table.pending) = self.saved.pop()

    def key(self) -> Hashable:
        table = self.table
        return _key(table.config, table.phase, table.round_no, table.dealer, table.trick_no, table.leader,
                    table.hands, table.trick, table.taken, table.tricks_won, table.showroom, table.supply,
                    table.thief, table.pending)

    def scores(self) -> tuple[int, ...]:
        """R18: 2 x Vault + Showroom, per side (the standings' scores)."""
        table = self.table
        return tuple(2 * vault + showroom for vault, showroom in zip(table.vault, table.showroom))

    def finish(self) -> tuple[int, ...] | None:
        return None
