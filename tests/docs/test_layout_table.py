"""The folder table (README.md's "Where things are", docs/architecture.md's "The folders") tells the truth.

pyproject.toml's `[tool.setuptools.package-dir]` decides where each part of `diamonds` lives; the table
must say the same, name every top-level folder of the repository, and be the same table on both pages.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| `(?P<folder>[^`]+)/` \| (?:`(?P<name>[\w.]+)`|not installed) \| (?P<role>.+) \|$")
#: Folders of a checkout that are not the project's: tools' and Python's own.
NOT_OURS = re.compile(r"^\.|\.egg-info$|^(build|dist|venv|__pycache__|htmlcov)$")


def table(page: str) -> list[tuple[str, str | None, str]]:
    """The rows of the page's folder table: (folder, import name or None, role)."""
    lines = (ROOT / page).read_text(encoding="utf-8").split("\n")
    start = lines.index("| folder | import name | what it holds |")
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        match = ROW.match(line)
        assert match, f"{page}: a row of the folder table is not `| `folder/` | `import.name` or not installed | role |`: {line}"
        rows.append((match["folder"], match["name"], match["role"]))
    return rows


def package_dir() -> dict[str, str]:
    with (ROOT / "pyproject.toml").open("rb") as stream:
        return dict(tomllib.load(stream)["tool"]["setuptools"]["package-dir"])


def folder_of(name: str, mapped: dict[str, str]) -> str:
    """Where setuptools finds package `name`: the folder of its nearest mapped ancestor, plus the rest."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        prefix = ".".join(parts[:cut])
        if prefix in mapped:
            return "/".join([mapped[prefix].rstrip("/"), *parts[cut:]])
    raise AssertionError(f"{name}: no package-dir entry maps it or an ancestor")


def test_the_readme_and_the_architecture_page_show_the_same_table():
    assert table("README.md") == table("docs/architecture.md")


def test_every_installed_row_is_where_package_dir_puts_it_and_every_mapping_has_a_row():
    rows = table("README.md")
    mapped = package_dir()
    installed = {name: folder for folder, name, _ in rows if name is not None}
    for name, folder in installed.items():
        assert folder_of(name, mapped) == folder, f"{name} lives in {folder_of(name, mapped)}/, not {folder}/"
        assert (ROOT / folder).is_dir(), f"{folder}/ is not there"
    assert set(mapped) - set(installed) == set(), "a package-dir entry without a row"


def test_every_top_level_folder_has_a_row():
    rows = table("README.md")
    top = {folder.split("/")[0] for folder, _, _ in rows}
    present = {path.name for path in ROOT.iterdir() if path.is_dir() and not NOT_OURS.search(path.name)}
    assert present - top == set(), "top-level folders the table does not name"
    assert top - present == set(), "rows for folders that are not there"
