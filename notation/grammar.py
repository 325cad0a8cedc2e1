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
from pathlib import Path

from .words import grammar_rules, vocabulary

__all__ = ["grammar_text", "cached_patterns", "keep_patterns", "cache_folder"]


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The grammar (grammars/dgn.lark, from the installed package or a source checkout), with the words
    of the registered families appended (notation/words.py)."""
    from importlib import resources

    try:
        base = resources.files("diamonds.notation.grammars").joinpath("dgn.lark").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        base = (Path(__file__).resolve().parent.parent / "grammars" / "dgn.lark").read_text(encoding="utf-8")
    return base + "\n" + grammar_rules(vocabulary())


def cache_folder() -> Path | None:
    """The user's cache folder for diamonds ($XDG_CACHE_HOME or ~/.cache, then diamonds/); None if none."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "diamonds" if os.path.isabs(base) else None


def _lark_stamp() -> str:
    """Which Lark is installed, without importing it: where its package lies and when it was written."""
    from importlib.util import find_spec

    spec = find_spec("lark")
    origin = spec.origin if spec is not None else None
    if origin is None:
        return "no-lark"
    return f"{origin}\0{os.stat(origin).st_mtime_ns}"


def _patterns_file(grammar: str) -> Path | None:
    import hashlib
    import sys

    folder = cache_folder()
    if folder is None:
        return None
    key = hashlib.sha256(f"{grammar}\0{_lark_stamp()}\0{sys.version}".encode()).hexdigest()[:32]
    return folder / f"dgn-terminals-{key}.json"


def cached_patterns() -> dict[str, str] | None:
    """Each terminal's regular expression as Lark translated this grammar, if a usable cache holds them."""
    try:
        path = _patterns_file(grammar_text())
        if path is None:
            return None
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(found, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in found.items()):
        return found
    return None


def keep_patterns(patterns: dict[str, str]) -> None:
    """Cache the patterns Lark gave for this grammar (a failure only means they are asked for again)."""
    try:
        path = _patterns_file(grammar_text())
    except OSError:
        return
    if path is not None:
        _keep(path, json.dumps(patterns, sort_keys=True))


def _keep(path: Path, text: str) -> None:
    """Write the cache under a name of this process's own, then rename it into place (processes starting
    together never read half a file); a failure leaves no file."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        try:
            partial.unlink()
        except OSError:
            pass
