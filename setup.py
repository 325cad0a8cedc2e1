"""The build's two computed parts; everything else is declared in pyproject.toml.

1. The package list, derived from pyproject's `[tool.setuptools.package-dir]` mapping (the one place
   that says which folder is which import name): each mapped folder is a package, and so is every
   folder below it that has an `__init__.py`. A new subpackage needs no list kept by hand.
2. Under `DIAMONDS_COMPILE=1`, the hot modules compiled with mypyc (docs/build.md). Without it the
   build is pure Python and needs no compiler and no mypy: pyproject's `[build-system] requires` stays
   setuptools alone. The compiled build asks for mypy through `setup_requires`, which setuptools'
   PEP 517 backend reports to pip as a build requirement of that build only, so pip installs mypy into
   the isolated build environment just for it.
"""

from __future__ import annotations

import glob
import importlib.machinery
import os
import shutil
import sys
import tomllib

from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))

# What the compiled build compiles, as paths in the package's installed layout (diamonds/...), in groups: each
# group is one shared library (`<group>__mypyc`), and the groups are compiled in parallel (build_ext's `parallel`:
# one C compiler per core), where one library was one C file of 200,000 lines on one core. A folder means every
# module in it. Modules named in PURE stay Python even when compiled (why: docs/build.md).
GROUPS = {
    "diamonds": ["diamonds/core", "diamonds/notation/fastpath.py", "diamonds/replay/validate.py",
                 "diamonds/replay/trickgame.py", "diamonds/replay/tables.py", "diamonds/replay/export.py",
                 # The Monte Carlo bots' loop over a world's moves, and their door into a view's round.
                 "diamonds/bots/montecarlo.py", "diamonds/bots/knowledge.py",
                 # `Position`, `View` and `Game`: every playout and bot asks the position at every decision.
                 "diamonds/game.py"],
    # Each game's rules, its bot (rollouts and redraws), its replayer (the replay every command runs; Kirk's game
    # has none of its own: the house's replayer of a plain trick game, compiled above, hands its rounds to its
    # compiled table), its rows of the analysis tables (`stats`, `convert --to parquet`) and its JSON document
    # (`convert --to json`, with the house's walk of the events in diamonds/replay/export.py).
    **{f"diamonds_{name}": [f"diamonds/families/{name}/rules", f"diamonds/families/{name}/bot.py",
                            *([f"diamonds/families/{name}/bridge.py"] if name != "kirk" else []),
                            f"diamonds/families/{name}/tables.py", f"diamonds/families/{name}/export.py"]
       for name in ("fitzgerald", "kirk", "bidding")},
}
# The C compiler's optimisation (-O1) and debug info (-g0): mypyc's defaults (-O3 -g1) took 2.3 times the CPU to
# compile (docs/build.md has the figures).
OPT_LEVEL, DEBUG_LEVEL = "1", "0"
PURE = [
    "diamonds/core/word.py",  # Word subclasses str, which a native (compiled) class cannot
    # A module-level __getattr__ (names found on first use) crashes a compiled module while it is set up.
    "diamonds/core/__init__.py",
    "diamonds/core/registry.py",
    # `from .errors import *` in a compiled package's __init__ fails at import (No module named 'errors').
    "diamonds/families/fitzgerald/rules/__init__.py",
    "diamonds/families/kirk/rules/__init__.py",
    "diamonds/families/bidding/rules/__init__.py",
    # `Seating`, which a plug-in's configuration subclasses (a compiled class refuses pure subclasses, and a
    # slotted dataclass subclass would shadow a compiled base's fields), and so the configurations that subclass it.
    "diamonds/core/seating.py",
    "diamonds/families/fitzgerald/rules/config.py",
    "diamonds/families/kirk/rules/config.py",
    "diamonds/families/bidding/rules/config.py",
    # The exceptions: compiled, a subclass's `rule = "B5"` is no default of the base's `rule` attribute
    # (AttributeError: 'NotInKitty' object has no attribute 'rule').
    "diamonds/core/errors.py",
    "diamonds/families/fitzgerald/rules/errors.py",
    "diamonds/families/bidding/rules/errors.py",
]
MYPY = "mypy>=1.11"  # mypyc ships inside mypy's distribution
BUILDS = {"build", "build_ext", "bdist_wheel", "install", "develop", "editable_wheel"}  # commands that compile


def package_dirs() -> dict[str, str]:
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as handle:
        mapping: dict[str, str] = tomllib.load(handle)["tool"]["setuptools"]["package-dir"]
    return mapping


def find_packages(mapping: dict[str, str]) -> list[str]:
    """Every mapped folder, and every folder below one that has an `__init__.py` (unless mapped itself)."""
    mapped = {os.path.realpath(os.path.join(HERE, folder)) for folder in mapping.values()}
    found = []
    for package, folder in mapping.items():
        top = os.path.join(HERE, folder)
        for path, dirs, files in os.walk(top):
            if path != top and (os.path.realpath(path) in mapped or "__init__.py" not in files):
                dirs.clear()  # another mapping's folder, or no package (nor anything below it)
                continue
            relative = os.path.relpath(path, top)
            found.append(package if relative == "." else ".".join([package, *relative.split(os.sep)]))
            dirs[:] = sorted(name for name in dirs if name != "__pycache__")
    return sorted(found)


def installed_tree(mapping: dict[str, str], tree: str) -> None:
    """Lay the package out under `tree` as it installs (links to the repository's folders).

    mypy names a module by its place in this layout (diamonds/core/cards.py is `diamonds.core.cards`);
    in the repository's own layout it would name it `diamonds_core.cards`, a module that never exists.
    """
    shutil.rmtree(tree, ignore_errors=True)  # removes the links, never what they point to
    for package in sorted(mapping, key=lambda name: name.count(".")):
        source = os.path.join(HERE, mapping[package])
        target = os.path.join(tree, *package.split("."))
        if package.count(".") == 0:
            os.makedirs(target)
            for name in os.listdir(source):
                os.symlink(os.path.join(source, name), os.path.join(target, name))
        elif not os.path.lexists(target):  # a deeper mapping lies inside its parent's link
            os.symlink(source, target)


def compiled_extensions(mapping: dict[str, str]) -> tuple[list[object], list[str]]:
    """The extensions mypyc builds, or none and mypy as a build requirement while pip asks for the metadata."""
    if not BUILDS & set(sys.argv):
        # The backend's get_requires_for_build_* and prepare_metadata_* (egg_info, dist_info): say what the build
        # needs and generate nothing; mypyc's code generation (a third of the build) runs once, for the wheel.
        return [], [MYPY]
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit(f"DIAMONDS_COMPILE=1: mypyc is not installed; install {MYPY!r} or build with pip's build isolation")
    tree = os.path.join(HERE, "build", "mypyc-tree")
    installed_tree(mapping, tree)
    groups = [(modules(tree, entries), name) for name, entries in GROUPS.items()]
    remove_stale_extensions({os.path.relpath(path, tree)[:-3] for paths, _ in groups for path in paths})
    # mypy's settings are the project's (pyproject.toml [tool.mypy]); the engines pass --strict in CI.
    # (--no-warn-unused-configs: its overrides for modules the engines never reach are no error here;
    # --ignore-missing-imports: pip's isolated build has mypy alone, not lark or numpy, which modules the
    # compiled ones reach may import; the compiled modules themselves import only the standard library and
    # diamonds, as the layer contracts hold.)
    options = ["--config-file", os.path.join(HERE, "pyproject.toml"), "--no-warn-unused-configs",
               "--ignore-missing-imports"]
    # The shared libraries at the top level (`diamonds__mypyc`, ...): mypyc names each module's __file__ from its place.
    extensions = mypycify(options + [path for paths, _ in groups for path in paths], separate=groups,
                          opt_level=OPT_LEVEL, debug_level=DEBUG_LEVEL, target_dir=os.path.join(HERE, "build", "mypyc"))
    return list(extensions), []


def remove_stale_extensions(compiled: set[str], build: str = os.path.join(HERE, "build")) -> None:
    """Remove from setuptools' build folder the extension of every module not compiled now (`compiled`: their paths
    without `.py`, as `diamonds/replay/validate`). The folder outlives a build, and the wheel takes all it holds, so a
    module taken out of GROUPS would otherwise ship the last build's extension, which then fails at import."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for lib in glob.glob(os.path.join(build, "lib.*")):
        for folder, _, files in os.walk(os.path.join(lib, "diamonds")):
            for name in files:
                suffix = next((each for each in suffixes if name.endswith(each)), None)
                module = os.path.relpath(os.path.join(folder, name[:-len(suffix)]), lib) if suffix else None
                if module is not None and module.replace(os.sep, "/") not in compiled:
                    os.remove(os.path.join(folder, name))


def modules(tree: str, entries: list[str]) -> list[str]:
    """The module files `entries` name in the laid-out `tree` (a folder: every module in it), less those in PURE."""
    found = []
    for entry in entries:
        path = os.path.join(tree, entry)
        names = sorted(os.listdir(path)) if os.path.isdir(path) else [os.path.basename(path)]
        folder = path if os.path.isdir(path) else os.path.dirname(path)
        found += [os.path.join(folder, name) for name in names
                  if name.endswith(".py") and os.path.relpath(os.path.join(folder, name), tree) not in PURE]
    return found


mapping = package_dirs()
ext_modules: list[object] = []
setup_requires: list[str] = []
if os.environ.get("DIAMONDS_COMPILE", "") not in ("", "0"):
    ext_modules, setup_requires = compiled_extensions(mapping)

setup(packages=find_packages(mapping), ext_modules=ext_modules, setup_requires=setup_requires,
      options={"build_ext": {"parallel": os.cpu_count() or 1}})
