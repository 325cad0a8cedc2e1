"""The `diamonds` command run in this process, for tests: the `diamonds` fixture and what it returns."""

from __future__ import annotations

import io
import sys

import pytest

from diamonds.cli.main import main

ANSI = "\x1b"


class Run:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def __repr__(self) -> str:
        return f"<exit {self.code}\nstdout:\n{self.out[:2000]}\nstderr:\n{self.err[:2000]}>"


@pytest.fixture()
def diamonds(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Run the command in this process: diamonds("validate", path) -> Run."""
    for name in ("FORCE_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")

    def run(*args: object, stdin: bytes | None = None) -> Run:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        capsys.readouterr()
        try:
            code = main([str(a) for a in args])
        except SystemExit as exit:  # argparse: --help, --version, usage errors
            code = exit.code if isinstance(exit.code, int) else 0 if exit.code is None else 2
        out, err = capsys.readouterr()
        assert ANSI not in out and ANSI not in err, "colour codes in captured output"
        assert "Traceback" not in err and "internal error" not in err, err
        return Run(code, out, err)

    return run
