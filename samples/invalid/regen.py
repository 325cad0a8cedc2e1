"""Rewrite the golden files `<name>.expected` of the invalid samples.

    python samples/invalid/regen.py            # from the repository root
    python samples/invalid/regen.py --check    # only report goldens that differ

Run it only after an intentional change to a message or a position, and read
every changed golden before committing it: the tests compare against these
files, they never regenerate them. A golden holds, for each game of its .dgn
file and each problem of that game, what `notation.diagnostics.format_problem`
prints, with the file's path relative to the repository root.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
if str(ROOT) not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from diamonds.notation import read_games  # noqa: E402
from diamonds.notation.diagnostics import format_problem  # noqa: E402
from diamonds.replay import replay_record  # noqa: E402


def expected_text(path: Path) -> str:
    """What the golden of `path` must hold: every problem of every game, one block after another."""
    shown = path.resolve().relative_to(ROOT).as_posix()
    blocks = []
    with path.open(encoding="utf-8", newline="") as stream:
        for record in read_games(stream):
            for problem in replay_record(record).problems:
                blocks.append(format_problem(shown, record, problem) + "\n")
    return "".join(blocks)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    differ = 0
    for path in sorted(HERE.glob("*.dgn")):
        golden = path.with_suffix(".expected")
        text = expected_text(path)
        old = golden.read_text(encoding="utf-8") if golden.exists() else None
        if old == text:
            continue
        differ += 1
        print(f"{'differs' if check else 'rewrote'}: {golden.relative_to(ROOT).as_posix()}")
        if not check:
            golden.write_text(text, encoding="utf-8", newline="\n")
    return 1 if check and differ else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
