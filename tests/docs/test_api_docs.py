"""docs/api.md's examples are tests: every `>>>` line runs, and its output must match, so the docs cannot rot.

The README's "library in five lines" is run the same way.

The standard library's doctest reads the page; the only help it gets is that
a Markdown fence line (```) ends an example's expected output, as a blank
line does in a docstring, so the page needs no blank line before each
closing fence. The examples use the bundled samples by paths relative to the
repository root, so they run there, whatever directory pytest started in.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
API = ROOT / "docs" / "api.md"
README = ROOT / "README.md"
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
FENCE = re.compile(r"^[ \t]*```.*$", re.MULTILINE)


class MarkdownParser(doctest.DocTestParser):
    """doctest's parser, with every fence line read as a blank line."""

    def parse(self, string: str, name: str = "<string>") -> list:  # type: ignore[override]
        return super().parse(FENCE.sub("", string), name)


def _run(path: Path) -> tuple[int, int]:
    return doctest.testfile(str(path), module_relative=False, optionflags=OPTIONS, parser=MarkdownParser(),
                            encoding="utf-8", report=True)


def test_every_example_of_docs_api_md_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    failures, attempted = _run(API)
    assert attempted > 100, f"docs/api.md has only {attempted} >>> examples: did the fences stop parsing?"
    assert failures == 0, f"{failures} of {attempted} examples of docs/api.md do not do what they say (above)"


def test_the_readme_library_in_five_lines_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    failures, attempted = _run(README)
    assert attempted >= 6, f"README.md has only {attempted} >>> examples"
    assert failures == 0, f"{failures} of {attempted} examples of README.md do not do what they say (above)"
