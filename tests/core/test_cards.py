"""diamonds_core.cards: suits, cards, decks and their text forms (the DGN card syntax)."""

from __future__ import annotations

import copy
import pickle

import pytest

from diamonds.core import MAX_RANK, SUITS, Card, CardParseError, Suit, format_cards, sort_cards
from diamonds.core.cards import JOKER, card_texts, numbered_cards, standard_cards
from diamonds.families.fitzgerald.rules import deck

LETTERS = "DHSC"  # the suits in award order (R16): Diamonds, Hearts, Spades, Clubs
SYMBOLS = "♦♥♠♣"
ALL_TEXTS = [f"{rank}{letter}" for letter in LETTERS for rank in range(1, 16)]


def test_there_are_four_suits_in_award_order():
    assert SUITS == (Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.CLUBS)
    assert [s.letter for s in SUITS] == list(LETTERS)
    assert [s.symbol for s in SUITS] == list(SYMBOLS)
    assert [s.title for s in SUITS] == ["Diamonds", "Hearts", "Spades", "Clubs"]
    assert [s.index for s in SUITS] == [0, 1, 2, 3]
    assert MAX_RANK == 15


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_every_card_round_trips_through_text(text):
    parsed = Card.parse(text)
    assert str(parsed) == text
    assert parsed.rank == int(text[:-1])
    assert parsed.suit.letter == text[-1]
    assert Card.parse(str(parsed)) is parsed


def test_sixty_distinct_cards():
    assert len({Card.parse(text) for text in ALL_TEXTS}) == 60


@pytest.mark.parametrize("letter, symbol", list(zip(LETTERS, SYMBOLS)))
def test_suit_symbols_and_lowercase_letters_parse(letter, symbol):
    suit = Suit.parse(letter)
    assert Suit.parse(symbol) is suit and Suit.parse(letter.lower()) is suit
    for rank in (1, 9, 15):
        canonical = Card.parse(f"{rank}{letter}")
        assert Card.parse(f"{rank}{symbol}") is canonical
        assert Card.parse(f"{rank}{letter.lower()}") is canonical
        assert str(Card.parse(f"{rank}{symbol}")) == f"{rank}{letter}"  # printed canonically


@pytest.mark.parametrize("text", [
    "07D", "016D", "16D", "0D", "99H", "-1D", "D", "12", "", "12X", "1 D", " 12H", "12H ", "12HH",
    "H12", "1.0D", "١D", "+1D", "1DD", "15♦♦",
])
def test_malformed_cards_are_refused(text):
    with pytest.raises(CardParseError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("text", ["X", "", "DD", "diamonds", "♢", "1"])
def test_malformed_suits_are_refused(text):
    with pytest.raises(CardParseError) as info:
        Suit.parse(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("rank, suit", [(0, Suit.DIAMONDS), (16, Suit.CLUBS), (-1, Suit.HEARTS),
                                        (1, "D"), ("1", Suit.DIAMONDS)])
def test_card_constructor_refuses_what_is_not_a_card(rank, suit):
    with pytest.raises(CardParseError):
        Card(rank, suit)


def test_cards_are_interned_values():
    assert Card(7, Suit.DIAMONDS) is Card.parse("7D")
    assert Card(7, Suit.DIAMONDS) == Card.parse("7d")
    assert Card(7, Suit.DIAMONDS) != Card(7, Suit.HEARTS)
    assert len({Card(7, Suit.DIAMONDS), Card.parse("7♦")}) == 1
    with pytest.raises(AttributeError):
        Card.parse("7D").rank = 8  # type: ignore[misc]


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_repr_evaluates_back_to_the_card(text):
    parsed = Card.parse(text)
    assert repr(parsed) == f"Card.parse('{text}')"
    assert eval(repr(parsed), {"Card": Card}) is parsed


def test_suit_repr_evaluates_back():
    for suit in SUITS:
        assert eval(repr(suit), {"Suit": Suit}) is suit


def test_copy_and_pickle_keep_identity():
    c = Card.parse("12S")
    assert copy.copy(c) is c and copy.deepcopy(c) is c
    assert pickle.loads(pickle.dumps(c)) is c
    assert copy.deepcopy({"hand": (c,)})["hand"][0] is c


def test_full_deck_in_suit_then_rank_order():
    cards = deck()
    assert len(cards) == 60
    assert [str(c) for c in cards] == ALL_TEXTS


@pytest.mark.parametrize("top, size", [(13, 52), (9, 36), (8, 32), (15, 60)])
def test_reduced_decks_for_perfect_diamonds(top, size):
    # R5: the Perfect Diamonds decks drop the high ranks of every suit.
    cards = deck(top)
    assert len(cards) == size
    assert max(c.rank for c in cards) == top
    assert all(sum(1 for c in cards if c.suit is s) == top for s in SUITS)


def test_sort_cards_orders_by_suit_then_rank_and_format_joins():
    shuffled = [Card.parse(t) for t in ["3C", "15D", "1H", "10S", "2D", "9H", "1C"]]
    ordered = sort_cards(shuffled)
    assert format_cards(ordered) == "2D 15D 1H 9H 10S 1C 3C"  # D, H, S, C; 10 after 9 numerically
    assert format_cards([]) == ""
    assert Card.parse("10S").sort_key == (2, 10)


def test_card_texts_are_each_cards_own_text_in_order() -> None:
    """`card_texts` (what an export writes for a line of cards) says what `str` says, the Joker included."""
    cards = [*standard_cards(), JOKER, *reversed(numbered_cards(1, MAX_RANK))]
    assert card_texts(cards) == [str(card) for card in cards]
    assert format_cards(cards) == " ".join(str(card) for card in cards)
    assert card_texts(iter(())) == []
