"""Terminal safety: text that came from input is shown with its control characters made visible,
so that a file cannot drive the terminal (move the cursor, retitle the window, ring the bell).

`visible("a\\x1b[2Jb")` is `a\\x1b[2Jb` spelled with a backslash: ESC as `\\x1b`, BEL as `\\x07`, a tab
as `\\t`, a carriage return as `\\r`, DEL and the C1 controls as `\\x7f`…, the bidirectional overrides
as `\\u202e`…; printable text of any script is kept. Text without such characters is returned as it is,
so ordinary messages are byte for byte the same. JSON and DGN outputs are escaped only where standard output
is a terminal (the CLI's `TerminalSafe`); to a file or a pipe they are written byte for byte."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["visible", "visible_lines", "quoted", "display_width"]

_NAMED = {"\t": "\\t", "\r": "\\r", "\n": "\\n"}
#: C0 and C1 controls, DEL, and the invisible direction controls (Trojan-source characters).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """One line's text with every control character escaped (newlines too)."""
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(_escape, text)


def visible_lines(text: str) -> str:
    """Several lines: each line escaped, the line breaks kept."""
    if not _CONTROL.search(text):
        return text
    return "\n".join(visible(line) for line in text.split("\n"))


def quoted(source: str, start: int, length: int) -> tuple[str, int, int]:
    """A quoted source line escaped, with its caret moved to match: (line, caret column, caret width) in
    a terminal's columns (`display_width`), from the caret's 0-based `start` and `length` in characters of
    the raw line."""
    before, token, after = source[:start], source[start:start + length], source[start + length:]
    if _CONTROL.search(source):
        before, token, after = visible(before), visible(token), visible(after)
        source = before + token + after
    return source, display_width(before), max(1, display_width(token))


def display_width(text: str) -> int:
    """The columns `text` takes on a terminal: two for a wide or full-width character (CJK), none for a
    combining mark, one for the rest. A caret placed by characters stood left of a wide character's token."""
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in "WF" else 1
               for char in text)
