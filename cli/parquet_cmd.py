"""`diamonds convert FILES --to parquet -o DIR`: the analysis tables (games, plays, events) as Parquet.

Streamed in bounded memory: games are read and handed out in batches as
`validate` does (`cli.parallel`, several processes or a Dask cluster), each
batch becomes Arrow tables in a worker (`replay.arrow.convert_batch`), and
the tables are written a row group per few thousand games. The output is the
same whatever `--jobs` or `--scheduler`. A game with a problem is reported
on stderr (file:line:col, the line, a caret, the ruling) and still has its
games row (what is wrong, where) and its plays up to the problem; the exit
status is then 1.
"""

from __future__ import annotations

import argparse
import os
import sys

from diamonds.io.escape import visible
from diamonds.io.folder import StagedFolder
from diamonds.replay.arrow import MissingExtra, TableWriter, converted_batches, require_pyarrow
from diamonds.replay.tables import TABLE_NAMES

from .errors import CommandError
from .inputs import NotDecodable
from .progress import ByteProgress

__all__ = ["run_parquet"]


def run_parquet(args: argparse.Namespace) -> int:
    folder = args.output
    if not folder:
        raise CommandError("--to parquet writes a folder of tables: name it with -o DIR "
                           f"(it will hold {', '.join(n + '.parquet' for n in TABLE_NAMES)})")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise CommandError(f"{folder}: not a folder (--to parquet writes {', '.join(TABLE_NAMES)} .parquet "
                           "files into a folder)")
    try:
        require_pyarrow()
    except MissingExtra as missing:
        raise CommandError(str(missing)) from None
    for path in args.files:  # refused before anything is written: a missing file leaves no half output
        if path != "-" and not os.path.isfile(path):
            raise CommandError(f"{path}: no such file" if not os.path.exists(path) else f"{path}: not a file")
    failures = 0
    # The tables are written into a fresh folder beside DIR, swapped into place when complete: a reader
    # sees the old folder or the new one, and nothing is written through a symlink planted in DIR.
    # Interrupted, the fresh folder is removed (DIR as it was), or with --keep-partial swapped in marked
    # by a PARTIAL file.
    staged = StagedFolder(folder, keep_partial=getattr(args, "keep_partial", False),
                          allowed=frozenset(f"{name}.parquet" for name in TABLE_NAMES))
    with staged, ByteProgress(args.files, label="converting") as progress, TableWriter(staged.stage or "") as writer:
        writer.keep_partial = staged.keep_partial
        for _shown, converted in converted_batches(args.files, args.encoding, args.jobs, args.scheduler):
            if isinstance(converted, NotDecodable):  # the games before the bad byte are written; the next file too
                print(visible(f"diamonds convert: {converted}"), file=sys.stderr)
                failures += 1
                continue
            if isinstance(converted, Exception):  # pragma: no cover - converted_batches yields no other
                raise converted
            progress.advance(converted.size)
            for problem in converted.errors:
                print(problem, file=sys.stderr)
            failures += converted.invalid
            writer.write(converted.tables, converted.games)
    return 1 if failures else 0
