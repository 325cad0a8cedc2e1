"""Three-handed bidding Diamonds: the legal moves and the effect of each move.

`apply(state, move)` is a pure function: it checks the move completely,
then returns the next state and the events the move caused. Ruling ids
(B1…) mark where a ruling decides what happens.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Final, TypeVar

from diamonds.core.cards import SUITS, AnyCard, Card, Joker, Suit, sort_cards, spellings
from diamonds.core.errors import (
    CardNotHeld,
    CardNotInDeck,
    CardTwice,
    GameOver,
    InvalidDeal,
    MustFollowSuit,
    OutOfTurn,
    WrongPhase,
)

from .config import FORBIDDEN_TOTAL, GAME_END_HIGH, GAME_END_LOW, MAX_BID, BiddingConfig
from .deck import DECK, TRUMPS, choices_needed, in_suit_strength, point_value
from .errors import BadBid, ChoiceNotAllowed, FinalBidMove, ForbiddenTotal, MissingChoice, NotInKitty
from .events import (
    BiddingResult,
    BidMade,
    CardPlayed,
    CardsDealt,
    CardTaken,
    Event,
    FinalBidMade,
    GameEnded,
    HandScored,
    HandStarted,
    SeatScore,
    TrickWon,
    WinReason,
)
from .moves import Bid, Deal, FinalBid, Move, PlayCard, TakeFromKitty
from .state import BiddingState, Phase, Played

__all__ = [
    "initial_state", "legal_moves", "apply", "standings", "standings_of", "trick_winner", "TrickBar",
    "trick_bar", "takes_trick", "playable_cards",
    "playable_in", "playable_unordered", "play_choices", "play_moves", "bid_range", "final_bid_range", "game_ends",
]

_DECK_SET: Final[frozenset[AnyCard]] = frozenset(DECK)
#: The ruling that says what is due in each phase (for `WrongPhase`).
_PHASE_RULE: Final = {Phase.DEAL: "B2", Phase.BID: "B3", Phase.TAKE: "B4", Phase.FINAL: "B5", Phase.PLAY: "B6"}

Result = tuple[BiddingState, tuple[Event, ...]]
_T = TypeVar("_T")


# ---------------------------------------------------------------- set-up


def initial_state(config: BiddingConfig) -> BiddingState:
    """Before hand 1's deal: every total 0 (B9), the first dealer from the record (B2)."""
    return _fresh_hand(config, hand_no=1, dealer=config.first_dealer, scores=(0,) * config.player_count)


def _fresh_hand(config: BiddingConfig, *, hand_no: int, dealer: int, scores: tuple[int, ...]) -> BiddingState:
    n = config.player_count
    return BiddingState(
        config=config,
        phase=Phase.DEAL,
        hand_no=hand_no,
        dealer=dealer,
        scores=scores,
        hands=(frozenset(),) * n,
        kitty=(),
        bids=(None,) * n,
        taken=(None,) * n,
        point_cards=(None,) * n,
        final_bids=(None,) * n,
        trick_no=1,
        leader=config.left_of(dealer),  # B6
        trick=(),
        tricks_won=(0,) * n,
    )


# ---------------------------------------------------------------- what is legal


def bid_range(state: BiddingState, seat: int) -> tuple[int, ...]:
    """B3: 0..10, leaving out the dealer's amount that would make the total exactly 10."""
    forbidden = forbidden_amount(state.dealer, seat, state.bids)
    return tuple(amount for amount in range(MAX_BID + 1) if amount != forbidden)


def final_bid_range(state: BiddingState, seat: int) -> tuple[int, ...]:
    """B5: the bid, one less or one more, within 0..10; the dealer may not make the total 10."""
    bid = state.bids[seat]
    assert bid is not None
    forbidden = forbidden_amount(state.dealer, seat, state.final_bids)
    return tuple(a for a in (bid - 1, bid, bid + 1) if 0 <= a <= MAX_BID and a != forbidden)


def forbidden_amount(dealer: int, seat: int, bids: Sequence[int | None]) -> int | None:
    """The one amount the dealer may not bid, given the others' bids so far (B3, B5); None for the others."""
    if seat != dealer:
        return None
    return FORBIDDEN_TOTAL - sum(b for s, b in enumerate(bids) if s != seat and b is not None)


def playable_cards(state: BiddingState) -> tuple[AnyCard, ...]:
    """B6: the cards the seat to play may play, in display order (`playable_in` its hand)."""
    seat = state.to_move
    if state.phase is not Phase.PLAY or seat is None:
        return ()
    return playable_in(state.hands[seat], state.led_suit)


#: Every card's suit (of any deck), the Joker's None: whether a card follows is one lookup.
_SUIT_OF: Final[dict[AnyCard, Suit | None]] = {
    card: card.suit if isinstance(card, Card) else None for card in spellings().values()}


def playable_in(hand: Collection[AnyCard], led: Suit | None) -> tuple[AnyCard, ...]:
    """B6: the cards of `hand` that may be played to a trick led in `led` (None: to lead), in display order."""
    return sort_cards(playable_unordered(hand, led))


def playable_unordered(hand: Collection[AnyCard], led: Suit | None) -> Collection[AnyCard]:
    """`playable_in`'s cards in no order (the greedy rollouts weigh them without sorting a hand at every card).

    Holding a card of the led suit, a player must play one or the Joker
    (which belongs to no suit in the hand); otherwise any card.
    """
    if led is not None:
        suit_of = _SUIT_OF
        following = [c for c in hand if suit_of[c] is led]
        if following:
            following += [c for c in hand if suit_of[c] is None]
            return following
    return hand


def _choices_of(card: AnyCard) -> tuple[PlayCard, ...]:
    needs_high, needs_suit = choices_needed(card)
    if needs_suit:
        return tuple(PlayCard(card, high, suit) for suit in SUITS for high in (True, False))
    if needs_high:
        return (PlayCard(card, True), PlayCard(card, False))
    return (PlayCard(card),)


#: `play_choices` of each card asked for, made once (moves are frozen values).
_CHOICES: Final[dict[AnyCard, tuple[PlayCard, ...]]] = {}


def play_choices(card: AnyCard) -> tuple[PlayCard, ...]:
    """B7: every way to play `card`: an ace high or low; the Joker in each suit, high or low.

    A led Joker's given suit becomes the led suit, so leading or not, all
    eight Joker plays are open.
    """
    found = _CHOICES.get(card)
    if found is None:
        found = _CHOICES[card] = _choices_of(card)
    return found


def play_moves(hand: Collection[AnyCard], led: Suit | None) -> tuple[PlayCard, ...]:
    """B6, B7: every play of `hand` to a trick led in `led`, in `legal_moves`' order."""
    moves: list[PlayCard] = []
    for card in playable_in(hand, led):
        moves += play_choices(card)
    return tuple(moves)


def legal_moves(state: BiddingState) -> tuple[Move, ...]:
    """Every legal decision now; none at a deal (a chance move) or once the game is over."""
    seat = state.to_move
    if seat is None:
        return ()
    phase = state.phase
    if phase is Phase.PLAY:
        return play_moves(state.hands[seat], state.led_suit)
    if phase is Phase.BID:
        return tuple(Bid(seat, amount) for amount in bid_range(state, seat))
    if phase is Phase.TAKE:
        hand = state.hands[seat]
        return tuple(
            TakeFromKitty(seat, card, point) for card in state.kitty for point in sort_cards(hand | {card})
        )
    if phase is Phase.FINAL:
        return tuple(FinalBid(seat, amount) for amount in final_bid_range(state, seat))
    return ()


# ---------------------------------------------------------------- the trick


#: B8: `in_suit_strength` of every card (of any deck: a trick as written may hold any), played low and
#: otherwise, looked up by `trick_winner`, which never asks it of a high Joker (that wins outright).
_STRENGTH: Final[dict[AnyCard, int]] = {card: in_suit_strength(card, None) for card in spellings().values()}
_LOW_STRENGTH: Final[dict[AnyCard, int]] = {card: in_suit_strength(card, False) for card in spellings().values()}


def trick_winner(plays: Sequence[Played]) -> tuple[int, WinReason]:
    """B8: the index in `plays` of the winning card, and why it wins.

    A high Joker wins. Otherwise, if a Diamond was played (a Joker given
    Diamonds is one), the highest Diamond wins; otherwise the highest card
    of the led suit. Within a suit, low to high: a low Joker, a low ace,
    7 … K, a high ace. There is one Joker, so at most one high Joker.
    One pass over the trick: the strongest trump and the strongest card of
    the led suit so far (the first of equals).
    """
    led = plays[0].suit
    trump = follow = -1
    trump_strength = follow_strength = -1
    for index, play in enumerate(plays):
        card, high, suit = play.card, play.high, play.suit
        if high and isinstance(card, Joker):
            return index, WinReason.HIGH_JOKER
        if suit is TRUMPS:
            strength = (_LOW_STRENGTH if high is False else _STRENGTH)[card]  # in_suit_strength(card, high)
            if strength > trump_strength:
                trump, trump_strength = index, strength
        elif suit is led and trump < 0:
            strength = (_LOW_STRENGTH if high is False else _STRENGTH)[card]
            if strength > follow_strength:
                follow, follow_strength = index, strength
    if trump >= 0:
        return trump, WinReason.TRUMP
    return follow, WinReason.LED_SUIT


#: What a play must beat to take a trick so far (`trick_bar`): None once a high Joker is in it (nothing can,
#: B8); else the led suit (None before the lead), the strongest trump's strength and the strongest strength
#: of the led suit before any trump (-1: none).
TrickBar = tuple[Suit | None, int, int] | None


def trick_bar(plays: Sequence[Played]) -> TrickBar:
    """B8: what a play added to `plays` must beat to take the trick (`takes_trick`), one pass for all the
    plays a player weighs: `trick_winner`'s pass, keeping strengths rather than places."""
    led = plays[0].suit if plays else None
    trump_strength = follow_strength = -1
    for play in plays:
        card, high, suit = play.card, play.high, play.suit
        if high and isinstance(card, Joker):
            return None
        if suit is TRUMPS:
            strength = (_LOW_STRENGTH if high is False else _STRENGTH)[card]
            if strength > trump_strength:
                trump_strength = strength
        elif suit is led and trump_strength < 0:
            strength = (_LOW_STRENGTH if high is False else _STRENGTH)[card]
            if strength > follow_strength:
                follow_strength = strength
    return led, trump_strength, follow_strength


def takes_trick(bar: TrickBar, play: Played) -> bool:
    """B8: whether `play`, added to the trick whose `trick_bar` is `bar`, would win it as it stands
    (`trick_winner` would name it): a high Joker; a lead; a trump stronger than any before; a card of the
    led suit stronger than any before, while no trump is in the trick. The first of equals keeps the trick."""
    if bar is None:
        return False
    card, high, suit = play.card, play.high, play.suit
    if high and isinstance(card, Joker):
        return True
    led, trump_strength, follow_strength = bar
    if led is None:
        return True
    if suit is TRUMPS:
        return (_LOW_STRENGTH if high is False else _STRENGTH)[card] > trump_strength
    return (suit is led and trump_strength < 0
            and (_LOW_STRENGTH if high is False else _STRENGTH)[card] > follow_strength)


# ---------------------------------------------------------------- results


def game_ends(scores: Sequence[int]) -> bool:
    """B10: some total is 100 or more, or -100 or less."""
    return any(score >= GAME_END_HIGH or score <= GAME_END_LOW for score in scores)


def standings_of(scores: Sequence[int]) -> tuple[BiddingResult, ...]:
    """B10: the highest total wins; players tied on it share the win."""
    best = max(scores)
    return tuple([BiddingResult(seat, score, score == best) for seat, score in enumerate(scores)])


def standings(state: BiddingState) -> tuple[BiddingResult, ...]:
    """The totals now, by seat; `winner` marks the leaders (final once the game is over)."""
    return standings_of(state.scores)


# ---------------------------------------------------------------- apply


def apply(state: BiddingState, move: Move) -> Result:
    """Pure: the next state and the events `move` caused, or an `IllegalMove` (nothing changes)."""
    if isinstance(move, PlayCard):
        return _play(state, move)
    if isinstance(move, Bid):
        return _bid(state, move)
    if isinstance(move, TakeFromKitty):
        return _take(state, move)
    if isinstance(move, FinalBid):
        return _final_bid(state, move)
    if isinstance(move, Deal):
        return _deal(state, move)
    raise TypeError(f"not a move of three-handed bidding Diamonds: {move!r}")


def _name(state: BiddingState, seat: int | None) -> str:
    players = state.config.players
    if seat is not None and 0 <= seat < len(players):
        return players[seat]
    return f"seat {seat}"


def _expect(state: BiddingState, phase: Phase, doing: str, seat: int | None) -> None:
    if state.phase is phase:
        return
    if state.phase is Phase.GAME_OVER:
        raise GameOver(f"the game is over after hand {state.hand_no}: {doing} is not possible", rule="B10",
                       seat=seat)
    raise WrongPhase(f"{doing} is not due now: {_describe(state)}", rule=_PHASE_RULE[state.phase], seat=seat)


def _describe(state: BiddingState) -> str:
    phase = state.phase
    who = _name(state, state.to_move)
    if phase is Phase.DEAL:
        return f"hand {state.hand_no} has not been dealt"
    if phase is Phase.BID:
        return f"{who} must bid"
    if phase is Phase.TAKE:
        return f"{who} must take a card from the kitty"
    if phase is Phase.FINAL:
        return f"{who} must make a final bid"
    if phase is Phase.PLAY:
        return f"{who} must play a card (trick {state.trick_no})"
    return "the game is over"


def _check_turn(state: BiddingState, seat: int, doing: str, rule: str) -> int:
    due = state.to_move
    if seat != due:
        raise OutOfTurn(f"{_name(state, seat)} cannot {doing} now: it is {_name(state, due)}'s turn", rule=rule,
                        seat=seat)
    return seat


def _check_in_deck(state: BiddingState, card: AnyCard, seat: int | None) -> None:
    if card not in _DECK_SET:
        raise CardNotInDeck(f"{card} is not a card of this game's pack (7 to A in each suit, and the Joker)",
                            rule="B2", seat=seat, card=card)


def _check_amount(state: BiddingState, seat: int, amount: int, rule: str, what: str) -> None:
    if not 0 <= amount <= MAX_BID or isinstance(amount, bool):
        raise BadBid(f"{_name(state, seat)} {what} {amount}: a bid is 0 to {MAX_BID} tricks", rule=rule, seat=seat,
                     found=amount)


def _check_total(state: BiddingState, seat: int, amount: int, bids: tuple[int | None, ...], rule: str,
                 what: str) -> None:
    forbidden = forbidden_amount(state.dealer, seat, bids)
    if amount == forbidden:
        others = FORBIDDEN_TOTAL - forbidden
        raise ForbiddenTotal(
            f"{_name(state, seat)} (dealer) may not {what} {amount}: with the others' {others} the total "
            f"would be exactly {FORBIDDEN_TOTAL}",
            rule=rule, seat=seat, found=amount, others=others,
        )


def _deal(state: BiddingState, move: Deal) -> Result:
    """B2: ten cards to each seat and three to the kitty: the whole 33-card pack."""
    _expect(state, Phase.DEAL, "a deal", None)
    config = state.config
    n = config.player_count
    if len(move.hands) != n:
        raise InvalidDeal(f"a deal gives hands to {n} players, not {len(move.hands)}", rule="B2", expected=n,
                          found=len(move.hands))
    for seat, hand in enumerate(move.hands):
        if len(hand) != config.hand_size:
            raise InvalidDeal(f"{_name(state, seat)} is dealt {len(hand)} cards, not {config.hand_size}",
                              rule="B2", seat=seat, expected=config.hand_size, found=len(hand))
    if len(move.kitty) != config.kitty_size:
        raise InvalidDeal(f"the kitty is dealt {len(move.kitty)} cards, not {config.kitty_size}", rule="B2",
                          expected=config.kitty_size, found=len(move.kitty))
    seen: set[AnyCard] = set()
    placed: list[tuple[int | None, tuple[AnyCard, ...]]] = [*enumerate(move.hands), (None, move.kitty)]
    for where, cards in placed:  # None: the kitty
        for card in cards:
            _check_in_deck(state, card, where)
            if card in seen:
                raise CardTwice(f"{card} is dealt twice", rule="B2", seat=where, card=card)
            seen.add(card)
    hands = tuple(frozenset(hand) for hand in move.hands)
    events: tuple[Event, ...] = (
        HandStarted(state.hand_no, state.dealer),
        CardsDealt(state.hand_no, tuple(sort_cards(hand) for hand in hands), tuple(move.kitty)),
    )
    return replace(state, phase=Phase.BID, hands=hands, kitty=tuple(move.kitty)), events


def _bid(state: BiddingState, move: Bid) -> Result:
    """B3: in turn from the dealer's left, 0..10; the dealer, last, may not make the total 10."""
    _expect(state, Phase.BID, "a bid", move.seat)
    seat = _check_turn(state, move.seat, "bid", "B3")
    _check_amount(state, seat, move.amount, "B3", "bids")
    _check_total(state, seat, move.amount, state.bids, "B3", "bid")
    bids = _set(state.bids, seat, move.amount)
    phase = Phase.TAKE if None not in bids else Phase.BID
    return replace(state, phase=phase, bids=bids), (BidMade(seat, move.amount),)


def _take(state: BiddingState, move: TakeFromKitty) -> Result:
    """B4: take one kitty card, then lay a point card from the hand (possibly the card just taken)."""
    _expect(state, Phase.TAKE, "taking from the kitty", move.seat)
    seat = _check_turn(state, move.seat, "take from the kitty", "B4")
    card, point = move.card, move.point
    _check_in_deck(state, card, seat)
    _check_in_deck(state, point, seat)
    if card not in state.kitty:
        raise NotInKitty(f"{_name(state, seat)} cannot take {card}: the kitty holds "
                         f"{' '.join(map(str, state.kitty))}", seat=seat, card=card, cards=state.kitty)
    held = state.hands[seat] | {card}
    if point not in held:
        raise CardNotHeld(f"{_name(state, seat)} cannot lay {point} as point card: it is not in their hand",
                          rule="B4", seat=seat, card=point)
    hands = _set(state.hands, seat, held - {point})
    kitty = tuple(c for c in state.kitty if c is not card)
    point_cards = _set(state.point_cards, seat, point)
    phase = Phase.FINAL if None not in point_cards else Phase.TAKE
    new = replace(state, phase=phase, hands=hands, kitty=kitty, taken=_set(state.taken, seat, card),
                  point_cards=point_cards)
    return new, (CardTaken(seat, card, point),)


def _final_bid(state: BiddingState, move: FinalBid) -> Result:
    """B5: the bid, one more or one less, within 0..10; the dealer may not make the total 10."""
    _expect(state, Phase.FINAL, "a final bid", move.seat)
    seat = _check_turn(state, move.seat, "make a final bid", "B5")
    amount = move.amount
    _check_amount(state, seat, amount, "B5", "makes a final bid of")
    bid = state.bids[seat]
    assert bid is not None
    if abs(amount - bid) > 1:
        raise FinalBidMove(f"{_name(state, seat)} bid {bid}: the final bid may only be {bid - 1}, {bid} or "
                           f"{bid + 1}, not {amount}", seat=seat, expected=bid, found=amount)
    _check_total(state, seat, amount, state.final_bids, "B5", "make a final bid of")
    final_bids = _set(state.final_bids, seat, amount)
    event = FinalBidMade(seat, amount, amount - bid)
    if None in final_bids:
        return replace(state, final_bids=final_bids), (event,)
    # B6: the dealer's left neighbour leads the first trick.
    new = replace(state, phase=Phase.PLAY, final_bids=final_bids, trick_no=1,
                  leader=state.config.left_of(state.dealer), trick=())
    return new, (event,)


def _play(state: BiddingState, move: PlayCard) -> Result:
    """B6, B7: a card of the hand, with its choices; the led suit must be followed, the Joker never revokes."""
    seat = state.to_move
    _expect(state, Phase.PLAY, "playing a card", seat)
    assert seat is not None
    card = move.card
    _check_in_deck(state, card, seat)
    hand = state.hands[seat]
    if card not in hand:
        raise CardNotHeld(f"{_name(state, seat)} does not hold {card}", rule="B6", seat=seat, card=card)
    _check_choices(state, seat, move)
    led = state.led_suit
    suit: Suit
    if isinstance(card, Card):
        suit = card.suit
        if led is not None and suit is not led:
            following = sort_cards(c for c in hand if isinstance(c, Card) and c.suit is led)
            if following:
                raise MustFollowSuit(
                    f"{_name(state, seat)} must follow {led.title} (holds {' '.join(map(str, following))})",
                    rule="B6", seat=seat, card=card, cards=following,
                )
    else:
        assert move.suit is not None
        suit = move.suit  # B7: the Joker's given suit; led, it is the led suit
    played = Played(seat, card, move.high, suit)
    trick = state.trick + (played,)
    events: list[Event] = [
        CardPlayed(seat, card, state.trick_no, led is None, move.high, suit, led is None or suit is led),
    ]
    new = state.with_trick(_set(state.hands, seat, hand - {card}), state.trick_no, state.leader, trick, state.tricks_won)
    if len(trick) < state.config.plays_per_trick:
        return new, tuple(events)
    return _end_trick(new, events)


def _check_choices(state: BiddingState, seat: int, move: PlayCard) -> None:
    """B7: high/low on an ace or the Joker, and a suit on the Joker; nothing on other cards."""
    card = move.card
    needs_high, needs_suit = choices_needed(card)
    name = _name(state, seat)
    if needs_suit and (move.suit is None or move.high is None):
        missing = " and ".join(
            what for what, absent in (("a suit", move.suit is None), ("high or low", move.high is None)) if absent
        )
        raise MissingChoice(f"{name} must give the Joker {missing}", seat=seat, card=card)
    if needs_high and move.high is None:
        raise MissingChoice(f"{name} must play {card} high or low", seat=seat, card=card)
    if not needs_high and move.high is not None:
        raise ChoiceNotAllowed(f"{card} is played neither high nor low: only an ace or the Joker is", seat=seat,
                               card=card)
    if not needs_suit and move.suit is not None:
        raise ChoiceNotAllowed(f"{card} cannot be given a suit: only the Joker is", seat=seat, card=card)


def _end_trick(state: BiddingState, events: list[Event]) -> Result:
    """B8: the winner takes the trick and leads the next; after the tenth, the hand is scored."""
    trick = state.trick
    index, why = trick_winner(trick)
    winner = trick[index].seat
    events.append(TrickWon(state.trick_no, winner, trick[index].card, tuple(p.card for p in trick), why))
    tricks_won = _set(state.tricks_won, winner, state.tricks_won[winner] + 1)
    if state.trick_no < state.config.tricks_per_hand:
        new = state.with_trick(state.hands, state.trick_no + 1, winner, (), tricks_won)
        return new, tuple(events)
    return _score_hand(state.with_trick(state.hands, state.trick_no, winner, (), tricks_won), events)


def hand_points(final_bids: Sequence[int | None], point_cards: Sequence[AnyCard | None],
                tricks_won: Sequence[int]) -> list[int]:
    """B9, by seat: exactly the final bid adds the point card's value, anything else subtracts it."""
    points = []
    for final, point, tricks in zip(final_bids, point_cards, tricks_won):
        assert final is not None and point is not None
        value = point_value(point)
        points.append(value if tricks == final else -value)
    return points


def _score_hand(state: BiddingState, events: list[Event]) -> Result:
    """B9: the hand's points (`hand_points`) added to the totals; then B10."""
    points = hand_points(state.final_bids, state.point_cards, state.tricks_won)
    totals = tuple(score + p for score, p in zip(state.scores, points))
    seats = []
    for seat, (final, point) in enumerate(zip(state.final_bids, state.point_cards)):
        assert final is not None and point is not None
        seats.append(SeatScore(seat, final, state.tricks_won[seat], point, points[seat], totals[seat]))
    events.append(HandScored(state.hand_no, tuple(seats)))
    if game_ends(totals):
        # The last hand's facts stay in the final state, for a view of the end.
        events.append(GameEnded(standings_of(totals)))
        return replace(state, phase=Phase.GAME_OVER, scores=totals), tuple(events)
    config = state.config
    # B2: the deal moves one seat left.
    return _fresh_hand(config, hand_no=state.hand_no + 1, dealer=config.left_of(state.dealer),
                       scores=totals), tuple(events)


def _set(values: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return values[:index] + (value,) + values[index + 1:]
