"""The words of a move, for every family: cards, names and deal lines read the way the DGN reader reads them.

A family's `Rules.move_text` / `parse_move` are built from these, so that
`Position.parse("9h")` forgives what the reader forgives (either case, `T`
for 10, suit symbols, an annotation such as `!?`) and every refusal is a
`NotationError` that says which word, where, and what was expected.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Final

from .cards import AnyCard, Card, card_text
from .errors import NotationError
from .word import Word

__all__ = ["Word", "words", "card_of", "suited_card_of", "one_word", "seat_named", "is_digits", "count_of",
           "deal_text", "parse_deal", "refuse"]

_WORD: Final = re.compile(r"\S+")
_ANNOTATION: Final = re.compile(r"(?:!!|\?\?|!\?|\?!|!|\?)\Z")


def words(text: str) -> list[Word]:
    """The words of `text`, each knowing its column."""
    return [Word(match.group(), match.start() + 1) for match in _WORD.finditer(text)]


def refuse(text: str, word: Word | None, reason: str, expected: str, rule: str | None = None) -> NotationError:
    """The error for `word` (None: the text as a whole) of a move's text."""
    column = word.column if word is not None else 1
    return NotationError(f"{reason} (expected {expected})", text=text, column=column, expected=expected,
                         rule=rule)


def card_of(text: str, word: Word, *, marks: str = "") -> AnyCard:
    """The card a word spells, an annotation (`9H!?`) allowed after it; `marks` are suffixes the caller reads."""
    if not marks:  # most words are the card alone
        card = card_text(word)
        if card is not None:
            return card
    body = _ANNOTATION.sub("", word)
    if marks:
        body = body.rstrip(marks)
    card = card_text(body)
    if card is None:
        raise refuse(text, word, f'"{word}" is not a card', "a card such as 9H, 12C, QS, AH or Jo")
    return card


def _marked(body: str) -> tuple[AnyCard, str] | None:
    """A card word with the bidding game's marks after it (B7: high or low, a Joker's given suit, or both): the
    card and the marks; None for anything else."""
    for cut in (1, 2):
        card, mark = card_text(body[:-cut]), body[-cut:]
        if card is not None and _MARK.fullmatch(mark):
            return card, mark
    return None


_MARK: Final = re.compile("[DHSC\u2666\u2665\u2660\u2663]?[+-]|[DHSC\u2666\u2665\u2660\u2663]", re.IGNORECASE)


def suited_card_of(text: str, word: Word, *, refusal: Callable[[AnyCard], str], rule: str,
                   game: str | None = None) -> Card:
    """`card_of` in a game without the Joker: `Jo` (a card of no suit) is another game's word, refused with
    the game's `refusal(card)` (`Jo is not in this game's deck (ranks 1-15)`) and `rule` at the word's column.
    The refusal is worded only when it is given: a card is read far more often than refused. `game`: its name,
    where its cards carry no marks: another game's mark on a card (`AH-`, `6S+`: B7's high, low or given suit)
    is refused as such at the mark, with `rule`."""
    try:
        card = card_of(text, word)
    except NotationError:
        body = _ANNOTATION.sub("", word)
        marked = _marked(body) if game is not None else None
        if marked is None:
            raise
        card, mark = marked
        if isinstance(card, Card):
            raise NotationError(f"`{mark}` after {card}: a {game} game has no high, low or given suits",
                                text=text, column=word.column + len(body) - len(mark), expected=str(card),
                                rule=rule, code="choice-not-allowed") from None
    if not isinstance(card, Card):
        raise NotationError(refusal(card), text=text, column=word.column,
                            expected="a card of this game's deck", rule=rule)
    return card


def one_word(text: str) -> Word:
    """The one word of `text` (a card word as the replay checks it)."""
    found = words(text)
    if len(found) != 1:
        raise refuse(text, found[1] if found else None, "one word is one card", "one card")
    return found[0]


def seat_named(text: str, word: Word, players: Sequence[str]) -> int:
    """The seat a player's id names (ids are distinct ignoring case, so case is forgiven)."""
    wanted = word.lstrip(">").lower()
    for seat, name in enumerate(players):
        if name.lower() == wanted:
            return seat
    raise refuse(text, word, f'"{word.lstrip(">")}" is not a player of this game', "one of " + ", ".join(players))


def is_digits(word: str) -> bool:
    """Whether `word` is written in the digits 0-9 alone, as DGN writes a number (`str.isdigit` alone also
    takes other scripts' digits and superscripts, which `int` reads, or refuses, otherwise)."""
    return word.isascii() and word.isdigit()


def count_of(text: str, word: Word, what: str) -> int:
    if is_digits(word) and (len(word) == 1 or not word.startswith("0")):
        return int(word)
    unsigned = word[1:] if word[:1] in "+-" else word
    if not is_digits(unsigned):
        why = "is not a whole number"
    elif word.startswith("-") and unsigned.strip("0"):
        why = "is below 0"
    else:  # +3, 07, -0
        why = "is not written as a count is (digits 0-9, no sign, no leading 0)"
    raise refuse(text, word, f'"{word}" {why}', what)


def deal_text(players: Sequence[str], hands: Iterable[Iterable[AnyCard]], *extra: str) -> str:
    """A deal as DGN deal lines, one per player in seat order, then any extra lines (the kitty)."""
    lines = [f"deal {name} {' '.join(str(card) for card in hand)}".rstrip() for name, hand in zip(players, hands)]
    return "\n".join([*lines, *extra])


def parse_deal(text: str, players: Sequence[str], extra: Sequence[str] = (),
               card_of: Callable[[str, Word], AnyCard] = card_of) -> tuple[
        tuple[tuple[AnyCard, ...], ...], dict[str, tuple[AnyCard, ...]]]:
    """Deal lines (`deal Ann 1D 4D …`, one per player, any order) and the `extra` lines (`kitty …`).

    Returns the hands in seat order and the extra lines' cards by their word; `card_of` reads a card word
    (a game's own reader refuses another game's cards)."""
    hands: dict[int, tuple[AnyCard, ...]] = {}
    found: dict[str, tuple[AnyCard, ...]] = {}
    all_words = words(text)
    lines = _lines(all_words, ("deal", *extra), text)
    for head, rest in lines:
        if head.lower() == "deal":
            if not rest:
                raise refuse(text, head, "a deal line names its player", "deal <id> <cards>")
            seat = seat_named(text, rest[0], players)
            if seat in hands:
                raise refuse(text, rest[0], f"{players[seat]} is dealt twice", "one deal line per player")
            hands[seat] = tuple(card_of(text, word) for word in rest[1:])
        else:
            found[head.lower()] = tuple(card_of(text, word) for word in rest)
    missing = [players[seat] for seat in range(len(players)) if seat not in hands]
    if missing:
        raise refuse(text, None, "a deal gives every player their cards; missing: " + ", ".join(missing),
                     "a deal line for every player")
    return tuple(hands[seat] for seat in range(len(players))), found


def _lines(all_words: list[Word], heads: Sequence[str], text: str) -> Iterator[tuple[Word, list[Word]]]:
    """Cut words into lines at each head word (`deal`, `kitty`)."""
    lowered = {head.lower() for head in heads}
    if not all_words or all_words[0].lower() not in lowered:
        raise refuse(text, all_words[0] if all_words else None, "a deal is written as deal lines",
                     " or ".join(f"`{head} …`" for head in heads))
    head = all_words[0]
    rest: list[Word] = []
    for word in all_words[1:]:
        names_player = head.lower() == "deal" and not rest  # `deal Kitty …`: a player may be called Kitty
        if word.lower() in lowered and not names_player:
            yield head, rest
            head, rest = word, []
        else:
            rest.append(word)
    yield head, rest
