"""The shell examples of README.md and docs/*.md run as written, with the installed `diamonds` command.

The convention (CONTRIBUTING.md, "Examples are tests"): every ```sh block runs, unless the line just
before its fence is `<!-- not run: REASON -->`. A block's commands run one after another, in one
temporary folder holding a copy of samples/ (as in a clone), with standard input empty, each in bash
with `pipefail`; each must exit 0, or the status its line names in a trailing `# exit status N`.
`pip install` commands are not run (the tests run where `.[test]` is installed, which holds every
extra's parts); each extra they name must exist in pyproject.toml.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = re.compile(r"^<!-- not run: (?P<reason>.*\S) -->$")
STATUS = re.compile(r"#.*\bexit status (?P<status>\d+)\b")
INSTALL = re.compile(r"^(?:python -m )?pip install (?P<what>.+)$")
EXTRA = re.compile(r"\[(?P<extras>[^\]]+)\]")
#: A hung command stops the test instead of the run; no example comes near it.
HANG = 600


@dataclass(frozen=True, slots=True)
class Example:
    """One ```sh block: where it is, its commands (continuations joined), and why it is not run, if so."""

    page: str
    line: int  # of the opening fence, 1-based
    commands: tuple[str, ...]
    not_run: str | None

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}"


def examples(path: Path) -> list[Example]:
    """The ```sh blocks of a Markdown page."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found = []
    index = 0
    while index < len(lines):
        if lines[index].strip() != "```sh":
            index += 1
            continue
        fence = index
        body = []
        index += 1
        while lines[index].strip() != "```":
            body.append(lines[index])
            index += 1
        before = lines[fence - 1].strip() if fence else ""
        mark = NOT_RUN.match(before)
        if before.startswith("<!--") and mark is None:
            raise AssertionError(f"{path.name}:{fence}: a comment before a ```sh block must be `<!-- not run: REASON -->`")
        found.append(Example(path.relative_to(ROOT).as_posix(), fence + 1, tuple(commands(body)),
                             mark.group("reason") if mark else None))
    return found


def commands(body: list[str]) -> list[str]:
    """The commands of a block: blank and comment-only lines dropped, backslash continuations joined."""
    out: list[str] = []
    pending = ""
    for line in body:
        if line.endswith("\\"):
            pending += line[:-1]
            continue
        line, pending = pending + line, ""
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(line.strip())
    return out


def extras() -> set[str]:
    with (ROOT / "pyproject.toml").open("rb") as stream:
        return set(tomllib.load(stream)["project"]["optional-dependencies"])


def without_installs(command: str, known: set[str]) -> str:
    """The command with its `pip install` parts left out (each extra they name checked); "" if nothing is left."""
    kept = []
    for part in command.split(" && "):
        install = INSTALL.match(part.split(" #")[0].strip())
        if install is None:
            kept.append(part)
            continue
        for group in EXTRA.finditer(install.group("what")):
            for extra in group.group("extras").split(","):
                assert extra.strip() in known, f"`{part}` names the extra {extra!r}, which pyproject.toml lacks"
    return " && ".join(kept)


ALL = [example for page in PAGES for example in examples(page)]
RUN = [example for example in ALL if example.not_run is None]


def test_the_pages_have_examples_and_most_of_the_readme_s_run():
    readme = [example for example in ALL if example.page == "README.md"]
    assert len(readme) >= 10, "the README's ```sh blocks are no longer found: did the fences change?"
    assert sum(example.not_run is None for example in readme) >= len(readme) - 4


@pytest.fixture()
def clone(tmp_path: Path) -> Path:
    """A folder like a clone's, for the examples' relative paths: samples/ (copied: examples may write)."""
    shutil.copytree(ROOT / "samples", tmp_path / "samples", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


@pytest.mark.parametrize("example", RUN, ids=[example.name for example in RUN])
def test_the_example_runs_as_written(example: Example, clone: Path) -> None:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])  # this venv's diamonds
    for name in ("FORCE_COLOR", "CLICOLOR_FORCE", "PYTHONPATH"):
        env.pop(name, None)
    known = extras()
    for written in example.commands:
        command = without_installs(written, known)
        if not command:
            continue
        expected = STATUS.search(command)
        status = int(expected.group("status")) if expected else 0
        done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=clone, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=HANG)
        assert done.returncode == status, (
            f"{example.name}: `{written}` exited {done.returncode}, not {status}\n"
            f"stdout:\n{done.stdout[-2000:]}\nstderr:\n{done.stderr[-2000:]}")
