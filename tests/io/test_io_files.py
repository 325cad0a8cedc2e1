"""Faithful writes (issue 19, findings 3, 4 and 5, and a full disk): modes kept, read-only files refused
without --force, symlinks written through, a symlink planted in an output folder never followed."""

from __future__ import annotations

import os
import resource
import stat
from pathlib import Path

import pytest
from faultkit import game_lines, run, simulated, temporaries

pytestmark = [pytest.mark.process, pytest.mark.skipif(os.name != "posix", reason="modes, links, devices")]


def messy(text: str) -> str:
    return text.replace("\n1. ", "\n1.  ", 1)  # not canonical: `fmt` rewrites it


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def game() -> str:
    return simulated(2, seed=11)


def test_modes_are_kept_and_read_only_files_refused_without_force(tmp_path: Path, game: str) -> None:
    source = tmp_path / "in.dgn"
    source.write_text(game)
    for command, target, make in [
        (["fmt"], tmp_path / "f.dgn", lambda p: p.write_text(messy(game))),
        (["convert", source, "--to", "csv", "-o"], tmp_path / "o.csv", lambda p: p.write_text("old\n")),
        (["convert", source, "--to", "json", "-o"], tmp_path / "o.json", lambda p: p.write_text("old\n")),
    ]:
        make(target)
        args = [*command, target] if command == ["fmt"] else [*command, target]
        target.chmod(0o664)
        done = run(*args)
        assert done.code == 0, done
        assert mode(target) == 0o664, command
        make(target)
        target.chmod(0o444)
        before = target.read_bytes()
        refused = run(*args)
        assert refused.code == 2 and f"{target} is read-only (mode 0444)" in refused.err, refused
        assert "--force" in refused.err and target.read_bytes() == before and mode(target) == 0o444
        forced = run(*args, "--force")
        assert forced.code == 0, forced
        assert target.read_bytes() != before and mode(target) == 0o444
    assert not temporaries(tmp_path)


def test_record_keeps_the_mode_and_refuses_a_read_only_file(tmp_path: Path) -> None:
    options, lines, _ = game_lines()
    path = tmp_path / "g.dgn"
    assert run("record", path, *options, stdin=lines[0] + "\n").code == 0
    path.chmod(0o664)
    assert run("record", path, stdin=lines[1] + "\n").code == 0
    assert mode(path) == 0o664
    path.chmod(0o444)
    before = path.read_bytes()
    refused = run("record", path, stdin=lines[2] + "\n")
    assert refused.code == 2 and "is read-only (mode 0444)" in refused.err and path.read_bytes() == before
    forced = run("record", path, "--force", stdin=lines[2] + "\n")
    assert forced.code == 0, forced
    assert lines[2] + "\n" in path.read_text() and mode(path) == 0o444


def test_a_new_file_gets_the_umasks_mode(tmp_path: Path, game: str) -> None:
    source = tmp_path / "in.dgn"
    source.write_text(game)
    done = run("convert", source, "--to", "jsonl", "-o", tmp_path / "new.jsonl", preexec=lambda: os.umask(0o027))
    assert done.code == 0 and mode(tmp_path / "new.jsonl") == 0o640


def test_symlinks_are_written_through_and_stay_links(tmp_path: Path, game: str) -> None:
    real = tmp_path / "real"
    real.mkdir()
    target = real / "game.dgn"
    target.write_text(messy(game))
    target.chmod(0o640)
    link = tmp_path / "link.dgn"
    link.symlink_to(Path("real") / "game.dgn")
    done = run("fmt", link)
    assert done.code == 0, done
    assert link.is_symlink() and os.readlink(link) == str(Path("real") / "game.dgn")
    assert target.read_text() == game and mode(target) == 0o640

    options, lines, _ = game_lines()
    record_target = real / "night.dgn"
    record_link = tmp_path / "night.dgn"
    record_link.symlink_to(record_target)
    assert run("record", record_link, *options, stdin="\n".join(lines[:4]) + "\n").code == 0
    assert run("record", record_link, stdin=lines[4] + "\n").code == 0  # resumed through the link
    assert record_link.is_symlink() and lines[4] + "\n" in record_target.read_text()
    assert not temporaries(tmp_path) and not temporaries(real)


def test_a_symlink_planted_in_an_output_folder_is_not_followed(tmp_path: Path, game: str) -> None:
    pytest.importorskip("pyarrow")
    source = tmp_path / "good.dgn"
    source.write_text(game)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    out = tmp_path / "outdir"
    out.mkdir()
    (out / "games.parquet").symlink_to(Path("..") / "victim.txt")
    (out / "plays.parquet").symlink_to(victim)
    done = run("convert", source, "--to", "parquet", "-o", out)
    assert done.code == 0, done
    assert victim.read_text() == "precious\n" and not victim.is_symlink()
    assert not (out / "games.parquet").is_symlink() and (out / "games.parquet").read_bytes()[:4] == b"PAR1"
    assert not temporaries(tmp_path)
    # A folder holding files the command did not write is refused rather than replaced.
    (out / "notes.txt").write_text("mine")
    refused = run("convert", source, "--to", "parquet", "-o", out)
    assert refused.code == 2 and "notes.txt" in refused.err and (out / "notes.txt").read_text() == "mine"


def test_a_full_disk_is_one_line_and_leaves_the_file_as_it_was(tmp_path: Path, game: str) -> None:
    source = tmp_path / "in.dgn"
    source.write_text(game * 20)
    device = run("convert", source, "--to", "csv", "-o", "/dev/full")
    assert device.code == 2, device
    assert device.err.count("\n") == 1 and "/dev/full: cannot write: No space left on device" in device.err
    # A regular file on a "full disk": the file size limit (Python ignores SIGXFSZ: the write fails EFBIG).
    target = tmp_path / "out.json"
    target.write_text("old\n")

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    full = run("convert", source, "--to", "json", "-o", target, preexec=small_files)
    assert full.code == 2 and full.err.count("\n") == 1 and f"{target}: cannot write:" in full.err, full
    assert target.read_text() == "old\n" and not temporaries(tmp_path)
    fmt_target = tmp_path / "big.dgn"
    fmt_target.write_text(messy(game * 20))
    before = fmt_target.read_bytes()
    full = run("fmt", fmt_target, preexec=small_files)
    assert full.code == 2 and "cannot write" in full.err and fmt_target.read_bytes() == before
    assert not temporaries(tmp_path)
