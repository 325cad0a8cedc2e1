"""The words of DGN's items, as the registered families declare them: the notation holds no family's words.

The notation knows the *shapes* of items (no rules): a round header, a
trick, and lines of five shapes, each opened by a word that a family
declares in its `words` part (`diamonds.families.<name>.words:WORDS`):

| shape | form | e.g. |
| --- | --- | --- |
| hand line | `<word> <id> <cards>` | `deal Ann 1D 4D`, `pass Ann 9D` |
| cards line | `<word> <cards>` | `kitty 7H 8S JoX` |
| call | `<word> <id> <n>` | `bid Ann 4`, `final Ann 5` |
| exchange | `<word> <id> <card> <second> <card>` | `take Ann 9H point 7S` |
| end line | `<word> <choices>` | `end >Bob` |

and a count in the round header (`R1 dealer Ann pass 2`). The grammar
(grammars/dgn.lark) names these shapes; `grammar_rules()` writes the rules
and terminals that give each shape its words, so the Lark reader, the fast
reader, the Pygments lexer, the error messages and the recorder all read the
words from one place: the registrations.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Shape", "Item", "Words", "DEAL_LINES", "Vocabulary", "vocabulary", "grammar_rules", "terminal_name"]


class Shape(enum.Enum):
    """The forms of item a family's words can open (see the table above)."""

    HAND = "hand"  # <word> <id> <cards>
    CARDS = "cards"  # <word> <cards>
    CALL = "call"  # <word> <id> <n>
    EXCHANGE = "exchange"  # <word> <id> <card> <second> <card>
    END = "end"  # <word> <choices>


@dataclass(frozen=True, slots=True)
class Item:
    """One word and the shape of the item it opens (`second`: an exchange's middle word)."""

    word: str
    shape: Shape
    second: str = ""


@dataclass(frozen=True, slots=True)
class Words:
    """One family's words, in the order its records write them, and the count word of its round header."""

    items: tuple[Item, ...] = ()
    header_count: str | None = None  # `R<k> dealer <id> word <n>`
    header_count_note: str = ""  # how a message names the games that write it, e.g. "in Fitzgerald's games"


#: The words of a plain trick game's records (diamonds.core.trick): a deal line per player. A family that plays
#: one names these as its `words` part (`diamonds.notation.words:DEAL_LINES`).
DEAL_LINES = Words(items=(Item("deal", Shape.HAND),))

#: Where each shape stands in a round (the grammar's order): lines, calls, then the end.
_GROUP = {Shape.HAND: 0, Shape.CARDS: 0, Shape.CALL: 1, Shape.EXCHANGE: 1, Shape.END: 3}


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Every registered family's words, merged in registration order."""

    items: tuple[Item, ...] = ()
    header_counts: tuple[str, ...] = ()
    header_count_notes: tuple[str, ...] = ()

    @classmethod
    def of(cls, declared: list[Words]) -> Vocabulary:
        items: dict[str, Item] = {}
        for words in declared:
            for item in words.items:
                known = items.setdefault(item.word, item)
                if known != item:
                    raise ValueError(f"the word {item.word!r} is declared as two kinds of item: "
                                     f"{known.shape.value} and {item.shape.value}")
        ordered = sorted(items.values(), key=lambda item: _GROUP[item.shape])  # stable: keeps registration order
        counts = tuple(dict.fromkeys(w.header_count for w in declared if w.header_count))
        notes = tuple(dict.fromkeys(w.header_count_note for w in declared if w.header_count_note))
        return cls(tuple(ordered), counts, notes)  # type: ignore[arg-type]

    def words(self, *shapes: Shape) -> tuple[str, ...]:
        return tuple(item.word for item in self.items if item.shape in shapes)

    @property
    def seconds(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(item.second for item in self.items if item.shape is Shape.EXCHANGE))

    @property
    def line_words(self) -> frozenset[str]:
        """The words that open a line of a round other than a trick or its end (what the recorder takes as lines)."""
        return frozenset(item.word for item in self.items if item.shape is not Shape.END)

    def second_of(self, word: str) -> str:
        return next(item.second for item in self.items if item.word == word)

    def keywords(self) -> tuple[str, ...]:
        """Every word, in the order messages list them: the grammar's order of items, an exchange's second
        word after the calls."""
        ordered = [item.word for item in self.items if _GROUP[item.shape] < 2]
        ordered += self.seconds
        ordered += [item.word for item in self.items if _GROUP[item.shape] >= 2]
        ordered += self.header_counts
        return tuple(dict.fromkeys(ordered))


def terminal_name(word: str) -> str:
    """The grammar's terminal for a word: `deal` -> DEAL (the second word of an exchange is filtered: _POINT)."""
    return word.upper()


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    """The words of every registered family (asked once: registrations do not change while reading)."""
    from diamonds.core import families

    declared = [words for family in families() if (words := family.part("words", None)) is not None]
    return Vocabulary.of(declared)


def _alternatives(names: tuple[str, ...]) -> str:
    return " | ".join(names) if names else "_NO_WORD"


def grammar_rules(vocab: Vocabulary) -> str:
    """The grammar's word rules and keyword terminals for these words (appended to grammars/dgn.lark)."""
    seconds = vocab.seconds

    def names(*shapes: Shape) -> str:
        return _alternatives(tuple(terminal_name(word) for word in vocab.words(*shapes)))

    lines = [
        "// ---------------------------------------------------------------- the registered families' words",
        f"_hand_word: {names(Shape.HAND)}",
        f"_cards_word: {names(Shape.CARDS)}",
        f"_call_word: {names(Shape.CALL)}",
        f"_exchange_word: {names(Shape.EXCHANGE)}",
        f"_exchange_second: {_alternatives(tuple('_' + terminal_name(s) for s in seconds))}",
        f"_end_word: {names(Shape.END)}",
        f"_count_word: {_alternatives(tuple(terminal_name(w) for w in vocab.header_counts))}",
    ]
    for word in vocab.keywords():
        name = ("_" + terminal_name(word)) if word in seconds else terminal_name(word)
        lines.append(f'{name}: "{word}"')
    if any(line.endswith(": _NO_WORD") for line in lines):
        lines.append('_NO_WORD: "\\u0000"  // a word no text holds, for a shape no family uses')
    return "\n".join(lines) + "\n"
