"""`Word`, one word of a move's text with its column: a `str` subclass, so it stays Python in the compiled build.

mypyc cannot compile a native subclass of `str`; this module is left out of the
compiled build (setup.py's PURE list, docs/build.md) and the compiled modules use
`Word` as an ordinary Python class. It lives apart from `movetext` so that
`movetext`'s functions are still compiled.
"""

from __future__ import annotations

__all__ = ["Word"]


class Word(str):
    """One word of a move's text, with its 1-based column in that text."""

    column: int

    def __new__(cls, text: str, column: int) -> Word:
        word = str.__new__(cls, text)  # not super(): a word is made for every word of every move read
        word.column = column
        return word
