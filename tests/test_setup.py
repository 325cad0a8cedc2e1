"""setup.py, the build's computed parts: what a compiled build leaves behind for the next one."""

from __future__ import annotations

import ast
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


#: Module constants a test swaps for another value (monkeypatch): Final, the compiled code would keep the first.
SWAPPED = {"diamonds/replay/validate.py": {"_READ_MOVES"}, "diamonds/notation/fastpath.py": {"_REMEMBERED_LINES"}}


def _compiled_sources(setup_py) -> dict[str, Path]:
    """Each module the compiled build compiles, by its installed path, and its file in the repository."""
    mapping = setup_py["package_dirs"]()  # type: ignore[operator]
    folders = {package.replace(".", "/"): REPO / folder for package, folder in mapping.items()}  # type: ignore[union-attr]
    found: dict[str, Path] = {}
    for entries in setup_py["GROUPS"].values():  # type: ignore[union-attr]
        for entry in entries:
            package = max((name for name in folders if entry == name or entry.startswith(name + "/")), key=len)
            path = folders[package] / entry[len(package):].lstrip("/")
            for file in sorted(path.glob("*.py")) if path.is_dir() else [path]:
                installed = f"{entry}/{file.name}" if path.is_dir() else entry
                if installed not in setup_py["PURE"]:  # type: ignore[operator]
                    found[installed] = file
    return found


def _constants_read_in_functions(tree: ast.Module) -> dict[str, int]:
    """Module-level names written as constants (upper case), bound once and read inside a function: their lines."""
    bound: dict[str, int] = {}
    again: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names = [n for target in node.targets for n in ast.walk(target) if isinstance(n, ast.Name)]
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") in ("TypeVar", "ParamSpec"):
                continue
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            if "Final" in ast.unparse(node.annotation) or "TypeAlias" in ast.unparse(node.annotation):
                continue
            names = [node.target]
        else:
            again.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
                         and not isinstance(node, (ast.FunctionDef, ast.ClassDef)))
            continue
        for name in names:
            (again.add(name.id) if name.id in bound else bound.__setitem__(name.id, node.lineno))
    again.update(name for node in ast.walk(tree) if isinstance(node, ast.Global) for name in node.names)
    read = {n.id for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.Lambda))
            for n in ast.walk(f) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return {name: line for name, line in bound.items()
            if name not in again and name in read and name != "__all__" and name.lstrip("_").isupper()}


def test_the_compiled_modules_constants_are_final(setup_py) -> None:
    """Compiled, a module constant declared `Final` is a C static; any other module name is a dictionary
    lookup by its name at every read (docs/build.md). So every constant a compiled module's functions read
    is `Final`, but for those a test swaps."""
    sources = _compiled_sources(setup_py)
    assert len(sources) > 40, sorted(sources)
    loose = [f"{installed}:{line} {name}" for installed, file in sources.items()
             for name, line in _constants_read_in_functions(ast.parse(file.read_text(encoding="utf-8"))).items()
             if name not in SWAPPED.get(installed, set())]
    assert not loose, loose
