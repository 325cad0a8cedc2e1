"""Alan Kirk's four-player Diamonds: the rulings K1-K8, one group of tests per ruling.

Every expected number is worked out by hand in the test (or in the comment
above it) from the rulings, never from the engine. Seats: Ann 0, Bob 1,
Cat 2, Dan 3. A scoring pile is written bottom first, so its top card (K6)
is the last one written.

The numbers the rulings give, in our words:
  K3  value = rank (J 11, Q 12, K 13, A 14), one more for a Diamond;
  K7  points: other suits 2-10 → 1, J/Q/K → 5, A → 10;
      Diamonds 2-10 → 3, J/Q/K → 10, A → 20; 179 in a hand.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from diamonds.core import errors
from diamonds.core.cards import JOKER, Card, Suit, standard_cards
from diamonds.core.family import PureTable, Rules
from diamonds.core.seating import ConfigError
from diamonds.families.kirk.rules import (
    CardPlayed,
    CardsDealt,
    Deal,
    DecidedBy,
    GameEnded,
    HandScored,
    HandStarted,
    Kirk,
    KirkConfig,
    KirkResult,
    Phase,
    PlayCard,
    State,
    TieBroken,
    TieStep,
    TrickWon,
    card_points,
    card_value,
    first_leader,
    trick_winner,
)

ANN, BOB, CAT, DAN = range(4)
PLAYERS = ("Ann", "Bob", "Cat", "Dan")


# --------------------------------------------------------------------------- helpers


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(token) for token in text.split())


def card(text: str) -> Card:
    return Card.parse(text)


def new_state(dealer: str = "Ann", **options: str) -> State:
    return Kirk.initial_state(Kirk.configure(PLAYERS, dealer=dealer, options=options))


def deal(state: State, hands: list[str]) -> tuple[State, tuple[object, ...]]:
    after, events = Kirk.apply(state, Deal(tuple(cards(hand) for hand in hands)))
    return after, events


def play(state: State, text: str) -> tuple[State, list[object]]:
    """Play the cards written, in order, each by whoever is to move."""
    events: list[object] = []
    for token in text.split():
        state, more = Kirk.apply(state, PlayCard(card(token)))
        events.extend(more)
    return state, events


def of_type(events: list[object] | tuple[object, ...], kind: type) -> list[object]:
    return [event for event in events if isinstance(event, kind)]


def position(*, leader: int, hands: list[str], piles: list[str], trick_no: int = 5) -> State:
    """A position in the middle of hand 1 (Ann dealt), built directly: the hands and piles given."""
    state = new_state()
    return replace(
        state, phase=Phase.PLAY, hands=tuple(frozenset(cards(h)) for h in hands), trick_no=trick_no,
        leader=leader, trick=(), piles=tuple(cards(p) for p in piles),
    )


def tie_at(*, leader: int, hands: list[str], piles: list[str], plays: str) -> tuple[State, list[object], TieBroken]:
    """The trick `plays` from a `position` of these hands and piles: the state after, its events, and the one
    tie it breaks."""
    state, events = play(position(leader=leader, hands=hands, piles=piles), plays)
    (tie,) = of_type(events, TieBroken)
    assert isinstance(tie, TieBroken)
    return state, events, tie


# Each player holds one whole suit: Ann Diamonds, Bob Hearts, Cat Spades, Dan Clubs.
SUIT_DEAL = [
    "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
]
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_OF_SEAT = "DHSC"


def rotate(hands: list[str], by: int) -> list[str]:
    """The same hands, each moved `by` seats left: seat s gets what seat s - by had."""
    return [hands[(seat - by) % 4] for seat in range(4)]


def play_suit_hand(state: State, hands: list[str]) -> tuple[State, list[object]]:
    """Deal one-suit hands and play 13 tricks in which everybody plays the same rank.

    The player holding Diamonds wins every trick: their card's value is the
    rank + 1, the others' the rank (K3).
    """
    state, dealt = deal(state, hands)
    events = list(dealt)
    suit_of = {seat: hands[seat].split()[0][-1] for seat in range(4)}
    for rank in RANKS:
        for _ in range(4):
            seat = state.to_move
            assert seat is not None
            state, more = Kirk.apply(state, PlayCard(card(rank + suit_of[seat])))
            events.extend(more)
    return state, events


# Mixed hands for hand 1 with Ann dealing (Bob leads, K4). Checked: 13 cards each, every card once.
MIXED = [
    "2D 6D 10D AD 3H 7H JH 4S 8S QS 5C 9C KC",  # Ann
    "3D 7D JD 4H 8H QH 5S 9S KS 2C 6C 10C AC",  # Bob
    "4D 8D QD 5H 9H KH 2S 6S 10S AS 3C 7C JC",  # Cat
    "5D 9D KD 2H 6H 10H AH 3S 7S JS 4C 8C QC",  # Dan
]
# Six tricks of MIXED, worked out by hand (value in brackets, K3):
#  1 Bob leads: 4H(4) 2S(2) 2H(2) 3H(3)        → Bob, single highest.
#  2 Bob leads: 2C(2) 3C(3) 3S(3) 2D(3)        → Cat, Dan, Ann tie on 3; all piles are empty
#                                                (Bob's is not, but he is not tied): Cat played first.
#  3 Cat leads: 5H(5) 4C(4) 4S(4) 5S(5)        → Cat and Bob tie on 5. Step 1: Cat's top 2D(3),
#                                                Bob's top 3H(3): still tied. Step 2: Cat 3S(3),
#                                                Bob 2H(2): Cat wins at depth 2.
#  4 Cat leads: AS(14) AH(14) AD(15) AC(14)    → Ann (AD cannot be tied).
#  5 Ann leads: 5C(5) 3D(4) 4D(5) 5D(6)        → Dan.
#  6 Dan leads: KD(14) KC(13) KS(13) KH(13)    → Dan.
MIXED_TRICKS = [
    "4H 2S 2H 3H",
    "2C 3C 3S 2D",
    "5H 4C 4S 5S",
    "AS AH AD AC",
    "5C 3D 4D 5D",
    "KD KC KS KH",
]


# --------------------------------------------------------------------------- K1: four players, no variant


def test_K1_exactly_four_players() -> None:
    config = Kirk.configure(PLAYERS)
    assert isinstance(config, KirkConfig)
    assert config.players == PLAYERS
    assert config.rules == "kirk"
    assert Kirk.player_counts == (4,) and Kirk.default_players == 4


@pytest.mark.parametrize("players", [("Ann", "Bob", "Cat"), ("Ann", "Bob", "Cat", "Dan", "Eve"), ("Ann", "Bob")])
def test_K1_other_player_counts_refused(players: tuple[str, ...]) -> None:
    with pytest.raises(ConfigError) as refused:
        Kirk.configure(players)
    assert refused.value.rule == "K1"
    assert str(len(players)) in str(refused.value)


def test_K1_each_player_for_themselves() -> None:
    config = Kirk.configure(PLAYERS)
    assert config.sides == ((0,), (1,), (2,), (3,))
    assert config.side_of == (0, 1, 2, 3)
    assert not config.teams


@pytest.mark.parametrize("variant", ["partnership", "perfect", "anything"])
def test_K1_variants_refused(variant: str) -> None:
    assert Kirk.variants == ()
    with pytest.raises(ConfigError) as refused:
        Kirk.configure(PLAYERS, variants=[variant])
    assert refused.value.rule == "K1"
    assert refused.value.tag == "Variant"


def test_K1_seats_go_left_clockwise() -> None:
    config = Kirk.configure(PLAYERS)
    assert [config.left_of(seat) for seat in range(4)] == [BOB, CAT, DAN, ANN]


# --------------------------------------------------------------------------- K2: the pack and the deal


def test_K2_the_standard_52_card_pack() -> None:
    deck = Kirk.configure(PLAYERS).deck
    assert len(deck) == 52 and len(set(deck)) == 52
    for suit in Suit:
        in_suit = sorted(c.rank for c in deck if c.suit is suit)
        assert in_suit == list(range(2, 15))  # 2-10, J 11, Q 12, K 13, A 14
    assert all(c.court == (c.rank > 10) for c in deck)
    assert set(deck) == set(standard_cards(2))


def test_K2_deal_gives_13_cards_to_each_player() -> None:
    state, events = deal(new_state(), MIXED)
    assert state.phase is Phase.PLAY
    for seat in range(4):
        assert state.hands[seat] == frozenset(cards(MIXED[seat]))
        assert len(state.hands[seat]) == 13
    assert events[0] == HandStarted(1, ANN)
    dealt = events[1]
    assert isinstance(dealt, CardsDealt) and dealt.hand_no == 1
    assert [set(hand) for hand in dealt.hands] == [set(cards(hand)) for hand in MIXED]
    assert Kirk.legal_moves(new_state()) == ()  # the deal is a chance move, not listed


@pytest.mark.parametrize("intruder", [Card(11, Suit.DIAMONDS), Card(1, Suit.HEARTS), Card(15, Suit.CLUBS), JOKER],
                         ids=["11D", "1H", "15C", "Joker"])
def test_K2_deal_refused_for_a_card_outside_the_pack(intruder: object) -> None:
    # Cat's JC is replaced by a card of no standard pack.
    hands = [cards(hand) for hand in MIXED]
    hands[CAT] = hands[CAT][:-1] + (intruder,)  # type: ignore[operator]
    before = new_state()
    with pytest.raises(errors.CardNotInDeck) as refused:
        Kirk.apply(before, Deal(tuple(hands)))
    assert refused.value.rule == "K2"
    assert refused.value.card is intruder
    assert refused.value.seat == CAT
    assert before.phase is Phase.DEAL  # a pure function: nothing changed


def test_K2_deal_refused_for_a_card_dealt_twice() -> None:
    # Dan's QC is replaced by Ann's AD: AD is dealt to Ann and to Dan.
    hands = [cards(hand) for hand in MIXED]
    hands[DAN] = hands[DAN][:-1] + (card("AD"),)
    with pytest.raises(errors.CardTwice) as refused:
        Kirk.apply(new_state(), Deal(tuple(hands)))
    assert refused.value.rule == "K2"
    assert refused.value.card is card("AD")
    assert refused.value.seat == DAN
    assert "Ann" in str(refused.value) and "Dan" in str(refused.value)


def test_K2_deal_refused_for_a_card_twice_in_one_hand() -> None:
    hands = [cards(hand) for hand in MIXED]
    hands[BOB] = hands[BOB][:-1] + (card("3D"),)  # 3D is already Bob's first card
    with pytest.raises(errors.CardTwice) as refused:
        Kirk.apply(new_state(), Deal(tuple(hands)))
    assert (refused.value.seat, refused.value.card) == (BOB, card("3D"))


def test_K2_deal_refused_for_a_wrong_hand_size() -> None:
    hands = [cards(hand) for hand in MIXED]
    hands[DAN] = hands[DAN][:12]
    with pytest.raises(errors.InvalidDeal) as refused:
        Kirk.apply(new_state(), Deal(tuple(hands)))
    assert refused.value.rule == "K2"
    assert (refused.value.seat, refused.value.expected, refused.value.found) == (DAN, 13, 12)


def test_K2_deal_refused_for_a_wrong_number_of_hands() -> None:
    with pytest.raises(errors.InvalidDeal) as refused:
        Kirk.apply(new_state(), Deal(tuple(cards(hand) for hand in MIXED[:3])))
    assert (refused.value.expected, refused.value.found) == (4, 3)


def test_K2_nothing_is_passed_play_starts_at_once() -> None:
    state, _ = deal(new_state(), MIXED)
    assert state.phase is Phase.PLAY
    assert state.to_move == BOB


def test_K2_deal_only_when_due() -> None:
    with pytest.raises(errors.WrongPhase) as refused:
        Kirk.apply(new_state(), PlayCard(card("2D")))  # before the deal
    assert refused.value.rule == "K2"
    state, _ = deal(new_state(), MIXED)
    with pytest.raises(errors.WrongPhase):
        deal(state, MIXED)  # a second deal in the middle of the hand


def test_K2_dealer_moves_left_each_hand() -> None:
    # Cat deals hand 1, then Dan, Ann, Bob; the dealer's left neighbour leads (K4).
    state = new_state(dealer="Cat")
    seen = []
    for _ in range(4):
        dealer, hand_no = state.dealer, state.hand_no
        state, events = play_suit_hand(state, SUIT_DEAL)
        started = of_type(events, HandStarted)
        assert started == [HandStarted(hand_no, dealer)]
        seen.append(dealer)
    assert seen == [CAT, DAN, ANN, BOB]
    assert [Kirk.configure(PLAYERS, dealer="Cat").dealer_of_round(k) for k in (1, 2, 3, 4, 5)] == [2, 3, 0, 1, 2]


# --------------------------------------------------------------------------- K3: values


def test_K3_values() -> None:
    assert card_value(card("2H")) == 2
    assert card_value(card("10S")) == 10
    assert card_value(card("JC")) == 11
    assert card_value(card("QH")) == 12
    assert card_value(card("KS")) == 13
    assert card_value(card("AC")) == 14
    assert card_value(card("2D")) == 3
    assert card_value(card("10D")) == 11
    assert card_value(card("KD")) == 14
    assert card_value(card("AD")) == 15


def test_K3_ten_of_diamonds_ties_a_jack() -> None:
    # 10D (11) and JH (11) tie; 9C (9) and 3S (3) are lower. Empty piles: Ann played first.
    winner, tie = trick_winner([(ANN, card("10D")), (BOB, card("9C")), (CAT, card("JH")), (DAN, card("3S"))],
                               [(), (), (), ()])
    assert winner == ANN
    assert tie.tied == (ANN, CAT)
    assert tie.decided_by is DecidedBy.FIRST_PLAYED


def test_K3_ace_of_diamonds_beats_the_other_aces() -> None:
    # AH, AS, AC are 14; AD is 15 and wins outright though played last.
    winner, tie = trick_winner([(BOB, card("AH")), (CAT, card("AS")), (DAN, card("AC")), (ANN, card("AD"))],
                               [(), (), (), ()])
    assert winner == ANN
    assert tie.tied == (ANN,) and tie.decided_by is DecidedBy.HIGHEST and tie.depth == 0


def test_K3_suits_mean_nothing_else() -> None:
    # The led suit does not matter: Bob leads 4H, Cat's 6C (6) is the single highest.
    winner, _ = trick_winner([(BOB, card("4H")), (CAT, card("6C")), (DAN, card("5H")), (ANN, card("2H"))],
                             [(), (), (), ()])
    assert winner == CAT


# --------------------------------------------------------------------------- K4: leading and playing


def test_K4_dealers_left_neighbour_leads_the_first_trick() -> None:
    for dealer, leader in (("Ann", BOB), ("Bob", CAT), ("Cat", DAN), ("Dan", ANN)):
        state, _ = deal(new_state(dealer=dealer), MIXED)
        assert state.to_move == leader
        assert state.leader == leader
        assert first_leader(state.config, state.dealer) == leader


def test_K4_no_duty_to_follow_suit() -> None:
    state, _ = deal(new_state(), MIXED)
    state, _ = play(state, "4H")
    # Cat holds 5H 9H KH, yet every card she holds is legal, and 2S is accepted.
    assert set(Kirk.legal_moves(state)) == {PlayCard(c) for c in cards(MIXED[CAT])}
    state, events = play(state, "2S")
    assert events == [CardPlayed(CAT, card("2S"), 1, False, 2)]


def test_K4_leader_may_lead_anything() -> None:
    state, _ = deal(new_state(), MIXED)
    assert set(Kirk.legal_moves(state)) == {PlayCard(c) for c in cards(MIXED[BOB])}
    assert len(Kirk.legal_moves(state)) == 13


def test_K4_card_not_held_refused() -> None:
    state, _ = deal(new_state(), MIXED)
    state, _ = play(state, "4H")
    with pytest.raises(errors.CardNotHeld) as refused:
        Kirk.apply(state, PlayCard(card("AH")))  # Cat is to move; Dan holds AH
    assert refused.value.rule == "K4"
    assert (refused.value.seat, refused.value.card) == (CAT, card("AH"))
    assert str(refused.value).startswith("Cat does not hold AH (Dan holds it)")
    with pytest.raises(errors.CardNotHeld) as refused:
        Kirk.apply(state, PlayCard(card("4H")))  # already played to this trick, by Bob
    assert (refused.value.seat, refused.value.card) == (CAT, card("4H"))
    assert "Bob" in str(refused.value)


def test_K4_card_outside_the_pack_refused_in_play() -> None:
    state, _ = deal(new_state(), MIXED)
    with pytest.raises(errors.CardNotInDeck) as refused:
        Kirk.apply(state, PlayCard(Card(11, Suit.DIAMONDS)))
    assert (refused.value.rule, refused.value.seat, refused.value.card) == ("K2", BOB, Card(11, Suit.DIAMONDS))


def test_K4_play_goes_left_and_the_winner_leads_next() -> None:
    state, _ = deal(new_state(), MIXED)
    order = []
    for token in "4H 2S 2H 3H".split():
        order.append(state.to_move)
        state, _ = play(state, token)
    assert order == [BOB, CAT, DAN, ANN]
    assert (state.trick_no, state.leader, state.to_move) == (2, BOB, BOB)  # Bob won trick 1 with 4H
    for token in MIXED_TRICKS[1].split():
        state, _ = play(state, token)
    assert (state.trick_no, state.to_move) == (3, CAT)  # Cat won trick 2 (see MIXED_TRICKS)


def test_K4_a_hand_is_13_tricks() -> None:
    state, events = play_suit_hand(new_state(), SUIT_DEAL)
    won = of_type(events, TrickWon)
    assert [t.trick_no for t in won] == list(range(1, 14))  # type: ignore[attr-defined]
    assert state.phase is Phase.DEAL and state.hand_no == 2
    assert all(not hand for hand in state.hands)


# --------------------------------------------------------------------------- K5: winning a trick, ties


def test_K5_single_highest_wins() -> None:
    state, _ = deal(new_state(), MIXED)
    state, events = play(state, "4H 2S 2H 3H")
    assert of_type(events, TieBroken) == []
    assert of_type(events, TrickWon) == [
        TrickWon(1, BOB, card("4H"), cards("4H 2S 2H 3H"), (BOB,), DecidedBy.HIGHEST, 0)
    ]


def test_K5_first_trick_tie_goes_to_the_first_played() -> None:
    # Bob leads 2C(2); Cat 9H(9), Dan 8C(8), Ann 9C(9): Cat and Ann tie, every pile is empty,
    # and Cat played before Ann (the leader, Bob, is not tied).
    state, _ = deal(new_state(), MIXED)
    state, events = play(state, "2C 9H 8C 9C")
    assert of_type(events, TieBroken) == [
        TieBroken(1, CAT, (CAT, ANN), DecidedBy.FIRST_PLAYED, 1, (TieStep(1, (), (CAT, ANN), (), (CAT, ANN)),))
    ]
    assert of_type(events, TrickWon) == [
        TrickWon(1, CAT, card("9H"), cards("2C 9H 8C 9C"), (CAT, ANN), DecidedBy.FIRST_PLAYED, 1)
    ]
    assert state.piles[CAT] == cards("2C 9H 8C 9C")


def test_K5_tied_leader_wins_a_first_trick_tie() -> None:
    # Bob leads 5S(5); Cat 5H(5), Dan 3S(3), Ann 4S(4): Bob and Cat tie, Bob played first.
    state, _ = deal(new_state(), MIXED)
    state, events = play(state, "5S 5H 3S 4S")
    won = of_type(events, TrickWon)
    assert won == [TrickWon(1, BOB, card("5S"), cards("5S 5H 3S 4S"), (BOB, CAT), DecidedBy.FIRST_PLAYED, 1)]


def test_K5_tie_broken_at_depth_1() -> None:
    # Ann leads KS(13), Bob 2H(2), Cat KH(13), Dan 3C(3): Ann and Cat tie.
    # Step 1: Ann's top 9C(9), Cat's top JD(12): Ann drops out, Cat wins.
    state, events, tie = tie_at(leader=ANN,
                                hands=["KS 4S", "2H 5H", "KH 6H", "3C 7C"],
                                piles=["2S 3S 8C 9C", "", "4C 5C 6C JD", ""], plays="KS 2H KH 3C")
    assert tie == TieBroken(5, CAT, (ANN, CAT), DecidedBy.PILES, 1, (
        TieStep(1, ((ANN, card("9C")), (CAT, card("JD"))), (), (ANN,), (CAT,)),
    ))
    assert of_type(events, TrickWon) == [
        TrickWon(5, CAT, card("KH"), cards("KS 2H KH 3C"), (ANN, CAT), DecidedBy.PILES, 1)
    ]
    assert state.leader == CAT and state.to_move == CAT


def test_K5_tie_broken_at_depth_2() -> None:
    # Bob leads 8S(8); Cat 8H(8); Dan 2C(2); Ann 7D(8): Bob, Cat and Ann tie on 8.
    # Piles (bottom first): Ann "2H 3H QC 7H", Bob "4H 5H 10D 7C", Cat "2S 3S JC 7S".
    # Step 1 reveals Bob 7C(7), Cat 7S(7), Ann 7H(7): all three still tied.
    # Step 2 reveals Bob 10D(11), Cat JC(11), Ann QC(12): Bob and Cat drop out → Ann at depth 2.
    state, events, tie = tie_at(leader=BOB,
                                hands=["7D 9D", "8S 9S", "8H 9H", "2C 9C"],
                                piles=["2H 3H QC 7H", "4H 5H 10D 7C", "2S 3S JC 7S", ""], plays="8S 8H 2C 7D")
    assert tie == TieBroken(5, ANN, (BOB, CAT, ANN), DecidedBy.PILES, 2, (
        TieStep(1, ((BOB, card("7C")), (CAT, card("7S")), (ANN, card("7H"))), (), (), (BOB, CAT, ANN)),
        TieStep(2, ((BOB, card("10D")), (CAT, card("JC")), (ANN, card("QC"))), (), (BOB, CAT), (ANN,)),
    ))
    won = of_type(events, TrickWon)
    assert won == [TrickWon(5, ANN, card("7D"), cards("8S 8H 2C 7D"), (BOB, CAT, ANN), DecidedBy.PILES, 2)]


def test_K5_revealed_values_count_diamonds_one_higher() -> None:
    # Ann and Cat tie with QS/QH. Step 1: Ann's 10D(11) ties Cat's JS(11); step 2: Ann 5H(5), Cat 4D(5):
    # tied again; step 3: Ann 2C(2), Cat 3C(3): Cat wins at depth 3.
    state, events, tie = tie_at(leader=ANN,
                                hands=["QS 8S", "2H 8H", "QH 9H", "3S 9S"],
                                piles=["4C 2C 5H 10D", "", "6C 3C 4D JS", ""], plays="QS 2H QH 3S")
    assert (tie.winner, tie.decided_by, tie.depth) == (CAT, DecidedBy.PILES, 3)
    assert [step.remaining for step in tie.steps] == [(ANN, CAT), (ANN, CAT), (CAT,)]


def test_K5_player_with_an_empty_pile_drops_out() -> None:
    # Ann leads 9S(9), Bob 9H(9), Cat 2C(2), Dan 3C(3): Ann (empty pile) and Bob tie.
    # Step 1: Ann has no card, Bob has one (his top 2D): Ann drops out, Bob wins, whatever his card.
    state, events, tie = tie_at(leader=ANN,
                                hands=["9S 4S", "9H 4H", "2C 5C", "3C 6C"],
                                piles=["", "3H 5H 6H 2D", "", ""], plays="9S 9H 2C 3C")
    assert tie == TieBroken(5, BOB, (ANN, BOB), DecidedBy.PILES, 1, (
        TieStep(1, ((BOB, card("2D")),), (ANN,), (), (BOB,)),
    ))


def test_K5_pile_running_out_deeper_drops_out() -> None:
    # Ann and Cat tie with JS/JH. Ann's pile has 4 cards, Cat's 8; their top four cards match in value
    # (5H/5S, 4H/4S, 3H/3S, 2H/2S). Step 5: Ann has no fifth card, Cat reveals 9C: Cat wins at depth 5.
    state, events, tie = tie_at(leader=ANN,
                                hands=["JS 10S", "2C 3C", "JH 10H", "4C 5C"],
                                piles=["2H 3H 4H 5H", "", "6C 7C 8C 9C 2S 3S 4S 5S", ""], plays="JS 2C JH 4C")
    assert (tie.winner, tie.decided_by, tie.depth) == (CAT, DecidedBy.PILES, 5)
    assert tie.steps[4] == TieStep(5, ((CAT, card("9C")),), (ANN,), (), (CAT,))
    assert [step.remaining for step in tie.steps[:4]] == [(ANN, CAT)] * 4


def test_K5_none_with_a_card_goes_to_the_first_played_of_those_still_tied() -> None:
    # Ann leads 6S(6), Bob 6H(6), Cat 6C(6), Dan 2S(2): Ann, Bob and Cat tie.
    # Step 1: Ann's pile is empty, so she drops out (Bob and Cat have cards) though she played first;
    # Bob and Cat reveal 5H/5C, then 4H/4C, 3H/3C, 2H/2C: still tied after step 4.
    # Step 5: neither has a card left → the first of them to play, Bob.
    state, events, tie = tie_at(leader=ANN,
                                hands=["6S 7S", "6H 7H", "6C 7C", "2S 8S"],
                                piles=["", "2H 3H 4H 5H", "2C 3C 4C 5C", ""], plays="6S 6H 6C 2S")
    assert (tie.winner, tie.tied, tie.decided_by, tie.depth) == (BOB, (ANN, BOB, CAT), DecidedBy.FIRST_PLAYED, 5)
    assert tie.steps[0] == TieStep(1, ((BOB, card("5H")), (CAT, card("5C"))), (ANN,), (), (BOB, CAT))
    assert tie.steps[4] == TieStep(5, (), (BOB, CAT), (), (BOB, CAT))
    assert tie.steps[4].dropped == ()
    assert state.to_move == BOB


def test_K5_revealed_cards_stay_in_their_piles() -> None:
    # As in the depth-2 test: Ann wins; only the trick's four cards join her pile, on top.
    piles = ["2H 3H QC 7H", "4H 5H 10D 7C", "2S 3S JC 7S", ""]
    state = position(leader=BOB, hands=["7D 9D", "8S 9S", "8H 9H", "2C 9C"], piles=piles)
    state, _ = play(state, "8S 8H 2C 7D")
    assert state.piles == (
        cards("2H 3H QC 7H 8S 8H 2C 7D"),
        cards("4H 5H 10D 7C"),
        cards("2S 3S JC 7S"),
        (),
    )


def test_K5_trick_winner_is_pure() -> None:
    piles = (cards("2H 3H QC 7H"), cards("4H 5H 10D 7C"), cards("2S 3S JC 7S"), ())
    plays = ((BOB, card("8S")), (CAT, card("8H")), (DAN, card("2C")), (ANN, card("7D")))
    first = trick_winner(plays, piles)
    assert first == trick_winner(plays, piles)
    assert first[0] == ANN
    assert piles == (cards("2H 3H QC 7H"), cards("4H 5H 10D 7C"), cards("2S 3S JC 7S"), ())


def test_K5_mixed_hand_ties() -> None:
    # Tricks 2 and 3 of MIXED_TRICKS (worked out above that list).
    state, _ = deal(new_state(), MIXED)
    state, _ = play(state, MIXED_TRICKS[0])
    state, events = play(state, MIXED_TRICKS[1])
    assert of_type(events, TieBroken) == [TieBroken(2, CAT, (CAT, DAN, ANN), DecidedBy.FIRST_PLAYED, 1, (
        TieStep(1, (), (CAT, DAN, ANN), (), (CAT, DAN, ANN)),
    ))]
    state, events = play(state, MIXED_TRICKS[2])
    assert of_type(events, TieBroken) == [TieBroken(3, CAT, (CAT, BOB), DecidedBy.PILES, 2, (
        TieStep(1, ((CAT, card("2D")), (BOB, card("3H"))), (), (), (CAT, BOB)),
        TieStep(2, ((CAT, card("3S")), (BOB, card("2H"))), (), (BOB,), (CAT,)),
    ))]


# --------------------------------------------------------------------------- K6: the scoring piles


def test_K6_pile_order() -> None:
    state, _ = deal(new_state(), MIXED)
    for trick in MIXED_TRICKS:
        state, _ = play(state, trick)
    assert state.piles == (
        cards("AS AH AD AC"),  # trick 4
        cards("4H 2S 2H 3H"),  # trick 1
        cards("2C 3C 3S 2D 5H 4C 4S 5S"),  # tricks 2 and 3, in the order won, each in play order
        cards("5C 3D 4D 5D KD KC KS KH"),  # tricks 5 and 6
    )
    # The top card is the last card played to the most recent trick won.
    assert [pile[-1] for pile in state.piles] == list(cards("AC 3H 5S KH"))
    assert state.tricks_won == (1, 1, 2, 2)


def test_K6_piles_start_empty_every_hand() -> None:
    state, _ = play_suit_hand(new_state(), SUIT_DEAL)
    assert state.phase is Phase.DEAL
    assert state.piles == ((), (), (), ())
    state, _ = deal(state, SUIT_DEAL)
    assert state.piles == ((), (), (), ())
    # Hand 2: Bob deals, Cat leads. A tie on the first trick of hand 2 is decided by play order,
    # not by what the players won in hand 1.
    winner, tie = trick_winner([(CAT, card("5S")), (DAN, card("5C")), (ANN, card("2D")), (BOB, card("3H"))],
                               state.piles)
    assert (winner, tie.decided_by) == (CAT, DecidedBy.FIRST_PLAYED)


# --------------------------------------------------------------------------- K7: scoring


@pytest.mark.parametrize("text, points", [
    ("2H", 1), ("10S", 1), ("7C", 1), ("JH", 5), ("QS", 5), ("KC", 5), ("AH", 10), ("AS", 10), ("AC", 10),
    ("2D", 3), ("10D", 3), ("JD", 10), ("QD", 10), ("KD", 10), ("AD", 20),
])
def test_K7_card_points(text: str, points: int) -> None:
    assert card_points(card(text)) == points


def test_K7_179_points_per_hand() -> None:
    # Per non-Diamond suit: nine 2-10 (9) + J Q K (15) + A (10) = 34; Diamonds: 27 + 30 + 20 = 77.
    # 3 × 34 + 77 = 179.
    assert sum(card_points(c) for c in Kirk.configure(PLAYERS).deck) == 179


def test_K7_hand_scored_from_the_piles() -> None:
    # Ann holds every Diamond and wins all 13 tricks: her pile is the whole pack.
    state, events = play_suit_hand(new_state(), SUIT_DEAL)
    assert of_type(events, HandScored) == [HandScored(1, (179, 0, 0, 0), (179, 0, 0, 0))]
    assert state.totals == (179, 0, 0, 0)


def test_K7_points_in_the_piles_mid_hand() -> None:
    # After the six MIXED_TRICKS: Ann AS AH AD AC = 10+10+20+10 = 50; Bob four low cards = 4;
    # Cat 2C 3C 3S 2D 5H 4C 4S 5S = 1+1+1+3+1+1+1+1 = 10; Dan 5C 3D 4D 5D KD KC KS KH = 1+3+3+3+10+5+5+5 = 35.
    state, _ = deal(new_state(), MIXED)
    for trick in MIXED_TRICKS:
        state, _ = play(state, trick)
    assert state.hand_points == (50, 4, 10, 35)
    assert state.totals == (0, 0, 0, 0)  # scored only at the end of the hand


def test_K7_scores_add_up_over_hands() -> None:
    # Hand 1: Ann holds the Diamonds; hand 2: the hands move one seat left, so Bob does.
    state = new_state(Hands="3")
    state, first = play_suit_hand(state, SUIT_DEAL)
    state, second = play_suit_hand(state, rotate(SUIT_DEAL, 1))
    assert of_type(first + second, HandScored) == [
        HandScored(1, (179, 0, 0, 0), (179, 0, 0, 0)),
        HandScored(2, (0, 179, 0, 0), (179, 179, 0, 0)),
    ]


# --------------------------------------------------------------------------- K8: the end of the game


def test_K8_hands_default_4() -> None:
    state = new_state()
    assert (state.config.hands, state.config.target) == (4, None)
    assert Kirk.option_tags == ("Hands", "Target") and Kirk.rounds_word == "hand"
    for _hand_no in range(1, 5):
        assert not Kirk.is_over(state)
        state, events = play_suit_hand(state, SUIT_DEAL)
    # Ann wins every hand: 4 × 179 = 716.
    assert Kirk.is_over(state) and state.phase is Phase.GAME_OVER
    assert of_type(events, GameEnded) == [GameEnded((
        KirkResult(ANN, 716, True), KirkResult(BOB, 0, False), KirkResult(CAT, 0, False),
        KirkResult(DAN, 0, False),
    ))]
    assert Kirk.to_move(state) is None
    assert Kirk.legal_moves(state) == ()


def test_K8_hands_2() -> None:
    state = new_state(Hands="2")
    state, events = play_suit_hand(state, SUIT_DEAL)
    assert not Kirk.is_over(state) and of_type(events, GameEnded) == []
    state, events = play_suit_hand(state, SUIT_DEAL)
    assert Kirk.is_over(state)
    assert [e.winners for e in of_type(events, GameEnded)] == [(ANN,)]  # type: ignore[attr-defined]
    assert state.totals == (358, 0, 0, 0)


def test_K8_target_ends_after_the_hand_that_reaches_it() -> None:
    # Target 300: after hand 1 Ann has 179 (< 300), after hand 2 358 (≥ 300): over after hand 2.
    state = new_state(Target="300")
    assert (state.config.hands, state.config.target) == (None, 300)
    state, _ = play_suit_hand(state, SUIT_DEAL)
    assert not Kirk.is_over(state)
    state, events = play_suit_hand(state, SUIT_DEAL)
    assert Kirk.is_over(state)
    assert of_type(events, HandScored) == [HandScored(2, (179, 0, 0, 0), (358, 0, 0, 0))]


def test_K8_target_reached_exactly() -> None:
    # Target 179: Ann's 179 after hand 1 reaches it.
    state, _ = play_suit_hand(new_state(Target="179"), SUIT_DEAL)
    assert Kirk.is_over(state)
    state, _ = play_suit_hand(new_state(Target="180"), SUIT_DEAL)
    assert not Kirk.is_over(state)


def test_K8_target_game_can_outlast_four_hands() -> None:
    # Target 717: Ann has 179, 358, 537, then 716 after four hands: not yet, a fifth hand is due.
    state = new_state(Target="717")
    for _ in range(4):
        state, _ = play_suit_hand(state, SUIT_DEAL)
    assert not Kirk.is_over(state) and state.hand_no == 5


def test_K8_both_tags_refused() -> None:
    with pytest.raises(ConfigError) as refused:
        Kirk.configure(PLAYERS, options={"Hands": "4", "Target": "300"})
    assert refused.value.rule == "K8"
    assert refused.value.tag in ("Hands", "Target")


@pytest.mark.parametrize("tag, value", [
    ("Hands", "0"), ("Hands", "-1"), ("Hands", "two"), ("Hands", "2.5"), ("Hands", ""),
    ("Target", "0"), ("Target", "-100"), ("Target", "lots"),
])
def test_K8_tag_must_be_a_positive_whole_number(tag: str, value: str) -> None:
    with pytest.raises(ConfigError) as refused:
        Kirk.configure(PLAYERS, options={tag: value})
    assert refused.value.tag == tag


def test_K8_shared_win_on_a_tie() -> None:
    # Hand 1 Ann holds the Diamonds, hand 2 Bob: 179 each, both share the win.
    state = new_state(Hands="2")
    state, _ = play_suit_hand(state, SUIT_DEAL)
    state, events = play_suit_hand(state, rotate(SUIT_DEAL, 1))
    assert Kirk.is_over(state)
    expected = (KirkResult(ANN, 179, True), KirkResult(BOB, 179, True), KirkResult(CAT, 0, False),
                KirkResult(DAN, 0, False))
    assert Kirk.standings(state) == expected
    assert of_type(events, GameEnded) == [GameEnded(expected)]
    assert GameEnded(expected).winners == (ANN, BOB)


def test_K8_no_move_after_the_end() -> None:
    state, _ = play_suit_hand(new_state(Hands="1"), SUIT_DEAL)
    assert Kirk.is_over(state)
    for move in (PlayCard(card("2D")), Deal(tuple(cards(hand) for hand in SUIT_DEAL))):
        with pytest.raises(errors.GameOver) as refused:
            Kirk.apply(state, move)
        assert refused.value.rule == "K8"
    with pytest.raises(errors.GameOver):
        Kirk.random_move(state, random.Random(0))


# --------------------------------------------------------------------------- the family protocol


def test_protocol() -> None:
    assert issubclass(Kirk, Rules)
    assert (Kirk.id, Kirk.family) == ("kirk", "kirk")
    config = Kirk.configure(PLAYERS, dealer="Dan")
    assert config is Kirk.configure(PLAYERS, dealer="Dan")  # configurations are cached values
    state = Kirk.initial_state(config)
    assert state.round_no == state.hand_no == 1 and Kirk.to_move(state) is None
    table = Kirk.table(state)
    assert not isinstance(table, PureTable)  # Kirk has its own fast table (kirk/fast.py)
    table.apply(Kirk.random_move(state, random.Random(3)))
    assert Kirk.to_move(table.freeze()) == ANN  # Dan dealt
    assert str(PlayCard(card("10D"))) == "10D"
    assert str(Deal((cards("2D 3D"), cards("4H")))) == "2D 3D / 4H"


# --------------------------------------------------------------------------- random games


# K2's pack written out again: ranks 2-10 and J 11, Q 12, K 13, A 14 (lettered) in each suit.
PACK = tuple(Card(rank, suit, rank > 10) for suit in Suit for rank in range(2, 15))
DECK = frozenset(PACK)
GAMES = 200
EXHAUSTIVE_GAMES = 25  # games in which every card not held is tried at every move; the rest try three


def refusal(state: State, move: PlayCard) -> errors.IllegalMove | None:
    """The error `move` is refused with (pytest.raises is too slow for thousands of tries)."""
    try:
        Kirk.apply(state, move)
    except errors.IllegalMove as error:
        return error
    return None


def check_position(state: State) -> None:
    """Where every card is, and how many each seat holds (K2, K4, K6)."""
    if state.phase is not Phase.PLAY:
        assert all(not hand for hand in state.hands)
        return
    played = {seat for seat, _ in state.trick}
    for seat in range(4):
        assert len(state.hands[seat]) == 13 - (state.trick_no - 1) - (seat in played)
    everywhere = [c for hand in state.hands for c in hand] + [c for _, c in state.trick] + \
        [c for pile in state.piles for c in pile]
    assert len(everywhere) == 52 and set(everywhere) == DECK
    assert sum(len(pile) for pile in state.piles) == 4 * (state.trick_no - 1)


@pytest.mark.parametrize("chunk", range(4))
def test_random_games_keep_the_rules(chunk: int) -> None:
    for game_no in range(chunk * GAMES // 4, (chunk + 1) * GAMES // 4):
        rng = random.Random(game_no)
        options = {"Target": str(rng.randint(100, 400))} if game_no % 5 == 0 else {"Hands": str(rng.randint(1, 4))}
        state = Kirk.initial_state(Kirk.configure(PLAYERS, dealer=PLAYERS[game_no % 4], options=options))
        totals = [0, 0, 0, 0]
        best_before: list[int] = []  # per hand: the highest total before it was scored
        hands_played = 0
        while not Kirk.is_over(state):
            check_position(state)
            move = Kirk.random_move(state, rng)
            if state.phase is Phase.DEAL:
                assert isinstance(move, Deal)
                dealt = [c for hand in move.hands for c in hand]
                assert len(dealt) == 52 and set(dealt) == DECK
                assert all(len(hand) == 13 for hand in move.hands)
            else:
                seat = Kirk.to_move(state)
                assert seat is not None
                legal = Kirk.legal_moves(state)
                assert move in legal
                assert {m.card for m in legal} == state.hands[seat]  # type: ignore[union-attr]
                others = [c for c in PACK if c not in state.hands[seat]]
                tried = others if game_no < EXHAUSTIVE_GAMES else rng.sample(others, 3)
                for other in tried:
                    refused = refusal(state, PlayCard(other))
                    assert isinstance(refused, errors.CardNotHeld) and type(refused) is errors.CardNotHeld, (other, refused)
                    assert (refused.seat, refused.card, refused.rule) == (seat, other, "K4")
            state, events = Kirk.apply(state, move)
            for event in events:
                if isinstance(event, HandScored):
                    hands_played += 1
                    assert sum(event.points) == 179
                    best_before.append(max(totals))
                    totals = [t + p for t, p in zip(totals, event.points)]
                    assert event.totals == tuple(totals)
                if isinstance(event, TrickWon):
                    best = max(card_value(c) for c in event.cards)
                    assert card_value(event.card) == best
                    assert event.winner in event.tied
        assert state.totals == tuple(totals)
        if "Hands" in options:
            assert hands_played == int(options["Hands"])
        else:
            target = int(options["Target"])
            assert max(totals) >= target
            assert all(best < target for best in best_before)  # no earlier hand had reached it
        best = max(totals)
        assert [s.winner for s in Kirk.standings(state)] == [t == best for t in totals]


def test_refused_moves_are_illegal_moves() -> None:
    state, _ = deal(new_state(), MIXED)
    for error in (errors.CardNotHeld, errors.CardNotInDeck, errors.CardTwice, errors.GameOver, errors.InvalidDeal,
                  errors.WrongPhase):
        assert issubclass(error, errors.IllegalMove)
    with pytest.raises(errors.IllegalMove):
        Kirk.apply(state, PlayCard(card("AD")))  # Ann's, and Bob is to move
