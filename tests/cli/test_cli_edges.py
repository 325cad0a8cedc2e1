"""The command line as a new user meets it (issue 23, clig.dev): a mistyped command or option gets a
"did you mean", a bad option prints its own command's usage, and every option says what it does."""

from __future__ import annotations

import argparse

import pytest

from diamonds.cli.main import build_parser, main


def parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    found = [("diamonds", build_parser())]
    for _, parser in list(found):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                found.extend((f"diamonds {name}", sub) for name, sub in action.choices.items())
    return found


def test_every_option_of_every_command_has_help_text() -> None:
    missing = [f"{name} {'/'.join(action.option_strings) or action.dest}"
               for name, parser in parsers() for action in parser._actions
               if not isinstance(action, argparse._SubParsersAction)
               and (not action.help or action.help == argparse.SUPPRESS and action.option_strings != ["-h", "--help"])]
    assert not missing, f"options without help: {missing}"


@pytest.mark.parametrize("argv, suggestion", [
    (["valdate", "x.dgn"], "did you mean validate?"),
    (["validate", "--formt", "json", "x.dgn"], "did you mean --format?"),
    (["validate", "--format", "jsn", "x.dgn"], "did you mean json?"),
    (["simulate", "--gmes", "2"], "did you mean --games?"),
    (["--verison"], "did you mean --version?"),
])
def test_a_mistyped_word_gets_a_did_you_mean(argv, suggestion, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert suggestion in capsys.readouterr().err


def test_a_bad_option_prints_its_commands_usage(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["validate", "--zzzzzz", "x.dgn"])
    err = capsys.readouterr().err
    assert err.startswith("usage: diamonds validate ")
    assert "diamonds validate: error: unrecognized arguments: --zzzzzz\n" in err
    assert "did you mean" not in err  # nothing close enough


@pytest.mark.parametrize("name", [name.split()[1] for name, _ in parsers()[1:]])
def test_a_command_started_alone_has_every_option_the_whole_parser_gives_it(name, capsys) -> None:
    """`main` builds only the named command's options (start-up): its help is the whole parser's."""
    whole = dict(parsers())[f"diamonds {name}"].format_help()
    with pytest.raises(SystemExit) as stop:
        main([name, "--help"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == whole
