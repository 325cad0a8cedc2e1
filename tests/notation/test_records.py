"""notation.records: the typed items of a game, and the lazy `Plays` of a line."""

from __future__ import annotations

import pytest

from diamonds.core import Card
from diamonds.notation.records import Choice, Play, Plays, Pos, Trick, unchecked_constructor


@pytest.mark.parametrize("token, card, choice, annotation", [
    ("5H", "5H", None, None),
    ("15C>Bob", "15C", "Bob", None),
    ("12c!?", "12C", None, "!?"),
    ("3♠>Ann-2??", "3S", "Ann-2", "??"),
    ("10D!", "10D", None, "!"),
])
def test_play_from_token_reads_card_choice_and_annotation_in_place(token, card, choice, annotation):
    play = Play.from_token(token, Pos(4, 7))
    assert play.card is Card.parse(card)
    assert play.annotation == annotation
    assert play.pos == Pos(4, 7) and play.length == len(token)
    if choice is None:
        assert play.choice is None
    else:  # the choice starts after the card's text, at its `>`
        assert play.choice == Choice(choice)
        assert play.choice.pos == Pos(4, 7 + token.index(">"))


def test_plays_of_a_line_are_made_when_asked_and_placed_on_their_tokens():
    line = "3.  5H 12C>Bob  9S!"
    cards = tuple(Card.parse(t) for t in ("5H", "12C", "9S"))
    lazy = Plays.from_line(cards, line, 12, 1, plain=False)
    assert lazy.cards == cards and len(lazy) == 3
    assert not lazy.plain
    assert [(p.pos, p.length) for p in lazy] == [(Pos(12, 5), 2), (Pos(12, 8), 7), (Pos(12, 17), 3)]
    assert lazy[1].choice == Choice("Bob") and lazy[1].choice.pos == Pos(12, 11)
    assert lazy[2].annotation == "!"
    assert lazy == Plays(list(lazy))  # equal to the same items made eagerly
    plain = Plays.from_line(cards, "3. 5H 12C 9S", 12, 1)
    assert plain.plain and plain != lazy  # the same cards, but no choice or annotation


def test_an_unchecked_constructor_makes_the_same_frozen_record():
    make = unchecked_constructor(Trick)
    plays = Plays.from_line((Card.parse("5H"),), "1. 5H", 3, 1)
    made = make(1, plays, (), Pos(3, 1))
    assert made == Trick(1, plays, pos=Pos(3, 1)) and made.pos == Pos(3, 1)
    with pytest.raises(AttributeError):
        made.number = 2  # type: ignore[misc]  # still frozen
