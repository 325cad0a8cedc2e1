"""Alan Kirk's four-player Diamonds: the legal moves and the effect of each move.

`apply(state, move)` is a pure function: it checks the move completely, then
returns the next `State` and the events the move caused. Ruling ids (K1…)
mark where a ruling decides what happens.
"""

from __future__ import annotations

import random
from dataclasses import replace

from diamonds.core.cards import AnyCard, Card, sort_cards
from diamonds.core.errors import CardNotHeld, CardNotInDeck, CardTwice, GameOver, InvalidDeal, WrongPhase
from diamonds.core.trick import CARD_MOVES

from .config import KirkConfig
from .events import (
    CardPlayed,
    CardsDealt,
    DecidedBy,
    Event,
    GameEnded,
    HandScored,
    HandStarted,
    KirkResult,
    TieBroken,
    TrickWon,
)
from .moves import Deal, Move, PlayCard
from .rules import card_value, first_leader, pile_points, trick_winner
from .state import Phase, State

__all__ = ["initial_state", "legal_moves", "apply", "standings", "random_move", "random_deal", "deck_text"]


# --------------------------------------------------------------------------- start and standings


def initial_state(config: KirkConfig) -> State:
    """Before hand 1's deal: empty hands and piles, every total 0."""
    return _before_deal(config, 1, (0,) * config.player_count)


def _before_deal(config: KirkConfig, hand_no: int, totals: tuple[int, ...]) -> State:
    """Before hand `hand_no`'s deal (its dealer by K2): empty hands and piles, the totals so far."""
    n = config.player_count
    dealer = config.dealer_of_round(hand_no)
    return State(
        config=config,
        phase=Phase.DEAL,
        hand_no=hand_no,
        dealer=dealer,
        hands=tuple(frozenset() for _ in range(n)),
        trick_no=1,
        leader=first_leader(config, dealer),
        trick=(),
        piles=((),) * n,
        totals=totals,
    )


def standings(state: State) -> tuple[KirkResult, ...]:
    """K8: the totals now; the highest total wins, and players tied on it share the win."""
    best = max(state.totals)
    return tuple([KirkResult(seat, total, total == best) for seat, total in enumerate(state.totals)])


# --------------------------------------------------------------------------- legal and random moves


def legal_moves(state: State) -> tuple[Move, ...]:
    """K4: any card held may be played. The deal is a chance move and is not listed."""
    seat = state.to_move
    if seat is None:
        return ()
    return tuple([CARD_MOVES[card] for card in state.hand(seat)])  # each card's one move (the house's table)


def random_deal(config: KirkConfig, rng: random.Random) -> Deal:
    """K2: the shuffled pack, 13 cards to each player (each hand in display order, as a record writes it)."""
    pack = list(config.deck)
    rng.shuffle(pack)
    size = config.hand_size
    return Deal(tuple(sort_cards(pack[seat * size:(seat + 1) * size]) for seat in range(config.player_count)))


def random_move(state: State, rng: random.Random) -> Move:
    """A random deal at a deal, else a card drawn at random from the hand of the player to move."""
    if state.phase is Phase.DEAL:
        return random_deal(state.config, rng)
    seat = state.to_move
    if seat is None:
        raise GameOver(_over_text(state, "another move"), rule="K8")
    return PlayCard(rng.choice(state.hand(seat)))  # sorted, so that a seed replays the same game


# --------------------------------------------------------------------------- apply


def apply(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """Check `move` against `state` and return the next state and the events it caused."""
    if isinstance(move, PlayCard):
        return _play(state, move.card)
    if isinstance(move, Deal):
        return _deal(state, move.hands)
    raise TypeError(f"not a move of Kirk's Diamonds: {move!r}")


def _expect(state: State, phase: Phase, doing: str) -> None:
    if state.phase is phase:
        return
    if state.phase is Phase.GAME_OVER:
        raise GameOver(_over_text(state, doing), rule="K8")
    names = state.config.players
    if state.phase is Phase.DEAL:
        raise WrongPhase(f"{doing} is not due now: hand {state.hand_no} has not been dealt", rule="K2")
    seat = state.to_move
    assert seat is not None
    raise WrongPhase(f"{doing} is not due now: {names[seat]} must play a card "
                     f"(hand {state.hand_no}, trick {state.trick_no})", rule="K4", seat=seat)


def _over_text(state: State, doing: str) -> str:
    config = state.config
    if config.target is not None:
        leaders = [config.players[seat] for seat, total in enumerate(state.totals) if total >= config.target]
        why = f"{' and '.join(leaders)} reached {config.target}"
    else:
        why = f"all {config.hands} hands are played"
    return f"the game is over ({why}): {doing} is not possible"


def deck_text(config: KirkConfig) -> str:
    """The pack in words, for a card of no pack (K2)."""
    return f"Kirk's Diamonds uses the standard {len(config.deck)}-card pack, 2-10, J, Q, K, A of each suit"


# --------------------------------------------------------------------------- the deal


def _deal(state: State, hands: tuple[tuple[AnyCard, ...], ...]) -> tuple[State, tuple[Event, ...]]:
    """K2: 13 different cards of the pack to each player; the dealer's left neighbour then leads (K4)."""
    _expect(state, Phase.DEAL, "a deal")
    config = state.config
    names = config.players
    n = config.player_count
    if len(hands) != n:
        raise InvalidDeal(f"a deal gives hands to {n} players, not {len(hands)}", rule="K2",
                          expected=n, found=len(hands))
    for seat, hand in enumerate(hands):
        if len(hand) != config.hand_size:
            raise InvalidDeal(f"{names[seat]} is dealt {len(hand)} cards, not {config.hand_size}", rule="K2",
                              seat=seat, expected=config.hand_size, found=len(hand))
    in_deck = frozenset(config.deck)
    dealt_to: dict[Card, int] = {}
    for seat, hand in enumerate(hands):
        for card in hand:
            if not isinstance(card, Card) or card not in in_deck:
                raise CardNotInDeck(f"{card} is dealt to {names[seat]}, but it is not in the pack "
                                    f"({deck_text(config)})", rule="K2", seat=seat, card=card)
            if card in dealt_to:
                first = dealt_to[card]
                whom = f"twice to {names[seat]}" if first == seat else f"to {names[first]} and to {names[seat]}"
                raise CardTwice(f"{card} is dealt {whom}", rule="K2", seat=seat, card=card)
            dealt_to[card] = seat
    held: tuple[frozenset[Card], ...] = tuple(
        frozenset(card for card in hand if isinstance(card, Card)) for hand in hands
    )
    events: tuple[Event, ...] = (
        HandStarted(state.hand_no, state.dealer),
        CardsDealt(state.hand_no, tuple(sort_cards(hand) for hand in held)),
    )
    after = replace(
        state,
        phase=Phase.PLAY,
        hands=held,
        trick_no=1,
        leader=first_leader(config, state.dealer),  # K4
        trick=(),
        piles=((),) * n,  # K6: piles start empty every hand
    )
    return after, events


# --------------------------------------------------------------------------- play


def _play(state: State, card: AnyCard) -> tuple[State, tuple[Event, ...]]:
    """K4: the player to move plays any card they hold; the fourth card decides the trick (K5)."""
    _expect(state, Phase.PLAY, f"playing {card}")
    config = state.config
    names = config.players
    seat = state.to_move
    assert seat is not None
    if not isinstance(card, Card) or card not in config.deck:
        raise CardNotInDeck(f"{names[seat]} cannot play {card}: it is not in the pack ({deck_text(config)})",
                            rule="K2", seat=seat, card=card)
    if card not in state.hands[seat]:
        raise CardNotHeld(f"{names[seat]} does not hold {card} ({_whereabouts(state, card)})",
                          rule="K4", seat=seat, card=card)
    hands = tuple(hand - {card} if s == seat else hand for s, hand in enumerate(state.hands))
    trick = state.trick + ((seat, card),)
    events: list[Event] = [CardPlayed(seat, card, state.trick_no, not state.trick, card_value(card))]
    if len(trick) < config.plays_per_trick:
        return state.with_trick(hands, state.trick_no, state.leader, trick, state.piles), tuple(events)

    # K5: the trick is complete; K6: its cards go on top of the winner's pile, in play order.
    winner, tie = trick_winner(trick, state.piles)
    won = tuple(c for _, c in trick)
    if tie.decided_by is not DecidedBy.HIGHEST:
        events.append(TieBroken(state.trick_no, winner, tie.tied, tie.decided_by, tie.depth, tie.steps))
    events.append(TrickWon(state.trick_no, winner, dict(trick)[winner], won, tie.tied, tie.decided_by, tie.depth))
    piles = tuple(pile + won if s == winner else pile for s, pile in enumerate(state.piles))
    if state.trick_no < config.tricks_per_hand:
        # K4: the winner leads the next trick.
        after = state.with_trick(hands, state.trick_no + 1, winner, (), piles)
        return after, tuple(events)
    return _end_of_hand(state.with_trick(hands, state.trick_no, winner, (), piles), events)


def _whereabouts(state: State, card: Card) -> str:
    """Where a card not in the mover's hand is, for the message."""
    names = state.config.players
    holder = state.holder(card)
    if holder is not None:
        return f"{names[holder]} holds it"
    for seat, played in state.trick:
        if played is card:
            return f"{names[seat]} played it to this trick"
    for seat, pile in enumerate(state.piles):
        if card in pile:
            return f"it is in {names[seat]}'s scoring pile"
    return "nobody holds it"


def _end_of_hand(state: State, events: list[Event]) -> tuple[State, tuple[Event, ...]]:
    """K7: each pile scores and adds to its player's total; K8: the game ends, or the next hand is dealt."""
    config = state.config
    points = tuple(pile_points(pile) for pile in state.piles)
    totals = tuple(total + p for total, p in zip(state.totals, points))
    events.append(HandScored(state.hand_no, points, totals))
    if config.target is not None:
        over = max(totals) >= config.target
    else:
        assert config.hands is not None
        over = state.hand_no >= config.hands
    if over:
        # The last hand's piles stay for show; the totals include them.
        final = replace(state, phase=Phase.GAME_OVER, totals=totals)
        events.append(GameEnded(standings(final)))
        return final, tuple(events)
    return _before_deal(config, state.hand_no + 1, totals), tuple(events)  # K2: the deal moves one seat left
