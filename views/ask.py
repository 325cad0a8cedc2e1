"""A decision as questions in words: what `diamonds play` asks the player to move.

A family's `ask(config, moves)` (its view's `ask`, written beside its events in words in `narrate.py`)
turns the legal moves of one seat into an `Ask`: the question, the answers listed readably, and a reader
of the answer by name (a player for a Clubs victim, a card for a point card, a number for a bid) that
gives the move, or the next question of a move made of two answers (a kitty card, then a point card).
Only the seat's own legal moves and the game's set-up are read: nothing hidden from the player.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = ["Ask", "NotAnAnswer", "pick", "answer_words", "grouped", "one_of"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Ask:
    """One question of a decision: `question` in words, `listing` the answers (a line per group), and
    `answer(text)`: the move, or the next `Ask`; `NotAnAnswer` when the text answers nothing asked."""

    question: str
    listing: tuple[str, ...]
    answer: Callable[[str], Any]


class NotAnAnswer(ValueError):
    """Text that answers no option of a question: `text` as typed, `options` the words that would."""

    def __init__(self, text: str, options: Sequence[str]) -> None:
        self.text, self.options = text, tuple(options)
        super().__init__(f"{text.strip()!r} is not one of: {one_of(self.options)}")


def one_of(words: Sequence[str], last: str = "or") -> str:
    """`Bob`, `Bob or Cat`, `Bob, Cat or Dan`."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def answer_words(text: str, *heads: str) -> list[str]:
    """The words of an answer, without a leading DGN word the player may type out of habit
    (`bid 4` for `4`, `>Bob` for `Bob`)."""
    found = text.replace(",", " ").split()
    if found and found[0].lower() in heads:
        found = found[1:]
    return [word.lstrip(">") if word != ">-" else "-" for word in found]


def pick(text: str, options: Mapping[str, T]) -> T:
    """The option a one-word answer names, whatever its case; `NotAnAnswer` otherwise."""
    word = text.strip().lower()
    for name, value in options.items():
        if name.lower() == word:
            return value
    raise NotAnAnswer(text, list(options))


def grouped(items: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """Answers as lines, one per group in first-seen order: `Hearts: 6H 7H` from (group, word) pairs."""
    groups: dict[str, list[str]] = {}
    for group, word in items:
        groups.setdefault(group, []).append(word)
    return tuple(f"{group}: {' '.join(words)}" for group, words in groups.items())
