"""The inputs of every command: the text opener (it lives in `diamonds.io.text`, shared with the
analysis), folders read for their `*.dgn` files, and the warning for a file with no game."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from diamonds.io.escape import visible
from diamonds.io.text import (  # noqa: F401
    BOM,
    DEFAULT_ENCODING,
    DecodedText,
    NotDecodable,
    display_path,
    encoding_name,
    open_text,
)

from .errors import CommandError

if TYPE_CHECKING:
    from diamonds.notation import GameRecord

__all__ = ["open_text", "games_in", "display_path", "encoding_name", "DecodedText", "NotDecodable",
           "DEFAULT_ENCODING", "BOM", "expand_folders", "dgn_files", "warn_no_game", "TABLES_MARK"]

#: The file that makes a folder one of Parquet tables (`convert --to parquet`), read whole by `stats`
#: and `ratings` rather than for its DGN files.
TABLES_MARK = "games.parquet"


def games_in(path: str, encoding: str = DEFAULT_ENCODING) -> Iterator[GameRecord]:
    """The game records of a DGN file, read through the one text opener."""
    from diamonds.notation import read_games  # the reader (and lark) only for the commands that read games

    with open_text(path, encoding) as stream:
        yield from read_games(stream)


def dgn_files(folder: str) -> list[str]:
    """The `*.dgn` files under `folder`, its subfolders too, in name order (as ruff and pytest walk a
    folder); hidden files and folders (`.git`, a staged output) are left out."""
    found = []
    for parent, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        found += [os.path.join(parent, name) for name in sorted(files)
                  if name.lower().endswith(".dgn") and not name.startswith(".")]
    return found


def expand_folders(paths: Sequence[str], *, tables: bool = False) -> list[str]:
    """The inputs with each folder replaced by its `*.dgn` files; with `tables`, a folder of Parquet
    tables (it holds games.parquet) stays a folder. A folder with neither is a usage error (status 2)."""
    expanded: list[str] = []
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            expanded.append(path)
        elif tables and os.path.isfile(os.path.join(path, TABLES_MARK)):
            expanded.append(path)
        else:
            found = dgn_files(path)
            if not found:
                if tables:
                    raise CommandError(f"{path}: a folder with no .dgn file and no {TABLES_MARK}; name DGN files, "
                                       f"a folder holding some, or one `diamonds convert FILES --to parquet -o {path}` "
                                       "wrote")
                raise CommandError(f"{path}: a folder with no .dgn file; name DGN files, or a folder holding some")
            expanded += found
    return expanded


def warn_no_game(command: str, path: str) -> None:
    """A file that holds no game at all (empty, or blank lines only): a warning; the command exits 1."""
    print(visible(f"diamonds {command}: warning: {display_path(path)} holds no game"), file=sys.stderr)
