"""Where the time goes: cProfile of validate on each corpus of bench/run.py, and of `convert --to parquet`.

    python bench/hotspots.py --corpus-dir /tmp/corpora           # the corpora bench/run.py makes (made if absent)
    python bench/hotspots.py --corpus-dir D --top 25 --save D/prof # also keep the .prof files (for snakeviz etc.)

For each corpus: the in-process validate (read_games + validate_record, after a warm-up game of each
family, as bench/run.py times it), then `diamonds convert --to parquet --jobs 1` of the mixed corpus
run through the CLI's main(). Printed: the top functions by own time, and the share of the total
spent under a few places the engines and reader work is about (Lark, dataclasses.replace, the fast
reader, validate_record).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run  # noqa: E402  (bench/run.py: the corpora)

# Places whose inclusive time is worth a line of its own: (label, file part, function name or None)
WATCH = (
    ("lark (any)", "/lark/", None),
    ("reader: Lark fallback (_parse_with_lark)", "reader.py", "_parse_with_lark"),
    ("reader: fast reader (FastReader.read)", "fastpath.py", "read"),
    ("dataclasses.replace", "dataclasses.py", "replace"),
    ("validate_record", "validate.py", "validate_record"),
    ("pyarrow (any)", "/pyarrow/", None),
)


def _inclusive(stats: pstats.Stats, part: str, name: str | None) -> float:
    """Inclusive seconds under matching functions, not counting a match inside another (recursion)."""
    total = 0.0
    entries = stats.stats  # type: ignore[attr-defined]
    for (filename, _, function), (_, _, _, cumulative, callers) in entries.items():
        if part not in filename or (name is not None and function != name):
            continue
        # only the time entered from outside the watched place
        outside = {caller: value for caller, value in callers.items()
                   if not (part in caller[0] and (name is None or caller[2] == name))}
        if name is None:
            total += sum(value[3] for value in outside.values())
        else:
            total += cumulative
    return total


def report(label: str, profile: cProfile.Profile, top: int, save: Path | None) -> None:
    stats = pstats.Stats(profile)
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"\n=== {label}: {total:.2f} s under the profiler")
    for what, part, name in WATCH:
        seconds = _inclusive(stats, part, name)
        if seconds:
            print(f"  {what:44} {seconds:7.2f} s  {100 * seconds / total:5.1f}%")
    print(f"  top {top} by own time:")
    rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:top]  # type: ignore[attr-defined]
    for (filename, line, function), (_, calls, own, cumulative, _) in rows:
        where = filename.replace(str(run.ROOT) + "/", "")
        where = where if len(where) < 48 else "…" + where[-47:]
        print(f"    {own:6.2f} s {100 * own / total:5.1f}%  cum {cumulative:6.2f} s  {calls:>9,}  {function} ({where}:{line})")
    if save:
        save.mkdir(parents=True, exist_ok=True)
        stats.dump_stats(str(save / f"{label.replace(' ', '_').replace('/', '_')}.prof"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus-dir", type=Path, required=True)
    parser.add_argument("--size-mb", type=float, default=1.5)
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--save", type=Path, default=None, help="keep the .prof files here")
    parser.add_argument("--only", action="append", help="corpus names (and/or 'parquet') to profile")
    args = parser.parse_args()
    corpora, warm = run.make_corpora(args.corpus_dir, args.size_mb, args.seed)
    run._warm_up(str(warm), validate=True)
    from diamonds.notation import read_games
    from diamonds.replay import validate_record

    for corpus in corpora:
        if args.only and corpus.name not in args.only:
            continue
        profile = cProfile.Profile()
        profile.enable()
        with open(corpus.path, encoding="utf-8") as stream:
            for record in read_games(stream):
                validate_record(record)
        profile.disable()
        report(f"validate {corpus.name}", profile, args.top, args.save)

    if not args.only or "parquet" in args.only:
        from diamonds.cli.main import main as diamonds

        mixed = corpora[-1]
        with tempfile.TemporaryDirectory() as out:
            profile = cProfile.Profile()
            profile.enable()
            diamonds(["convert", str(mixed.path), "--to", "parquet", "-o", str(Path(out) / "t"), "--jobs", "1"])
            profile.disable()
        report(f"convert --to parquet {mixed.name}", profile, args.top, args.save)
    return 0


if __name__ == "__main__":
    sys.exit(main())
