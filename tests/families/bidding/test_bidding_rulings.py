"""Three-handed bidding Diamonds, ruling by ruling (B1-B10), with expectations worked out by hand.

Seats: Ann 0, Bob 1, Cat 2; Ann deals hand 1, so the turn order of bids,
takes and final bids is Bob, Cat, Ann, and Bob leads the first trick.
Play positions are built directly as states where a test is about one
trick; the bidding tests walk from a real deal.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

import pytest

from diamonds.core import errors
from diamonds.core.cards import JOKER, AnyCard, Card, Suit
from diamonds.core.family import Rules, SideResult
from diamonds.core.seating import ConfigError
from diamonds.families.bidding.rules import (
    DECK,
    BadBid,
    Bid,
    Bidding,
    BiddingConfig,
    BiddingResult,
    BiddingState,
    BidMade,
    CardPlayed,
    CardsDealt,
    CardTaken,
    ChoiceNotAllowed,
    Deal,
    FinalBid,
    FinalBidMade,
    FinalBidMove,
    ForbiddenTotal,
    GameEnded,
    HandScored,
    HandStarted,
    MissingChoice,
    Move,
    NotInKitty,
    Phase,
    PlayCard,
    Played,
    SeatScore,
    TakeFromKitty,
    TrickWon,
    WinReason,
    apply,
    infer_deal,
    legal_moves,
    point_value,
    trick_winner,
)

E = TypeVar("E")
ANN, BOB, CAT = 0, 1, 2
D, H, S, C = Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.CLUBS


def card(text: str) -> AnyCard:
    return JOKER if text.lower() == "jo" else Card.parse(text)


def cards(text: str) -> tuple[AnyCard, ...]:
    return tuple(card(t) for t in text.split())


def config() -> BiddingConfig:
    return Bidding.configure(["Ann", "Bob", "Cat"], dealer="Ann")


# The first hand's deal, by seat, and its kitty: all 33 cards once.
ANN_HAND = "7D 8D 9D 10D JD QD KD AD 7H 8H"
BOB_HAND = "9H 10H JH QH KH AH 7S 8S 9S 10S"
CAT_HAND = "JS QS KS AS 7C 8C 9C 10C JC Jo"
KITTY = "QC KC AC"
DEAL = Deal((cards(ANN_HAND), cards(BOB_HAND), cards(CAT_HAND)), cards(KITTY))


def run(state: BiddingState, *moves: Move) -> tuple[BiddingState, list[object]]:
    """Apply moves in order; the last state and all the events."""
    events: list[object] = []
    for move in moves:
        state, caused = apply(state, move)
        events.extend(caused)
    return state, events


def dealt() -> BiddingState:
    state, _ = run(Bidding.initial_state(config()), DEAL)
    return state


def bid(state: BiddingState, bob: int, cat: int, ann: int) -> BiddingState:
    return run(state, Bid(BOB, bob), Bid(CAT, cat), Bid(ANN, ann))[0]


def taken(state: BiddingState) -> BiddingState:
    """Bob takes QC and lays it; Cat takes AC and lays 7C; Ann takes KC and lays 8H."""
    return run(state, TakeFromKitty(BOB, card("QC"), card("QC")), TakeFromKitty(CAT, card("AC"), card("7C")),
               TakeFromKitty(ANN, card("KC"), card("8H")))[0]


def position(hands: Sequence[str], *, leader: int, trick_no: int = 10, final_bids: Sequence[int] = (2, 3, 4),
             point_cards: str = "7D 7H 7S", tricks_won: Sequence[int] = (0, 0, 0),
             scores: Sequence[int] = (0, 0, 0), dealer: int = ANN, hand_no: int = 1) -> BiddingState:
    """A state in play, built directly: hands by seat (Ann, Bob, Cat); the trick is empty."""
    start = Bidding.initial_state(config())
    return replace(
        start, phase=Phase.PLAY, hand_no=hand_no, dealer=dealer, scores=tuple(scores),
        hands=tuple(frozenset(cards(h)) for h in hands), kitty=(), bids=tuple(final_bids),
        taken=(None, None, None), point_cards=cards(point_cards), final_bids=tuple(final_bids),
        trick_no=trick_no, leader=leader, trick=(), tricks_won=tuple(tricks_won),
    )


def play(state: BiddingState, *texts: str) -> tuple[BiddingState, list[object]]:
    return run(state, *(PlayCard.parse(t) for t in texts))


def of_type(events: list[object], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def won(events: list[object]) -> TrickWon:
    [trick] = of_type(events, TrickWon)
    return trick


X = TypeVar("X", bound=errors.IllegalMove)


def refused(state: BiddingState, move: Move, kind: type[X]) -> X:
    """The move is refused with `kind`, and the state is left as it was."""
    before = state
    with pytest.raises(kind) as info:
        apply(state, move)
    assert state == before
    return info.value


def amounts(state: BiddingState) -> list[int]:
    """The amounts of the legal bids or final bids."""
    return [m.amount for m in legal_moves(state) if isinstance(m, (Bid, FinalBid))]


def playable(state: BiddingState) -> set[AnyCard]:
    return {m.card for m in legal_moves(state) if isinstance(m, PlayCard)}


# ---------------------------------------------------------------- B1


def test_B1_exactly_three_players() -> None:
    assert config().players == ("Ann", "Bob", "Cat")
    assert config().sides == ((0,), (1,), (2,)) and config().side_of == (0, 1, 2)
    for players in (["Ann", "Bob"], ["Ann", "Bob", "Cat", "Dan"]):
        with pytest.raises(ConfigError) as info:
            Bidding.configure(players)
        assert info.value.rule == "B1"


def test_B1_no_variant_applies() -> None:
    for variant in ("partnership", "perfect"):
        with pytest.raises(ConfigError) as info:
            Bidding.configure(["Ann", "Bob", "Cat"], variants=[variant])
        assert (info.value.rule, info.value.tag) == ("B1", "Variant")
    assert Bidding.configure(["Ann", "Bob", "Cat"], variants=[""]).rules == "bidding"  # an empty Variant tag


def test_B1_no_option_tags() -> None:
    with pytest.raises(ConfigError) as info:
        Bidding.configure(["Ann", "Bob", "Cat"], options={"Hands": "4"})
    assert info.value.tag == "Hands"


def test_B1_the_rule_set_registers_as_a_family() -> None:
    assert issubclass(Bidding, Rules)
    assert (Bidding.id, Bidding.family, Bidding.player_counts, Bidding.default_players) == (
        "bidding", "bidding", (3,), 3)
    assert (Bidding.variants, Bidding.option_tags, Bidding.rounds_word) == ((), (), "hand")
    assert Bidding.configure(["Ann", "Bob", "Cat"], dealer="cat").first_dealer == CAT
    assert Bidding.configure(["Ann", "Bob", "Cat"]).first_dealer == ANN


# ---------------------------------------------------------------- B2


def test_B2_the_pack_is_33_cards() -> None:
    assert len(DECK) == 33 and len(set(DECK)) == 33
    assert JOKER in DECK
    suited = [c for c in DECK if isinstance(c, Card)]
    assert Counter(c.suit for c in suited) == {D: 8, H: 8, S: 8, C: 8}
    assert sorted({c.rank for c in suited}) == [7, 8, 9, 10, 11, 12, 13, 14]
    assert card("6H") not in DECK and card("11D") not in DECK


def test_B2_ten_cards_each_and_three_to_the_kitty() -> None:
    state, events = run(Bidding.initial_state(config()), DEAL)
    assert events[0] == HandStarted(1, ANN)
    assert events[1] == CardsDealt(1, (cards(ANN_HAND), cards(BOB_HAND), cards(CAT_HAND)), cards(KITTY))
    assert [len(h) for h in state.hands] == [10, 10, 10]
    assert state.kitty == cards(KITTY)
    assert state.phase is Phase.BID and state.round_no == state.hand_no == 1


def test_B2_a_deal_must_be_the_whole_pack() -> None:
    start = Bidding.initial_state(config())
    short = Deal((cards(ANN_HAND)[:9], cards(BOB_HAND), cards(CAT_HAND)), cards(KITTY))
    error = refused(start, short, errors.InvalidDeal)
    assert (error.rule, error.seat, error.expected, error.found) == ("B2", ANN, 10, 9)
    small_kitty = Deal(DEAL.hands, cards("QC KC"))
    error = refused(start, small_kitty, errors.InvalidDeal)
    assert (error.expected, error.found) == (3, 2)
    twice = Deal((cards(ANN_HAND), cards(BOB_HAND), cards(CAT_HAND)), cards("QC KC 7D"))
    again = refused(start, twice, errors.CardTwice)
    assert (again.rule, again.card, again.seat) == ("B2", card("7D"), None)  # found in the kitty
    stranger = Deal((cards("6D " + ANN_HAND[3:]), cards(BOB_HAND), cards(CAT_HAND)), cards("QC KC 7D"))
    alien = refused(start, stranger, errors.CardNotInDeck)
    assert (alien.rule, alien.card, alien.seat) == ("B2", card("6D"), ANN)


def test_B2_a_card_of_no_deck_is_refused_in_play() -> None:
    state = position(["7D", "7H", "7S"], leader=BOB)
    error = refused(state, PlayCard(card("11H")), errors.CardNotInDeck)
    assert (error.rule, error.seat, error.card) == ("B2", BOB, card("11H"))


def test_B2_the_deal_moves_one_seat_left_each_hand() -> None:
    state = position(["7D", "7H", "7S"], leader=BOB, final_bids=(1, 1, 1), tricks_won=(3, 3, 3))
    state, events = play(state, "7H", "7S", "7D")  # Bob leads 7H; Ann's 7D trumps
    assert state.phase is Phase.DEAL and state.hand_no == 2 and state.dealer == BOB
    assert state.to_move is None and Bidding.legal_moves(state) == ()
    state, events = run(state, DEAL)
    assert events[0] == HandStarted(2, BOB)
    assert state.to_move == CAT  # Bob's left bids first


# ---------------------------------------------------------------- B3


def test_B3_bidding_starts_left_of_the_dealer() -> None:
    state = dealt()
    assert state.to_move == BOB
    error = refused(state, Bid(ANN, 2), errors.OutOfTurn)
    assert (error.rule, error.seat) == ("B3", ANN)
    state, events = run(state, Bid(BOB, 3))
    assert events == [BidMade(BOB, 3)] and state.to_move == CAT
    error = refused(state, Bid(BOB, 3), errors.OutOfTurn)  # Bob has bid already
    assert error.seat == BOB


def test_B3_a_bid_is_0_to_10() -> None:
    state = dealt()
    for amount in (-1, 11):
        error = refused(state, Bid(BOB, amount), BadBid)
        assert (error.rule, error.seat, error.found) == ("B3", BOB, amount)
    assert amounts(state) == list(range(11))
    state, _ = run(state, Bid(BOB, 0), Bid(CAT, 10))
    assert state.to_move == ANN


def test_B3_dealer_may_not_make_total_10() -> None:
    state, _ = run(dealt(), Bid(BOB, 3), Bid(CAT, 4))
    error = refused(state, Bid(ANN, 3), ForbiddenTotal)  # 3 + 4 + 3 = 10
    assert (error.rule, error.seat, error.found, error.others) == ("B3", ANN, 3, 7)
    assert amounts(state) == [0, 1, 2, 4, 5, 6, 7, 8, 9, 10]
    state, events = run(state, Bid(ANN, 2))
    assert state.bids == (2, 3, 4) and state.phase is Phase.TAKE


def test_B3_only_the_dealer_is_bound_by_the_total() -> None:
    state, _ = run(dealt(), Bid(BOB, 5), Bid(CAT, 5))  # the first two may make 10 between them
    assert amounts(state) == list(range(1, 11))
    refused(state, Bid(ANN, 0), ForbiddenTotal)
    state, _ = run(dealt(), Bid(BOB, 10), Bid(CAT, 10))  # already past 10: nothing is forbidden
    assert len(legal_moves(state)) == 11


def test_B3_bids_before_anything_else() -> None:
    state = dealt()
    error = refused(state, PlayCard(card("9H")), errors.WrongPhase)
    assert error.rule == "B3"
    refused(state, TakeFromKitty(BOB, card("QC"), card("QC")), errors.WrongPhase)


# ---------------------------------------------------------------- B4


def test_B4_each_takes_one_and_lays_a_point_card_in_turn() -> None:
    state = bid(dealt(), 3, 4, 2)
    assert state.phase is Phase.TAKE and state.to_move == BOB
    assert len(legal_moves(state)) == 3 * 11  # any kitty card, then any of the 11 cards as point card
    state, events = run(state, TakeFromKitty(BOB, card("QC"), card("QC")))  # the card just taken may be laid
    assert events == [CardTaken(BOB, card("QC"), card("QC"))]
    assert state.kitty == cards("KC AC") and state.hands[BOB] == frozenset(cards(BOB_HAND))
    assert len(legal_moves(state)) == 2 * 11
    state, _ = run(state, TakeFromKitty(CAT, card("AC"), card("7C")))
    assert card("AC") in state.hands[CAT] and card("7C") not in state.hands[CAT]
    state, _ = run(state, TakeFromKitty(ANN, card("KC"), card("8H")))
    assert [len(h) for h in state.hands] == [10, 10, 10] and state.kitty == ()
    assert state.point_cards == cards("8H QC 7C") and state.taken == cards("KC QC AC")
    assert state.phase is Phase.FINAL and state.to_move == BOB


def test_B4_take_only_from_the_kitty() -> None:
    state = bid(dealt(), 3, 4, 2)
    error = refused(state, TakeFromKitty(BOB, card("7D"), card("9H")), NotInKitty)
    assert (error.rule, error.seat, error.card, error.cards) == ("B4", BOB, card("7D"), cards(KITTY))


def test_B4_the_point_card_must_be_held() -> None:
    state = bid(dealt(), 3, 4, 2)
    error = refused(state, TakeFromKitty(BOB, card("QC"), card("7D")), errors.CardNotHeld)  # 7D is Ann's
    assert (error.rule, error.seat, error.card) == ("B4", BOB, card("7D"))
    state, _ = run(state, TakeFromKitty(BOB, card("QC"), card("QC")))
    error = refused(state, TakeFromKitty(CAT, card("KC"), card("QC")), errors.CardNotHeld)  # QC is Bob's point card
    assert error.card == card("QC")


def test_B4_takes_go_in_turn() -> None:
    state = bid(dealt(), 3, 4, 2)
    error = refused(state, TakeFromKitty(CAT, card("AC"), card("AC")), errors.OutOfTurn)
    assert (error.rule, error.seat) == ("B4", CAT)


# ---------------------------------------------------------------- B5


def test_B5_final_bid_moves_by_at_most_one() -> None:
    state = taken(bid(dealt(), 3, 4, 2))
    assert amounts(state) == [2, 3, 4]
    error = refused(state, FinalBid(BOB, 5), FinalBidMove)
    assert (error.rule, error.seat, error.expected, error.found) == ("B5", BOB, 3, 5)
    error = refused(state, FinalBid(BOB, 1), FinalBidMove)
    assert (error.expected, error.found) == (3, 1)
    state, events = run(state, FinalBid(BOB, 4), FinalBid(CAT, 4))
    assert events == [FinalBidMade(BOB, 4, +1), FinalBidMade(CAT, 4, 0)]


def test_B5_final_bid_stays_within_0_to_10() -> None:
    state = taken(bid(dealt(), 0, 10, 5))
    assert amounts(state) == [0, 1]
    error = refused(state, FinalBid(BOB, -1), BadBid)
    assert (error.rule, error.seat, error.found) == ("B5", BOB, -1)
    state, _ = run(state, FinalBid(BOB, 0))
    assert amounts(state) == [9, 10]
    refused(state, FinalBid(CAT, 11), BadBid)


def test_B5_dealer_may_not_make_final_total_10() -> None:
    state = taken(bid(dealt(), 3, 4, 2))  # bids total 9
    state, _ = run(state, FinalBid(BOB, 4), FinalBid(CAT, 4))  # 8 so far: Ann may not keep her 2
    assert amounts(state) == [1, 3]
    error = refused(state, FinalBid(ANN, 2), ForbiddenTotal)
    assert (error.rule, error.seat, error.found, error.others) == ("B5", ANN, 2, 8)
    state, events = run(state, FinalBid(ANN, 1))
    assert events == [FinalBidMade(ANN, 1, -1)]
    assert state.final_bids == (1, 4, 4) and state.bids == (2, 3, 4)


def test_B5_final_bids_in_turn_then_play() -> None:
    state = taken(bid(dealt(), 3, 4, 2))
    error = refused(state, FinalBid(ANN, 2), errors.OutOfTurn)
    assert (error.rule, error.seat) == ("B5", ANN)
    refused(state, PlayCard(card("9H")), errors.WrongPhase)
    state, _ = run(state, FinalBid(BOB, 3), FinalBid(CAT, 4), FinalBid(ANN, 1))
    assert state.phase is Phase.PLAY


# ---------------------------------------------------------------- B6


def test_B6_dealers_left_leads_the_first_trick() -> None:
    state = taken(bid(dealt(), 3, 4, 2))
    state, _ = run(state, FinalBid(BOB, 3), FinalBid(CAT, 4), FinalBid(ANN, 1))
    assert (state.trick_no, state.leader, state.to_move) == (1, BOB, BOB)
    error = refused(state, PlayCard(card("7D")), errors.CardNotHeld)  # Ann's card, but Bob is to play
    assert (error.rule, error.seat, error.card) == ("B6", BOB, card("7D"))


def test_B6_must_follow_the_led_suit() -> None:
    state = position(["7D 8C AS", "9H JH 7S", "10H JS Jo"], leader=BOB, trick_no=8)
    state, _ = play(state, "9H")
    error = refused(state, PlayCard(card("JS")), errors.MustFollowSuit)
    assert (error.rule, error.seat, error.card, error.cards) == ("B6", CAT, card("JS"), cards("10H"))
    assert playable(state) == {card("10H"), JOKER}


def test_B6_the_joker_never_revokes() -> None:
    state = position(["7D 8C AS", "9H JH 7S", "10H JS Jo"], leader=BOB, trick_no=8)
    state, events = play(state, "9H", "JoS-")  # Cat holds 10H, yet may play the Joker, given Spades
    played = of_type(events, CardPlayed)[-1]
    assert played == CardPlayed(CAT, JOKER, 8, False, False, S, False)


def test_B6_void_in_the_led_suit_plays_anything() -> None:
    state = position(["7D 8C AS", "9H JH 7S", "10H JS Jo"], leader=BOB, trick_no=8)
    state, _ = play(state, "9H", "10H")
    assert playable(state) == set(cards("7D 8C AS"))


def test_B6_the_winner_leads_the_next_trick() -> None:
    state = position(["7D 8C AS", "9H JH 7S", "10H JS Jo"], leader=BOB, trick_no=8)
    state, events = play(state, "9H", "10H", "8C")  # no Diamond: Cat's 10H is the highest Heart
    assert won(events) == TrickWon(8, CAT, card("10H"), cards("9H 10H 8C"), WinReason.LED_SUIT)
    assert (state.trick_no, state.leader, state.to_move, state.tricks_won) == (9, CAT, CAT, (0, 0, 1))


def test_B6_a_hand_is_ten_tricks() -> None:
    state = position(["7D 8C", "9H JH", "10H JS"], leader=BOB, trick_no=9, final_bids=(0, 0, 0))
    state, events = play(state, "9H", "10H", "8C")
    assert not of_type(events, HandScored) and state.trick_no == 10
    state, events = play(state, "JS", "7D", "JH")  # Cat leads; Bob has no Spade left; Ann's 7D trumps
    assert won(events).winner == ANN
    assert len(of_type(events, HandScored)) == 1 and state.phase is Phase.DEAL


# ---------------------------------------------------------------- B7


def test_B7_ace_high_or_low_must_be_said() -> None:
    state = position(["7D", "AH", "7S"], leader=BOB)
    error = refused(state, PlayCard(card("AH")), MissingChoice)
    assert (error.rule, error.seat, error.card) == ("B7", BOB, card("AH"))
    assert set(legal_moves(state)) == {PlayCard(card("AH"), True), PlayCard(card("AH"), False)}
    extra = refused(state, PlayCard(card("AH"), True, H), ChoiceNotAllowed)  # a suit only for the Joker
    assert (extra.rule, extra.card) == ("B7", card("AH"))


def test_B7_joker_needs_a_suit_and_high_or_low() -> None:
    state = position(["7D", "Jo", "7S"], leader=BOB)
    for move in (PlayCard(JOKER), PlayCard(JOKER, True), PlayCard(JOKER, None, S)):
        error = refused(state, move, MissingChoice)
        assert (error.rule, error.seat, error.card) == ("B7", BOB, JOKER)
    assert len(legal_moves(state)) == 8  # 4 suits x high/low


def test_B7_high_or_low_only_on_an_ace_or_the_joker() -> None:
    state = position(["7D", "9H", "7S"], leader=BOB)
    for move in (PlayCard(card("9H"), True), PlayCard(card("9H"), False), PlayCard(card("9H"), None, H)):
        error = refused(state, move, ChoiceNotAllowed)
        assert (error.rule, error.seat, error.card) == ("B7", BOB, card("9H"))
    assert legal_moves(state) == (PlayCard(card("9H")),)


def test_B7_an_aces_other_writing_and_a_jokers_choice_words_are_its_legal_moves() -> None:
    """What a scorer's page offers after a card (`Rules.other_writings`) and for a Joker's question
    (`Rules.question_words`): each reads back (`parse_move`) as a legal move, and together they are every one."""
    state = position(["7D", "AH Jo", "7S"], leader=BOB)
    legal = set(legal_moves(state))
    for written in ("AH", "AH-", "AH+"):
        [(other, meaning)] = Bidding.other_writings(state.config, written)
        first, second = Bidding.parse_move(state, written), Bidding.parse_move(state, other)
        assert {first, second} <= legal and first != second
        assert meaning == ("low" if second.high is False else "high")
    assert Bidding.other_writings(state.config, "7D") == () and Bidding.other_writings(state.config, "Jo") == ()
    words = Bidding.question_words(state.config, "missing-choice") or ()
    jokers = {Bidding.parse_move(state, "Jo" + word) for word in words if len(word) == 2}
    assert jokers == {move for move in legal if move.card is JOKER}


def test_B7_a_led_jokers_suit_is_the_led_suit() -> None:
    state = position(["7D 8S", "Jo KH", "9S QH"], leader=BOB, trick_no=9)
    state, events = play(state, "JoS-")
    assert state.led_suit is S
    [played] = of_type(events, CardPlayed)
    assert played == CardPlayed(BOB, JOKER, 9, True, False, S, True)
    error = refused(state, PlayCard(card("QH")), errors.MustFollowSuit)  # Cat holds 9S: Spades must be followed
    assert error.cards == cards("9S")


def test_B7_a_following_joker_may_be_given_any_suit() -> None:
    state = position(["7D 8S", "9H KH", "Jo QS"], leader=BOB, trick_no=9)
    state, _ = play(state, "9H")
    jokers = {(m.suit, m.high) for m in legal_moves(state) if isinstance(m, PlayCard) and m.card is JOKER}
    assert jokers == {(suit, high) for suit in (D, H, S, C) for high in (True, False)}


def test_B7_moves_read_and_write_as_dgn() -> None:
    for text, move in (("AH", PlayCard(card("AH"), True)), ("AH-", PlayCard(card("AH"), False)),
                       ("JoS+", PlayCard(JOKER, True, S)), ("JoD-", PlayCard(JOKER, False, D)),
                       ("9H", PlayCard(card("9H")))):
        assert PlayCard.parse(text) == move and str(move) == text
    assert PlayCard.parse("AH+") == PlayCard(card("AH"), True)
    assert (str(Bid(BOB, 3)), str(FinalBid(BOB, 4))) == ("bid 3", "final 4")
    assert str(TakeFromKitty(BOB, card("9H"), card("QS"))) == "take 9H point QS"


# ---------------------------------------------------------------- B8


def winner(*plays: tuple[int, str, bool | None, Suit]) -> tuple[int, WinReason]:
    """`trick_winner` over (seat, card, high, effective suit) plays; the winner's seat and why."""
    trick = [Played(seat, card(text), high, suit) for seat, text, high, suit in plays]
    index, why = trick_winner(trick)
    return trick[index].seat, why


def trick_won(hands: Sequence[str], *plays: str) -> TrickWon:
    """How the trick of `plays` is won, Bob leading, from these hands (Ann, Bob, Cat)."""
    return won(play(position(hands, leader=BOB), *plays)[1])


def test_B8_high_joker_wins() -> None:
    assert winner((BOB, "KH", None, H), (CAT, "AH", True, H), (ANN, "Jo", True, C)) == (ANN, WinReason.HIGH_JOKER)
    assert winner((BOB, "7H", None, H), (CAT, "AD", True, D), (ANN, "Jo", True, H)) == (ANN, WinReason.HIGH_JOKER)
    assert winner((BOB, "Jo", True, S), (CAT, "AS", True, S), (ANN, "AD", True, D)) == (BOB, WinReason.HIGH_JOKER)


def test_B8_high_joker_wins_in_play() -> None:
    assert trick_won(["AD", "7H", "Jo"], "7H", "JoC+", "AD") == TrickWon(10, CAT, JOKER, cards("7H Jo AD"), WinReason.HIGH_JOKER)


def test_B8_highest_diamond_wins() -> None:
    assert winner((BOB, "AH", True, H), (CAT, "7D", None, D), (ANN, "KH", None, H)) == (CAT, WinReason.TRUMP)
    assert winner((BOB, "9S", None, S), (CAT, "7D", None, D), (ANN, "8D", None, D)) == (ANN, WinReason.TRUMP)
    # Diamonds led: still the highest Diamond (a low ace is the lowest)
    assert winner((BOB, "8D", None, D), (CAT, "AD", False, D), (ANN, "9D", None, D)) == (ANN, WinReason.TRUMP)


def test_B8_joker_given_diamonds_played_low_beats_other_suits() -> None:
    assert winner((BOB, "AH", True, H), (CAT, "Jo", False, D), (ANN, "KH", None, H)) == (CAT, WinReason.TRUMP)
    assert trick_won(["KH", "AH", "Jo"], "AH", "JoD-", "KH") == TrickWon(10, CAT, JOKER, cards("AH Jo KH"), WinReason.TRUMP)


def test_B8_joker_given_diamonds_played_low_is_the_lowest_trump() -> None:
    assert winner((BOB, "9S", None, S), (CAT, "Jo", False, D), (ANN, "7D", None, D)) == (ANN, WinReason.TRUMP)
    assert winner((BOB, "9S", None, S), (CAT, "Jo", False, D), (ANN, "AD", False, D)) == (ANN, WinReason.TRUMP)


def test_B8_led_low_joker_loses_only_to_its_suit_or_a_diamond() -> None:
    # wins against other suits, even a high ace
    assert winner((BOB, "Jo", False, S), (CAT, "10H", None, H), (ANN, "AC", True, C)) == (BOB, WinReason.LED_SUIT)
    # loses to any card of its suit, even a low ace
    assert winner((BOB, "Jo", False, S), (CAT, "7S", None, S), (ANN, "KH", None, H)) == (CAT, WinReason.LED_SUIT)
    assert winner((BOB, "Jo", False, S), (CAT, "AS", False, S), (ANN, "KH", None, H)) == (CAT, WinReason.LED_SUIT)
    # and to any Diamond
    assert winner((BOB, "Jo", False, S), (CAT, "KH", None, H), (ANN, "7D", None, D)) == (ANN, WinReason.TRUMP)


def test_B8_led_low_joker_in_play() -> None:
    assert trick_won(["AC", "Jo", "10H"], "JoS-", "10H", "AC") == TrickWon(10, BOB, JOKER, cards("Jo 10H AC"), WinReason.LED_SUIT)


def test_B8_low_ace_is_below_the_7() -> None:
    assert winner((BOB, "AH", False, H), (CAT, "7H", None, H), (ANN, "8C", None, C)) == (CAT, WinReason.LED_SUIT)
    assert winner((BOB, "AH", False, H), (CAT, "9C", None, C), (ANN, "10S", None, S)) == (BOB, WinReason.LED_SUIT)
    assert trick_won(["8C", "AH", "7H"], "AH-", "7H", "8C").winner == CAT


def test_B8_high_ace_is_above_the_king() -> None:
    assert winner((BOB, "KH", None, H), (CAT, "AH", True, H), (ANN, "QH", None, H)) == (CAT, WinReason.LED_SUIT)


def test_B8_off_suit_cards_that_are_not_trumps_never_win() -> None:
    assert winner((BOB, "7H", None, H), (CAT, "AS", True, S), (ANN, "AC", True, C)) == (BOB, WinReason.LED_SUIT)
    # a low Joker given a suit that was not led, and not Diamonds, loses too
    assert winner((BOB, "7H", None, H), (CAT, "Jo", False, S), (ANN, "8C", None, C)) == (BOB, WinReason.LED_SUIT)


# ---------------------------------------------------------------- B9


def test_B9_point_card_values() -> None:
    values = {"7S": 7, "8S": 8, "9S": 9, "10S": 10, "JS": 11, "QS": 12, "KS": 13, "AS": 15, "Jo": 20}
    assert {text: point_value(card(text)) for text in values} == values


def test_B9_exact_bid_adds_the_point_card_otherwise_subtracts() -> None:
    # Finals Ann 2, Bob 3, Cat 4; 3 tricks each so far. Point cards: Ann AD, Bob QS, Cat Jo.
    state = position(["8C", "7H", "KH"], leader=BOB, final_bids=(2, 3, 4), point_cards="AD QS Jo",
                     tricks_won=(3, 3, 3), scores=(5, -10, 0))
    state, events = play(state, "7H", "KH", "8C")  # Cat's KH wins: Ann 3, Bob 3, Cat 4 tricks
    [scored] = of_type(events, HandScored)
    assert scored == HandScored(1, (
        SeatScore(ANN, 2, 3, card("AD"), -15, -10),  # missed (3 for 2): 5 - 15
        SeatScore(BOB, 3, 3, card("QS"), +12, 2),  # made: -10 + 12
        SeatScore(CAT, 4, 4, JOKER, +20, 20),  # made: 0 + 20
    ))
    assert scored.points == (-15, 12, 20) and scored.totals == (-10, 2, 20)
    assert state.scores == (-10, 2, 20) and state.phase is Phase.DEAL
    assert Bidding.standings(state) == (BiddingResult(ANN, -10, False), BiddingResult(BOB, 2, False),
                                        BiddingResult(CAT, 20, True))


def test_B9_totals_may_be_negative() -> None:
    state = position(["8C", "7H", "KH"], leader=BOB, final_bids=(0, 0, 0), point_cards="7S 10D JC",
                     tricks_won=(3, 3, 3), scores=(-40, 0, 3))
    state, events = play(state, "7H", "KH", "8C")  # nobody won 0 tricks
    [scored] = of_type(events, HandScored)
    assert scored.points == (-7, -10, -11) and state.scores == (-47, -10, -8)
    assert state.phase is Phase.DEAL  # -47 ends nothing (B10)


def test_B9_a_zero_bid_made() -> None:
    state = position(["8C", "7H", "KH"], leader=BOB, final_bids=(0, 3, 7), point_cards="9C 8S 10C",
                     tricks_won=(0, 3, 6), scores=(0, 0, 0))
    state, events = play(state, "7H", "KH", "8C")  # Cat wins: 0, 3, 7 tricks
    [scored] = of_type(events, HandScored)
    assert scored.points == (9, 8, 10)


# ---------------------------------------------------------------- B10


def last_trick(scores: Sequence[int], point_cards: str, final_bids: Sequence[int]) -> BiddingState:
    """Trick 10: Bob leads 7H, Cat plays KH, Ann 8C; Cat wins. Before it: 3 tricks each."""
    return position(["8C", "7H", "KH"], leader=BOB, final_bids=final_bids, point_cards=point_cards,
                    tricks_won=(3, 3, 3), scores=scores)


def test_B10_game_ends_at_100_or_more() -> None:
    state = last_trick((90, 50, 80), "KD 7S 8S", (3, 2, 2))  # Ann makes 3 (+13 = 103); Bob, Cat miss
    state, events = play(state, "7H", "KH", "8C")
    assert state.scores == (103, 43, 72) and state.phase is Phase.GAME_OVER and state.is_over
    assert events[-1] == GameEnded((BiddingResult(ANN, 103, True), BiddingResult(BOB, 43, False),
                                    BiddingResult(CAT, 72, False)))
    assert Bidding.is_over(state) and Bidding.to_move(state) is None and Bidding.legal_moves(state) == ()
    assert state.hand_no == 1 and state.point_cards == cards("KD 7S 8S")  # the last hand stays shown
    error = refused(state, DEAL, errors.GameOver)
    assert error.rule == "B10"
    refused(state, Bid(BOB, 3), errors.GameOver)


def test_B10_exactly_100_ends() -> None:
    state = last_trick((87, 0, 0), "KD 7S 8S", (3, 2, 2))  # 87 + 13 = 100
    state, _ = play(state, "7H", "KH", "8C")
    assert state.scores[ANN] == 100 and state.is_over


def test_B10_99_does_not_end() -> None:
    state = last_trick((86, 0, 0), "KD 7S 8S", (3, 2, 2))  # 86 + 13 = 99
    state, events = play(state, "7H", "KH", "8C")
    assert state.scores[ANN] == 99 and state.phase is Phase.DEAL and not of_type(events, GameEnded)


def test_B10_game_ends_at_minus_100_or_less_and_the_highest_wins() -> None:
    state = last_trick((40, -95, 60), "8D 7S 9C", (2, 2, 2))  # all miss: -8, -7, -9
    state, events = play(state, "7H", "KH", "8C")
    assert state.scores == (32, -102, 51) and state.is_over
    [ended] = of_type(events, GameEnded)
    assert ended.winners == (CAT,)


def test_B10_exactly_minus_100_ends() -> None:
    state = last_trick((0, -93, 0), "8D 7S 9C", (2, 2, 2))  # -93 - 7 = -100
    state, _ = play(state, "7H", "KH", "8C")
    assert state.scores[BOB] == -100 and state.is_over


def test_B10_players_tied_on_the_highest_share_the_win() -> None:
    state = last_trick((85, 50, 80), "AS 7S 7C", (3, 2, 4))  # Ann +15 = 100, Bob -7, Cat makes 4: +7 = 87
    state, events = play(state, "7H", "KH", "8C")
    assert state.scores == (100, 43, 87)
    state = last_trick((85, 50, 93), "AS 7S 7C", (3, 2, 4))  # Ann 100, Cat 100
    state, events = play(state, "7H", "KH", "8C")
    [ended] = of_type(events, GameEnded)
    assert ended.winners == (ANN, CAT)
    assert [s.winner for s in Bidding.standings(state)] == [True, False, True]
    assert all(isinstance(s, SideResult) for s in Bidding.standings(state))


# ---------------------------------------------------------------- random games


@pytest.mark.slow  # a long property run
def test_random_games_obey_the_rules() -> None:
    rng = random.Random(20261120)
    hands_played = 0
    outcomes: Counter[bool] = Counter()  # made, missed
    for game_no in range(100):
        state = Bidding.initial_state(Bidding.configure(["Ann", "Bob", "Cat"], dealer=rng.randrange(3)))
        points: dict[int, AnyCard] = {}
        takes: list[TakeFromKitty] = []
        plays: list[PlayCard] = []
        deal: CardsDealt | None = None
        moves = 0
        while not state.is_over:
            move = Bidding.random_move(state, rng)
            if isinstance(move, TakeFromKitty):
                takes.append(move)
            elif isinstance(move, PlayCard):
                plays.append(move)
            dealer = state.dealer
            if state.phase is not Phase.DEAL:
                legal = legal_moves(state)
                assert move in legal
                assert len(set(legal)) == len(legal)
            if state.phase is Phase.PLAY and (game_no == 0 or (state.hand_no == 1 and state.trick_no == 1)):
                seat = state.to_move
                assert seat is not None
                for other in DECK:
                    if other in state.hands[seat]:
                        continue
                    choice = PlayCard(other, True, S) if other is JOKER else PlayCard(
                        other, True if isinstance(other, Card) and other.is_ace else None)
                    error = refused(state, choice, errors.CardNotHeld)
                    assert (error.seat, error.card, error.rule) == (seat, other, "B6")
            state, events = apply(state, move)
            moves += 1
            assert moves < 10_000
            for event in events:
                if isinstance(event, CardsDealt):
                    dealt_cards = [c for hand in event.hands for c in hand] + list(event.kitty)
                    assert len(dealt_cards) == 33 and set(dealt_cards) == set(DECK)
                    assert [len(hand) for hand in event.hands] == [10, 10, 10] and len(event.kitty) == 3
                    points, takes, plays, deal = {}, [], [], event
                elif isinstance(event, CardTaken):
                    points[event.seat] = event.point
                elif isinstance(event, HandScored):
                    hands_played += 1
                    assert len(points) == 3 and len(set(points.values())) == 3
                    assert sum(s.tricks for s in event.seats) == 10
                    # DGN may leave the deal and kitty out: the complete hand implies them
                    inferred = infer_deal(state.config, dealer, takes, [plays[i:i + 3] for i in range(0, 30, 3)])
                    assert deal is not None and inferred.hands == deal.hands
                    assert set(inferred.kitty) == set(deal.kitty)
                    for score in event.seats:
                        value = point_value(points[score.seat])
                        assert score.point_card is points[score.seat]
                        assert score.points == (value if score.tricks == score.final_bid else -value)
                        outcomes[score.made] += 1
        assert any(s >= 100 or s <= -100 for s in state.scores)
    assert hands_played > 100 and outcomes[True] > 0 and outcomes[False] > 0


@pytest.mark.slow  # every move of every state of long games
def test_every_legal_move_is_accepted_and_others_refused() -> None:
    rng = random.Random(7)
    for _ in range(2):
        state = Bidding.initial_state(config())
        while not state.is_over:
            legal = set(legal_moves(state))
            seat = state.to_move
            if state.phase in (Phase.BID, Phase.FINAL):
                assert seat is not None
                kind = Bid if state.phase is Phase.BID else FinalBid
                for amount in range(-1, 12):
                    amount_move = kind(seat, amount)
                    if amount_move in legal:
                        apply(state, amount_move)
                    else:
                        refused(state, amount_move, errors.IllegalMove)
            elif state.phase is Phase.PLAY and seat is not None:
                for held in state.hands[seat]:
                    for high in (None, True, False):
                        for suit in (None, D, H, S, C):
                            play_move = PlayCard(held, high, suit)
                            if play_move in legal:
                                apply(state, play_move)
                            else:
                                refused(state, play_move, errors.IllegalMove)
            elif state.phase is Phase.TAKE:
                for take in legal:
                    apply(state, take)
            state, _ = apply(state, Bidding.random_move(state, rng))
