"""setup.py, the build's computed parts: what a compiled build leaves behind for the next one."""

from __future__ import annotations

import importlib.machinery
import runpy
from pathlib import Path

import pytest
import setuptools

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def setup_py(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """setup.py's functions, read without building anything (`setup()` made a no-op, no DIAMONDS_COMPILE)."""
    monkeypatch.setattr(setuptools, "setup", lambda **_: None)
    monkeypatch.delenv("DIAMONDS_COMPILE", raising=False)
    return runpy.run_path(str(REPO / "setup.py"))


def test_a_module_no_longer_compiled_leaves_no_extension_for_the_next_wheel(setup_py, tmp_path: Path) -> None:
    """The build folder outlives a build and the wheel takes all it holds: an extension of a module taken out of
    the compiled groups would ship with the next compiled build and fail at import (`no attribute init_...`)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    lib = tmp_path / "build" / "lib.platform"
    kept = lib / "diamonds" / "replay" / f"validate{suffix}"
    stale = lib / "diamonds" / "replay" / f"export{suffix}"
    shared = lib / f"diamonds__mypyc{suffix}"  # a group's shared library: rebuilt by every compiled build
    source = lib / "diamonds" / "replay" / "export.py"
    for path in (kept, stale, shared, source):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    remove = setup_py["remove_stale_extensions"]
    remove({"diamonds/replay/validate", "diamonds/core/cards"}, str(tmp_path / "build"))  # type: ignore[operator]
    assert (kept.exists(), stale.exists(), shared.exists(), source.exists()) == (True, False, True, True)


def test_the_compiled_groups_name_modules_that_exist(setup_py) -> None:
    """Every module or folder a group names is in the repository's installed layout (a typo would compile nothing)."""
    mapping = setup_py["package_dirs"]()  # type: ignore[operator]
    folders = {package.replace(".", "/"): REPO / folder for package, folder in mapping.items()}  # type: ignore[union-attr]
    for entries in setup_py["GROUPS"].values():  # type: ignore[union-attr]
        for entry in entries:
            package = max((name for name in folders if entry == name or entry.startswith(name + "/")), key=len)
            path = folders[package] / entry[len(package):].lstrip("/")
            assert path.exists(), entry
