"""The registry reads entry points itself (importing importlib.metadata costs more than a one-game
validate's other imports); it must list what `importlib.metadata.entry_points` lists, in its order."""

from __future__ import annotations

import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from diamonds.core import registry


def standard(group: str) -> list[tuple[str, str]]:
    return [(point.name, point.value) for point in metadata.entry_points(group=group)]


def ours(group: str) -> list[tuple[str, str]]:
    return [(point.name, point.value) for point in registry.entry_points(group)]


def test_every_group_of_this_environment_reads_as_the_standard_library_reads_it() -> None:
    groups = {point.group for found in metadata.distributions() for point in found.entry_points}
    assert "diamonds.families" in groups and "console_scripts" in groups
    for group in sorted(groups):
        assert ours(group) == standard(group), group


def distribution(site: Path, folder: str, entry_points: str | None) -> None:
    info = site / folder
    info.mkdir()
    name, _, version = folder.rsplit(".", 1)[0].partition("-")
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version or '1'}\n",
                                   encoding="utf-8")
    if entry_points is not None:
        (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")


@pytest.fixture
def sites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """Two folders first on the path: the first shadows a distribution of the same name in the second."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    distribution(first, "Diamonds_Extra-2.0.dist-info",
                 "# a comment\n[diamonds.families]\n  extra = extra_pkg.games:FAMILY [fast]\n\n[other]\nx = y:z\n")
    distribution(second, "diamonds.extra-1.0.dist-info", "[diamonds.families]\nextra = old_extra:FAMILY\n")
    distribution(second, "second_game-1.0.dist-info", "[diamonds.families]\nsecond = second_game:FAMILY\n"
                 "third=third_game : FAMILY\n")
    distribution(second, "no_points-1.0.dist-info", None)
    (second / "legacy.egg-info").write_text("Metadata-Version: 1.0\nName: legacy\n", encoding="utf-8")  # a one-file egg-info
    monkeypatch.setattr(sys, "path", [str(first), str(second), str(tmp_path / "missing"), *sys.path])
    return first, second


def test_a_distribution_first_on_the_path_shadows_one_of_the_same_name(sites: tuple[Path, Path]) -> None:
    found = ours("diamonds.families")
    assert found == standard("diamonds.families")
    assert ("extra", "extra_pkg.games:FAMILY [fast]") in found
    assert ("extra", "old_extra:FAMILY") not in found
    assert ("third", "third_game : FAMILY") in found
    assert ours("other") == standard("other") == [("x", "y:z")]


def test_load_imports_the_module_and_follows_the_attribute(sites: tuple[Path, Path]) -> None:
    point = registry.EntryPoint("paths", "os : path.join [extra]")
    import os

    assert point.load() is os.path.join


def test_a_zip_on_the_path_is_left_to_the_standard_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "plugins.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("zipped_game-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped-game\nVersion: 1.0\n")
        bundle.writestr("zipped_game-1.0.dist-info/entry_points.txt", "[diamonds.families]\nzipped = zipped_game:FAMILY\n")
    monkeypatch.setattr(sys, "path", [str(archive), *sys.path])
    assert registry._scan_folders("diamonds.families") is None
    assert ("zipped", "zipped_game:FAMILY") in ours("diamonds.families") == standard("diamonds.families")
