"""The DGN grammar's text, and its terminals' patterns for the fast reader, kept between runs.

The grammar is grammars/dgn.lark with the registered families' words appended
(notation/words.py). The fast reader matches tokens with the same regular
expressions Lark builds from that grammar; they are kept in a small cache
file beside Lark's own, so that a command reading valid games never imports
Lark. The cache is only an aid: any failure to read or write it means the
patterns are taken from Lark again.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache

from .words import grammar_rules, vocabulary

__all__ = ["grammar_text", "cached_patterns", "keep_patterns", "cache_folder"]


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The grammar (grammars/dgn.lark, from the installed package or a source checkout), with the words
    of the registered families appended (notation/words.py)."""
    here = os.path.dirname(os.path.abspath(__file__))
    # Installed, the grammar lies beside this module; in a source checkout, in the top-level grammars/.
    # Opened directly: importlib.resources (for a package inside a zip) costs more to import than the
    # rest of the reader's imports.
    for folder in (os.path.join(here, "grammars"), os.path.join(os.path.dirname(here), "grammars")):
        try:
            with open(os.path.join(folder, "dgn.lark"), encoding="utf-8") as stream:
                base = stream.read()
            break
        except FileNotFoundError:
            continue
    else:
        from importlib import resources

        base = resources.files("diamonds.notation.grammars").joinpath("dgn.lark").read_text(encoding="utf-8")
    return base + "\n" + grammar_rules(vocabulary())


def cache_folder() -> str | None:
    """The user's cache folder for diamonds ($XDG_CACHE_HOME or ~/.cache, then diamonds/); None if none."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "diamonds") if os.path.isabs(base) else None  # str: pathlib costs start-up 5 ms


def _lark_stamp() -> str:
    """Which Lark is installed, without importing it: where its package lies and when it was written."""
    from importlib.util import find_spec

    spec = find_spec("lark")
    origin = spec.origin if spec is not None else None
    if origin is None:
        return "no-lark"
    return f"{origin}\0{os.stat(origin).st_mtime_ns}"


def _patterns_key(grammar: str) -> str:
    """What the cached patterns depend on: the grammar, the Lark that translated it, the Python."""
    import sys

    return f"{grammar}\0{_lark_stamp()}\0{sys.version}"


def _patterns_file(key: str) -> str | None:
    """The cache file for `key`, named by a checksum of it. The file holds the key itself, so a
    checksum shared by two keys is only a miss (no hashlib: its import costs a one-game run 4 ms)."""
    import zlib

    folder = cache_folder()
    if folder is None:
        return None
    data = key.encode()
    return os.path.join(folder, f"dgn-terminals-{zlib.crc32(data):08x}{zlib.adler32(data):08x}.json")


def cached_patterns() -> dict[str, str] | None:
    """Each terminal's regular expression as Lark translated this grammar, if a usable cache holds them."""
    try:
        key = _patterns_key(grammar_text())
        path = _patterns_file(key)
        if path is None:
            return None
        with open(path, encoding="utf-8") as stream:
            found = json.load(stream)
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict) or found.get("key") != key:
        return None
    patterns = found.get("patterns")
    if isinstance(patterns, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in patterns.items()):
        return patterns
    return None


def keep_patterns(patterns: dict[str, str]) -> None:
    """Cache the patterns Lark gave for this grammar (a failure only means they are asked for again)."""
    try:
        key = _patterns_key(grammar_text())
        path = _patterns_file(key)
    except OSError:
        return
    if path is not None:
        _keep(path, json.dumps({"key": key, "patterns": patterns}, sort_keys=True))


def _keep(path: str, text: str) -> None:
    """Write the cache under a name of this process's own, then rename it into place (processes starting
    together never read half a file); a failure leaves no file."""
    partial = f"{path}.{os.getpid()}.partial"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(partial, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(partial, path)
    except OSError:
        try:
            os.unlink(partial)
        except OSError:
            pass
