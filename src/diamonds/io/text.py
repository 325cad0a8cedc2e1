"""Opening what the user named: files or standard input, as streams of games.

Input is decoded strictly, in the encoding the user names (`--encoding`, UTF-8
by default): a byte that is not of that encoding stops the command with where it
is (`file:line:col`, counted as the reader counts) instead of becoming U+FFFD,
so nothing is silently lost. The text is decoded as it is read, block by block,
so a file of any size is checked in constant memory. A byte-order mark at the
very start is not part of the text (Windows Notepad writes one); the stream's
`bom` says whether there was one, so that `fmt` can write it back.
"""

from __future__ import annotations

import argparse
import codecs
import io
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

from .errors import UserError as CommandError
from .escape import visible

__all__ = ["open_text", "display_path", "encoding_name", "DecodedText", "NotDecodable", "DEFAULT_ENCODING"]

DEFAULT_ENCODING = "utf-8"
BOM = "\ufeff"
_CHUNK = 1 << 16  # bytes decoded at a time


class NotDecodable(CommandError):
    """A byte that is not of the input's encoding: where it is (as the reader counts lines and
    columns) and what to do. A CommandError of status 1; a command may catch it to report it its way."""

    def __init__(self, path: str, line: int, column: int, reason: str, source: str = "") -> None:
        """`path` as shown; `source`: the line's text decoded before the bad byte (its last characters), shown
        under the message with the bad byte as \ufffd and a caret under it."""
        before = visible(source if len(source) <= _SHOWN else "…" + source[-_SHOWN:])
        super().__init__(f"{path}:{line}:{column}: {reason}", status=1, shown=f"    {before}\ufffd\n    {' ' * len(before)}^")
        self.path, self.line, self.column, self.reason, self.source = path, line, column, reason, source


def display_path(path: str) -> str:
    return "<stdin>" if path == "-" else path


def encoding_name(text: str) -> str:
    """`--encoding NAME`: a text encoding Python knows (utf-8, latin-1, cp1252, …), else a usage error."""
    try:
        info = codecs.lookup(text)
    except LookupError:
        raise argparse.ArgumentTypeError(f"unknown encoding {text!r} (for example utf-8, latin-1, cp1252)") from None
    if not getattr(info, "_is_text_encoding", True):  # base64, rot13, zlib…: bytes to bytes, not text
        raise argparse.ArgumentTypeError(f"{text!r} is not a text encoding")
    return text


def _is_utf8(encoding: str) -> bool:
    return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig")


class DecodedText(io.TextIOBase):
    """Bytes decoded strictly and incrementally, with universal newlines, tracking the line and
    column (1-based, in characters) of what has been decoded, so a bad byte is reported where
    a reader of the text would put it. A leading byte-order mark is dropped (see `bom`)."""

    def __init__(self, raw: BinaryIO, encoding: str, shown: str) -> None:
        super().__init__()
        self._raw = raw
        self._read_bytes = getattr(raw, "read1", raw.read)
        self._encoding = encoding
        self._shown = shown
        self._decoder = self._new_decoder()
        self._pending = ""  # decoded, not yet returned
        self._eof = False
        self._at_start = True  # no character decoded yet
        self._head = b""  # the first two bytes, to recognise UTF-16
        self._line, self._column = 1, 1  # of the next character to decode
        self._line_text = ""  # the current line's text decoded so far (its last _SHOWN characters)
        self.bom = False  # the input began with a byte-order mark (dropped from the text)

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    @property
    def line_endings(self) -> str | tuple[str, ...] | None:
        """The line endings read so far, as `io.TextIOWrapper` says them: "\r\n" for a file of CRLF lines alone,
        a tuple for a mix, None before the first (the text itself has "\n" for each)."""
        return self._decoder.newlines  # type: ignore[no-any-return]

    def readable(self) -> bool:
        return True

    def _new_decoder(self) -> io.IncrementalNewlineDecoder:
        return io.IncrementalNewlineDecoder(codecs.getincrementaldecoder(self._encoding)("strict"), translate=True)

    def _decode_more(self) -> str:
        """The next decoded text ("" only at the end)."""
        while not self._eof:
            data = self._read_bytes(_CHUNK)
            final = not data
            if len(self._head) < 2:
                self._head += data[:2 - len(self._head)]
            state = self._decoder.getstate()
            try:
                text = self._decoder.decode(data, final)
            except UnicodeDecodeError as error:
                raise self._refusal(state, data, final, error) from None
            except UnicodeError as error:  # the codec's refusal of the whole stream (UTF-16 without its mark)
                raise NotDecodable(self._shown, self._line, self._column,
                                   f"not {self._encoding} ({error}); name the file's encoding with --encoding",
                                   self._line_text) from None
            self._eof = final
            if text:
                if self._at_start:
                    self._at_start = False
                    if text[0] == BOM:
                        self.bom, text = True, text[1:]
                self._line, self._column = _advance(self._line, self._column, text)
                self._line_text = _line_tail(self._line_text, text)
                if text:
                    return text
        return ""

    def _refusal(self, state: tuple[bytes, int], data: bytes, final: bool,
                 error: UnicodeDecodeError) -> NotDecodable:
        """Where the first bad byte is: `data` decoded again one byte at a time from `state`."""
        decoded: list[str] = []
        bad = error
        try:
            decoder = self._new_decoder()
            decoder.setstate(state)
            try:
                for i in range(len(data)):
                    decoded.append(decoder.decode(data[i:i + 1]))
                decoder.decode(b"", final)
            except UnicodeDecodeError as found:
                bad = found
            if decoder.getstate()[1] & 1:  # a "\r" held back to see whether "\n" follows: a line break
                decoded.append("\n")
        except Exception:  # pragma: no cover - a codec without getstate/setstate: a close guess
            decoded = [error.object[:error.start].decode(self._encoding, "replace")]
        prefix = "".join(decoded)
        if self._at_start and prefix[:1] == BOM:
            prefix = prefix[1:]
        line, column = _advance(self._line, self._column, prefix)
        byte = bad.object[bad.start] if bad.start < len(bad.object) else None
        what = f" (byte 0x{byte:02X})" if isinstance(byte, int) else ""
        if not _is_utf8(self._encoding):
            reason = f"not {self._encoding}{what}; name the file's encoding with --encoding"
        elif (line, column) == (1, 1) and self._head in (b"\xff\xfe", b"\xfe\xff"):
            reason = f"not UTF-8{what}; the file looks like UTF-16: use --encoding utf-16"
        else:
            reason = f"not UTF-8{what}; if the file is Latin-1, use --encoding latin-1"
        return NotDecodable(self._shown, line, column, reason, _line_tail(self._line_text, prefix))

    def read(self, size: int | None = -1, /) -> str:
        if size is None or size < 0:
            parts = [self._pending]
            self._pending = ""
            while text := self._decode_more():
                parts.append(text)
            return "".join(parts)
        while len(self._pending) < size and not self._eof:
            self._pending += self._decode_more()
        text, self._pending = self._pending[:size], self._pending[size:]
        return text

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]  # typeshed: IOBase gives bytes
        parts = [self._pending]  # a long line comes in many blocks: joined once, at the end
        end = self._pending.find("\n")
        while end < 0 and not self._eof:
            text = self._decode_more()
            end = text.find("\n")
            parts.append(text)
        pending = "".join(parts) if len(parts) > 1 else parts[0]
        end = len(pending) if end < 0 else len(pending) - len(parts[-1]) + end + 1
        if size is not None and 0 <= size < end:
            end = size
        line, self._pending = pending[:end], pending[end:]
        return line


_SHOWN = 72  # characters of a line shown before its bad byte


def _line_tail(line_text: str, text: str) -> str:
    """The current line's last `_SHOWN` characters after `text` is decoded (from the line's before it)."""
    cut = text.rfind("\n")
    tail = text[cut + 1:] if cut >= 0 else line_text + text
    return tail[-_SHOWN - 1:]  # one more than is shown: a line cut there is shown with …


def _advance(line: int, column: int, text: str) -> tuple[int, int]:
    """The position after `text`, from (line, column) before it."""
    breaks = text.count("\n")
    if breaks:
        return line + breaks, len(text) - text.rfind("\n")
    return line, column + len(text)


@contextmanager
def open_text(path: str, encoding: str = DEFAULT_ENCODING) -> Iterator[DecodedText]:
    """A text stream of the file (or of standard input for "-"), decoded strictly: a byte that is not
    of `encoding` raises NotDecodable (a CommandError of status 1) naming `file:line:col`."""
    if path == "-":
        with DecodedText(sys.stdin.buffer, encoding, display_path(path)) as stream:  # stdin itself stays open
            yield stream
        return
    if os.path.isdir(path):
        raise CommandError(f"{path}: is a directory")
    try:
        raw = open(path, "rb")
    except FileNotFoundError:
        raise CommandError(f"{path}: no such file") from None
    except OSError as error:
        raise CommandError(f"{path}: {error.strerror}") from None
    with raw, DecodedText(raw, encoding, path) as stream:
        yield stream
