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
keyed as that many. Of the tricks each player won only whether they won
any counts (R17). The rest (Thief, taken counts, a pending victim, dealer)
decides what the Suit Actions and R16 do and is kept.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from typing import Any, Final

from diamonds.core.cards import Card

from .config import GameConfig
from .engine import Table, follow_suit, victim_moves
from .moves import Move, PlayCard
from .state import PendingVictim, Phase, State, side_score

__all__ = ["solver_key", "FitzgeraldEndgame"]

_IN_PLAY: Final = (Phase.PLAY, Phase.CHOOSE_VICTIM)


def solver_key(state: State) -> Hashable:
    """See the module. Before play (the deal, the passes) and after the game the state itself."""
    if state.phase not in _IN_PLAY:
        return state
    return _key(state.config, state.phase, state.round_no, state.dealer, state.trick_no, state.leader, state.hands,
                state.trick, state.taken, state.tricks_won, state.showroom, state.supply, state.thief, state.pending)


def _key(config: GameConfig, phase: Phase, round_no: int, dealer: int, trick_no: int, leader: int,
         hands: Sequence[Collection[Card]], trick: Sequence[tuple[int, Card]], taken: Sequence[Sequence[int]],
         tricks_won: Sequence[int], showroom: Sequence[int], supply: int, thief: int | None,
         pending: PendingVictim | None) -> Hashable:
    """`solver_key` of the state with these fields (a `State`'s, or a `Table`'s in play). A card is keyed
    as 16 x its suit's index + its place: the same order as the display order (suit, rank)."""
    codes = _CODES
    held = 0
    remaining: list[int] = []
    for hand in hands:
        held += len(hand)
        remaining.extend(map(codes.__getitem__, hand))
    remaining.extend(codes[card] for _, card in trick)
    remaining.sort()
    place: dict[int, int] = {}
    suit, count = -1, 0
    for code in remaining:
        if code >> 4 != suit:
            suit, count = code >> 4, 0
        place[code] = (suit << 4) + count
        count += 1
    most = _actions(config, held, len(trick))
    return (phase, round_no, dealer, trick_no, leader,
            tuple(tuple(sorted([place[codes[card]] for card in hand])) for hand in hands),
            tuple(place[codes[card]] for _, card in trick), tuple(tuple(row) for row in taken),
            tuple(won > 0 for won in tricks_won),
            tuple(min(points, most) for points in showroom), min(supply, most), thief, pending)


class _Codes(dict[Card, int]):
    """Card -> 16 x its suit's index + its rank (ranks are 1-15), worked out on first sight."""

    def __missing__(self, card: Card) -> int:
        code = self[card] = (card.suit.index << 4) + card.rank
        return code


_CODES: Final = _Codes()


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

    __slots__ = ("table", "round_no", "saved", "finished", "cost")

    def __init__(self, state: State) -> None:
        # measured: about 11,000 decisions a second with the Thief (R13), a third of Kirk's rate; where victims
        # are named (R14: 1e, two players, partnerships) about 3,000
        self.cost = 3 if state.config.uses_thief else 10
        self.table = Table(state, record=False)
        self.round_no = state.round_no
        self.saved: list[tuple[Any, ...]] = []
        self.finished: dict[Hashable, tuple[int, ...]] = {}  # `finish`'s answers: the change in the scores

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
        """`legal_moves`: R8 in play (the led suit if held, else any card, in display order, less a card
        that plays alike with the one before it); R14's victims."""
        table = self.table
        if table.phase is Phase.PLAY:
            seat = (table.leader + len(table.trick)) % len(table.names)
            hand = follow_suit(sorted(table.hands[seat], key=_sort_key), table.trick)
            moves: list[Move] = [PlayCard(hand[0])]
            for before, card in zip(hand, hand[1:]):
                if card.suit is not before.suit or self.between(seat, before, card):
                    moves.append(PlayCard(card))
            return moves
        pending = table.pending
        assert pending is not None
        return victim_moves(table.config, pending)

    def between(self, seat: int, low: Card, high: Card) -> bool:
        """Whether a card of their suit ranked between two of `seat`'s is still to be played by another
        (held, or on the trick): if not, the two play alike (the module), and `moves` keeps the first."""
        suit = low.suit
        table = self.table
        for other, hand in enumerate(table.hands):
            if other != seat:
                for card in hand:
                    if card.suit is suit and low.rank < card.rank < high.rank:
                        return True
        return any(card.suit is suit and low.rank < card.rank < high.rank for _, card in table.trick)

    def play(self, move: Move) -> None:
        self.save()
        self.table.apply(move)

    def save(self) -> None:
        table = self.table
        self.saved.append((
            table.phase, table.round_no, table.dealer, [set(hand) for hand in table.hands], table.pass_count,
            list(table.passed), table.trick_no, table.leader, list(table.trick), [list(row) for row in table.taken],
            list(table.tricks_won), list(table.showroom), list(table.vault), table.supply, table.thief,
            table.pending,
        ))

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
        return tuple(side_score(vault, showroom) for vault, showroom in zip(table.vault, table.showroom))

    def finish(self) -> tuple[int, ...] | None:
        """In the round's last trick (one card each: every card forced, R8), the scores at the round's
        end, the cards played in one run by the engine's `play_run`; None before, or where a victim is to
        be named on the way (R14)."""
        table = self.table
        if table.phase is not Phase.PLAY or any(len(hand) > 1 for hand in table.hands):
            return None
        key = self.key()  # the last trick is reached by many ways, and a key costs less than playing it
        now = self.scores()
        known = self.finished.get(key)
        if known is not None:
            return tuple(score + change for score, change in zip(now, known))
        n = len(table.names)
        first = table.leader + len(table.trick)
        cards = [card for offset in range(table.plays_per_trick - len(table.trick))
                 for card in table.hands[(first + offset) % n]]
        self.save()
        table.play_run(cards, 0)
        scores = self.scores() if self.to_move() is None else None
        self.undo()
        if scores is not None:
            self.finished[key] = tuple(end - score for end, score in zip(scores, now))
        return scores
