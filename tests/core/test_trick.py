"""A plain trick game as the house knows one (diamonds.core.trick), and a family naming the house's parts for it.

The moves' words go both ways as the reader reads them; the random deal deals the configuration's deck,
`hand_size` a seat; a rule set that states no rulings gets none; and `Family.part` finds a part the family
names in the house (`diamonds.replay.plain:BRIDGE`) as it finds one in its own package.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from diamonds.core import NotationError, Rules, numbered_cards
from diamonds.core.cards import Card
from diamonds.core.family import Family, MissingPart
from diamonds.core.seating import Seating
from diamonds.core.trick import Deal, PlayCard, TrickRulings, move_text, parse_move, random_deal, rulings_of


@dataclass(frozen=True, slots=True)
class ThreeSeats(Seating):
    deck: tuple[Card, ...] = numbered_cards(1, 4)  # 16 cards
    hand_size: int = 5


CONFIG = ThreeSeats("plain", ("Ann", "Bob", "Cat"), 0, ((0,), (1,), (2,)), (0, 1, 2))


@pytest.mark.parametrize("seed", range(5))
def test_a_random_deal_gives_each_seat_its_hand_size_from_the_deck(seed: int) -> None:
    deal = random_deal(CONFIG, random.Random(seed))
    dealt = [card for hand in deal.hands for card in hand]
    assert [len(hand) for hand in deal.hands] == [5, 5, 5] and len(set(dealt)) == 15
    assert set(dealt) <= set(CONFIG.deck)
    assert deal == random_deal(CONFIG, random.Random(seed)) != random_deal(CONFIG, random.Random(seed + 10))


def test_a_moves_words_read_back_as_the_move() -> None:
    deal = random_deal(CONFIG, random.Random(1))
    text = move_text(CONFIG, deal)
    assert text.splitlines()[1].startswith("deal Bob ") and parse_move(CONFIG, text, dealing=True) == deal
    assert parse_move(CONFIG, text, dealing=False) == deal  # deal lines say what they are
    assert parse_move(CONFIG, "3h!?", dealing=False) == PlayCard(Card.parse("3H"))
    assert move_text(CONFIG, PlayCard(Card.parse("3H"))) == "3H"


@pytest.mark.parametrize(("text", "dealing", "column"), [("3H 4D", False, 4), ("", False, 1), ("", True, 1),
                                                          ("deal Ann 1D", True, 1), ("9X", False, 1)])
def test_words_that_are_no_move_are_refused_at_their_column(text: str, dealing: bool, column: int) -> None:
    with pytest.raises(NotationError) as info:
        parse_move(CONFIG, text, dealing=dealing)
    assert info.value.column == column


def test_a_rule_set_that_states_no_rulings_gets_none() -> None:
    class Stated(Rules):
        rulings = TrickRulings(play="Z4")

    assert rulings_of(Stated).play == "Z4" and rulings_of(Rules) == TrickRulings()
    assert Deal(((Card.parse("1D"),), (Card.parse("2D"),))).hands[1] == (Card.parse("2D"),)


def test_a_family_names_a_part_in_the_house_or_in_its_own_package() -> None:
    from diamonds.replay.plain import BRIDGE

    family = Family(name="plain", title="a plain trick game", rule_sets=(), package="diamonds.families.kirk",
                    parts={"bridge": "diamonds.replay.plain:BRIDGE", "view": "view:VIEW",
                           "bot": "diamonds.replay.plain:NO_SUCH_PART", "stats": "diamonds.no_such_module:STATS"})
    assert family.part("bridge") is BRIDGE
    from diamonds.families.kirk.view import VIEW

    assert family.part("view") is VIEW  # relative to its package, as before
    assert family.part("bot", None) is None and family.part("stats", "default") == "default"
    with pytest.raises(MissingPart):
        family.part("bot")
