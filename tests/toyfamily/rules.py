"""The toy trick game (rulings T1-T7): a fourth family that lives only in tests/, to prove the house hosts games.

T1  Two players, each for themselves; no variants and no tags of its own.
T2  The pack: the 1, 2 and 3 of each suit (12 cards). Each round the dealer deals six cards to each
    player; the players deal in turn (the first dealer from the Dealer tag).
T3  A round is six tricks of two cards; the non-dealer leads the first trick.
T4  The leader plays any card; the other follows suit if they can, else plays any card.
T5  The higher card of the led suit wins the trick, and its winner leads the next.
T6  Each trick won scores one point.
T7  The game lasts two rounds; the higher total wins, equal totals share the win.

Its moves and events are the plain trick game's (diamonds.core.trick), so the house replays, draws, tells and
exports its games; this module is its rules, its rulings as data and its invariants. Standard library and
diamonds.core only: plain frozen values and pure functions.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from diamonds.core import errors, trick
from diamonds.core.cards import AnyCard, Card, format_cards, numbered_cards, sort_cards
from diamonds.core.family import FamilyInvariants, Rules, SideResult
from diamonds.core.seating import ConfigError, Seating, check_players, dealer_seat, solo_sides
from diamonds.core.trick import (
    CardPlayed,
    CardsDealt,
    Deal,
    GameEnded,
    PlayCard,
    RoundScored,
    RoundStarted,
    TrickRulings,
    TrickWon,
)

DECK: tuple[Card, ...] = numbered_cards(1, 3)  # T2


@dataclass(frozen=True, slots=True)
class ToyConfig(Seating):
    deck: tuple[Card, ...] = DECK
    hand_size: int = 6  # T2
    tricks_per_hand: int = 6  # T3
    plays_per_trick: int = 2  # T3
    rounds: int = 2  # T7


# --------------------------------------------------------------------------- state


class Phase(enum.Enum):
    DEAL = "deal"
    PLAY = "play"
    GAME_OVER = "game over"


@dataclass(frozen=True, slots=True)
class State:
    config: ToyConfig
    phase: Phase
    round_no: int
    dealer: int
    hands: tuple[frozenset[Card], ...]
    trick_no: int
    leader: int
    trick: tuple[tuple[int, Card], ...]
    won: tuple[int, ...]  # tricks won this round
    totals: tuple[int, ...]  # the rounds before this one (all of them once over)

    @property
    def to_move(self) -> int | None:
        return (self.leader + len(self.trick)) % 2 if self.phase is Phase.PLAY else None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def hand(self, seat: int) -> tuple[Card, ...]:
        return sort_cards(self.hands[seat])


def trick_winner(leader: int, cards: Iterable[AnyCard]) -> int:
    """T5: the seat whose card is the highest of the led suit (`cards` in play order from `leader`)."""
    played = list(cards)
    led = played[0]
    best = max((i for i, card in enumerate(played) if isinstance(card, Card) and isinstance(led, Card)
                and card.suit is led.suit), key=lambda i: played[i].rank, default=0)  # type: ignore[union-attr]
    return (leader + best) % 2


def standings(state: State) -> tuple[SideResult, ...]:
    best = max(state.totals)
    return tuple(SideResult(seat, total, total == best) for seat, total in enumerate(state.totals))


# --------------------------------------------------------------------------- apply


def _expect(state: State, phase: Phase, doing: str) -> None:
    if state.phase is phase:
        return
    if state.phase is Phase.GAME_OVER:
        raise errors.GameOver(f"the game is over after {state.config.rounds} rounds: {doing} is not possible", rule="T7")
    if state.phase is Phase.DEAL:
        raise errors.WrongPhase(f"{doing} is not due now: round {state.round_no} has not been dealt", rule="T2")
    raise errors.WrongPhase(f"{doing} is not due now: {state.config.players[state.to_move or 0]} must play a card",
                            rule="T4", seat=state.to_move)


def apply(state: State, move: Deal | PlayCard) -> tuple[State, tuple[object, ...]]:
    if isinstance(move, Deal):
        return _deal(state, move.hands)
    if isinstance(move, PlayCard):
        return _play(state, move.card)
    raise TypeError(f"not a move of the toy game: {move!r}")


def _deal(state: State, hands: tuple[tuple[AnyCard, ...], ...]) -> tuple[State, tuple[object, ...]]:
    _expect(state, Phase.DEAL, "a deal")
    config, names = state.config, state.config.players
    if len(hands) != 2:
        raise errors.InvalidDeal(f"a deal gives hands to 2 players, not {len(hands)}", rule="T2", expected=2,
                                 found=len(hands))
    seen: dict[AnyCard, int] = {}
    for seat, hand in enumerate(hands):
        if len(hand) != config.hand_size:
            raise errors.InvalidDeal(f"{names[seat]} is dealt {len(hand)} cards, not {config.hand_size}", rule="T2",
                                     seat=seat, expected=config.hand_size, found=len(hand))
        for card in hand:
            if card not in config.deck:
                raise errors.CardNotInDeck(f"{card} is dealt to {names[seat]}, but the toy pack is 1-3 of each suit",
                                           rule="T2", seat=seat, card=card)
            if card in seen:
                raise errors.CardTwice(f"{card} is dealt twice", rule="T2", seat=seat, card=card)
            seen[card] = seat
    held = tuple(frozenset(c for c in hand if isinstance(c, Card)) for hand in hands)
    events = (RoundStarted(state.round_no, state.dealer), CardsDealt(state.round_no, tuple(map(sort_cards, held))))
    leader = config.left_of(state.dealer)  # T3
    return replace(state, phase=Phase.PLAY, hands=held, trick_no=1, leader=leader, trick=(), won=(0, 0)), events


def _play(state: State, card: AnyCard) -> tuple[State, tuple[object, ...]]:
    _expect(state, Phase.PLAY, f"playing {card}")
    config, names = state.config, state.config.players
    seat = state.to_move
    assert seat is not None
    if not isinstance(card, Card) or card not in config.deck:
        raise errors.CardNotInDeck(f"{names[seat]} cannot play {card}: the toy pack is 1-3 of each suit", rule="T2",
                                   seat=seat, card=card)
    if card not in state.hands[seat]:
        raise errors.CardNotHeld(f"{names[seat]} does not hold {card}", rule="T4", seat=seat, card=card)
    if state.trick:
        led = state.trick[0][1].suit
        follow = tuple(c for c in state.hand(seat) if c.suit is led)
        if card.suit is not led and follow:
            raise errors.MustFollowSuit(f"{names[seat]} must follow {led.title} with {format_cards(follow)}, not play "
                                        f"{card}", rule="T4", seat=seat, card=card, cards=follow)
    hands = tuple(hand - {card} if s == seat else hand for s, hand in enumerate(state.hands))
    trick = state.trick + ((seat, card),)
    events: list[object] = [CardPlayed(seat, card, state.trick_no, not state.trick)]
    if len(trick) < config.plays_per_trick:
        return replace(state, hands=hands, trick=trick), tuple(events)
    winner = trick_winner(trick[0][0], (c for _, c in trick))  # T5
    events.append(TrickWon(state.trick_no, winner, dict(trick)[winner], tuple(c for _, c in trick)))
    won = tuple(w + (s == winner) for s, w in enumerate(state.won))  # T6
    if state.trick_no < config.tricks_per_hand:
        return replace(state, hands=hands, trick=(), trick_no=state.trick_no + 1, leader=winner, won=won), \
            tuple(events)
    totals = tuple(t + w for t, w in zip(state.totals, won))
    events.append(RoundScored(state.round_no, won, totals))
    if state.round_no >= config.rounds:  # T7
        final = replace(state, phase=Phase.GAME_OVER, hands=hands, trick=(), won=won, totals=totals)
        events.append(GameEnded(standings(final)))
        return final, tuple(events)
    round_no = state.round_no + 1
    return replace(state, phase=Phase.DEAL, round_no=round_no, dealer=config.dealer_of_round(round_no),
                   hands=(frozenset(), frozenset()), trick_no=1, trick=(), won=(0, 0), totals=totals), tuple(events)


# --------------------------------------------------------------------------- the family protocol


class Toy(Rules):
    """The toy trick game (rulings T1-T7)."""

    id: ClassVar[str] = "toy"
    family: ClassVar[str] = "toy"
    title: ClassVar[str] = "The toy trick game"
    player_counts: ClassVar[tuple[int, ...]] = (2,)
    default_players: ClassVar[int] = 2
    seats_rule: ClassVar[str | None] = "T1"
    rulings: ClassVar[TrickRulings] = TrickRulings(deal="T2", tricks="T3", play="T4", winner="T5", score="T6",
                                                   length="T7")
    follows_suit: ClassVar[bool] = True  # T4: a card of another suit shows a void (a live table's stand-in deal)

    @classmethod
    def configure(cls, players: Iterable[str], *, variants: Iterable[str] = (), dealer: str | int | None = None,
                  options: Mapping[str, str] | None = None) -> ToyConfig:
        names = check_players(players, (2,), rule="T1", game="the toy game")
        words_given = [str(v).strip() for v in variants if str(v).strip()]
        if words_given:
            raise ConfigError(f"the toy game has no variants (not {', '.join(words_given)})", rule="T1",
                              tag="Variant")
        sides, side_of = solo_sides(2)
        return ToyConfig("toy", names, dealer_seat(names, dealer), sides, side_of)

    @classmethod
    def initial_state(cls, config: ToyConfig) -> State:
        return State(config, Phase.DEAL, 1, config.first_dealer, (frozenset(), frozenset()), 1,
                     config.left_of(config.first_dealer), (), (0, 0), (0, 0))

    @classmethod
    def legal_moves(cls, state: State) -> tuple[PlayCard, ...]:
        seat = state.to_move
        if seat is None:
            return ()
        hand = state.hand(seat)
        if state.trick:  # T4
            follow = tuple(c for c in hand if c.suit is state.trick[0][1].suit)
            hand = follow or hand
        return tuple(PlayCard(card) for card in hand)

    @classmethod
    def apply(cls, state: State, move: Deal | PlayCard) -> tuple[State, tuple[object, ...]]:
        return apply(state, move)

    @classmethod
    def is_over(cls, state: State) -> bool:
        return state.is_over

    @classmethod
    def to_move(cls, state: State) -> int | None:
        return state.to_move

    @classmethod
    def standings(cls, state: State) -> tuple[SideResult, ...]:
        return standings(state)

    @classmethod
    def random_move(cls, state: State, rng: random.Random) -> Deal | PlayCard:
        if state.phase is Phase.DEAL:
            return trick.random_deal(state.config, rng)
        legal = cls.legal_moves(state)
        if not legal:
            raise errors.GameOver("the game is over: no move is possible", rule="T7")
        return rng.choice(legal)

    @classmethod
    def move_text(cls, state: State, move: Deal | PlayCard) -> str:
        return trick.move_text(state.config, move)

    @classmethod
    def parse_move(cls, state: State, text: str) -> Deal | PlayCard:
        return trick.parse_move(state.config, text, dealing=state.phase is Phase.DEAL)

    @classmethod
    def first_leader(cls, config: ToyConfig, dealer: int) -> int:
        return config.left_of(dealer)  # T3

    @classmethod
    def trick_winner(cls, config: ToyConfig, leader: int, cards: Iterable[AnyCard]) -> int:
        return trick_winner(leader, cards)  # T5


# --------------------------------------------------------------------------- the invariants part (the conformance suite's)
# Worked out from the rulings again (not from DECK or the engine): what the suite checks after every move.

#: T2: the 1, 2 and 3 of each suit; T3: six tricks of two cards a round; T6: a point a trick; T7: two rounds.
PACK = frozenset(f"{rank}{suit}" for rank in (1, 2, 3) for suit in "DHSC")
TRICKS = 6
ROUNDS = 2


def _max_moves(config: Any) -> int:
    return ROUNDS * (1 + len(PACK))  # the deal and every card, each round


def _state(state: Any) -> None:
    held = [str(card) for hand in state.hands for card in hand]
    on_table = [str(card) for _, card in state.trick]
    assert len(set(held + on_table)) == len(held + on_table) and set(held + on_table) <= PACK, "T2: the pack"
    done = sum(state.won)  # tricks finished this round
    if state.phase.value == "play":
        # T2, T3: twelve cards dealt, two a trick played since.
        assert len(held) + len(on_table) + 2 * done == len(PACK), f"T2: {held} {on_table} after {done} tricks"
        assert sum(state.totals) == TRICKS * (state.round_no - 1), "T6: a point a trick of each round before"
    elif state.phase.value == "game over":
        assert not held and sum(state.totals) == TRICKS * ROUNDS, "T6, T7: two rounds of six points"


def _step(before: Any, move: Any, after: Any, events: tuple[Any, ...]) -> None:
    if before.phase.value == "play" and len(before.trick) == 1:
        # T5, worked out again: the higher card of the led suit wins, and leads next.
        (leader, led), (_, card) = before.trick[0], (before.to_move, move.card)
        winner = leader if card.suit is not led.suit or card.rank < led.rank else before.to_move
        if after.phase.value == "play" and after.round_no == before.round_no:
            assert after.leader == winner and after.won[winner] == before.won[winner] + 1, "T5: the winner leads"
        else:  # the round's last trick: its six points go to the totals (T6)
            gained = [now - then for now, then in zip(after.totals, before.totals)]
            assert gained == [won + (seat == winner) for seat, won in enumerate(before.won)], "T6: the round scored"


def _final(state: Any, standings: tuple[Any, ...]) -> None:
    best = max(state.totals)
    assert [s.score for s in standings] == list(state.totals)
    assert [s.winner for s in standings] == [total == best for total in state.totals], "T7: the winners"


INVARIANTS = FamilyInvariants(max_moves=_max_moves, state=_state, step=_step, final=_final)

__all__ = ["INVARIANTS", "Toy", "ToyConfig", "DECK", "Phase", "State", "trick_winner", "standings", "apply"]
