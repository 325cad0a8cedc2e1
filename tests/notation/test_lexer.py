"""The Pygments lexer for DGN (notation/lexer.py): found through its entry point, faithful to the grammar.

Faithful means: on every valid game, of every family and set-up, it cuts the
text into exactly the tokens Lark's own lexer reads when the reader parses
it (same terminals, same places), with no Error token, and its tokens put
back together are the text. On a broken game, its first Error token stands
where the reader reports the syntax problem.

`DIAMONDS_LEXER_GAMES` sets how many games are simulated (default 480, to
keep this file near 30 s; most of that time is the engine playing them).
"""

from __future__ import annotations

import itertools
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Lark, Token
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Comment, Error, Generic, Keyword, Name, Number, Operator, Punctuation, String

from diamonds.core import ConfigError
from diamonds.core.registry import RULE_SETS
from diamonds.core.simulate import DEFAULT_NAMES, play_random_game
from diamonds.notation import game_texts, parse_game
from diamonds.notation.lexer import TOKEN_OF, DGNLexer, terminals
from diamonds.notation.reader import grammar_text
from diamonds.notation.writer import write_game
from diamonds.replay.record import record_from_game

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.dgn"))
INVALID = sorted((ROOT / "samples" / "invalid").glob("*.dgn"))
GAMES = int(os.environ.get("DIAMONDS_LEXER_GAMES", "240"))


# --------------------------------------------------------------------------- the reader's own tokens


class _Sink:
    def __init__(self) -> None:
        self.tokens: list[Token] = []

    def __call__(self, token: Token) -> Token:
        self.tokens.append(token)
        return token


_SINK = _Sink()
_LARK = Lark(grammar_text(), parser="lalr", lexer="contextual", maybe_placeholders=False,
             lexer_callbacks={name: _SINK for name in TOKEN_OF})


def lark_tokens(text: str) -> list[tuple[int, str, str]]:
    """Every token Lark's contextual lexer reads while parsing `text` (one valid game), ignored ones too."""
    _SINK.tokens = []
    _LARK.parse(text)
    return [(t.start_pos or 0, t.type, str(t)) for t in _SINK.tokens]


def assert_faithful(text: str) -> None:
    """The lexer's terminals are Lark's; no Error; the Pygments tokens put together are the text."""
    found = list(terminals(text))
    assert [t for t in found if t[1] is None] == []
    assert found == lark_tokens(text)
    tokens = list(DGNLexer().get_tokens_unprocessed(text))
    assert "".join(value for _, _, value in tokens) == text
    assert all(token is not Error for _, token, _ in tokens)


# --------------------------------------------------------------------------- registration


def test_found_by_name_and_by_file_name() -> None:
    assert isinstance(get_lexer_by_name("dgn"), DGNLexer)
    assert isinstance(get_lexer_for_filename("club-night.dgn"), DGNLexer)


@pytest.mark.parametrize("how", [["-l", "dgn"], []], ids=["by-name", "by-file-name"])
def test_pygmentize(how: list[str]) -> None:
    """`pygmentize -l dgn game.dgn` (and by the file's name alone) highlights; raw output names the tokens."""
    sample = ROOT / "samples" / "bidding-3p-club.dgn"
    done = subprocess.run([sys.executable, "-m", "pygments", *how, "-f", "raw", str(sample)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Token.Name.Attribute\t'S'" in done.stdout  # a Joker's suit: the DGN lexer, not a text one
    assert "Token.Error" not in done.stdout


def test_table_covers_every_terminal_of_the_grammar() -> None:
    assert set(TOKEN_OF) == {t.name for t in _LARK.terminals}


# --------------------------------------------------------------------------- what each thing is


def tokens_of(text: str) -> list[tuple[object, str]]:
    return [(token, value) for _, token, value in DGNLexer().get_tokens_unprocessed(text) if value.strip()]


def test_tags_and_result() -> None:
    assert tokens_of('[Event "Club night"]\n[Result "Ann+Cat 50, Bob+Dan 44"]\n') == [
        (Punctuation, "["), (Name.Tag, "Event"), (String.Double, '"Club night"'), (Punctuation, "]"),
        (Punctuation, "["), (Name.Tag, "Result"), (Generic.Strong, '"Ann+Cat 50, Bob+Dan 44"'), (Punctuation, "]"),
    ]


def test_comments_of_both_kinds() -> None:
    assert tokens_of("{a note} 1. 5H ; and one to the end\n") == [
        (Comment.Multiline, "{a note}"), (Generic.Subheading, "1."), (Name.Constant, "5H"),
        (Comment.Single, "; and one to the end"),
    ]


def test_round_header_with_its_pass_count_and_a_pass_line() -> None:
    """R6: the dealer's pass count in the header; `pass <id>` then the cards passed."""
    assert tokens_of("R1 dealer Ann pass 2\npass Ann 9D 12H\n") == [
        (Generic.Heading, "R1"), (Keyword, "dealer"), (Name.Variable, "Ann"), (Keyword, "pass"),
        (Number.Integer, "2"), (Keyword, "pass"), (Name.Variable, "Ann"), (Name.Constant, "9D"),
        (Name.Constant, "12H"),
    ]


def test_suit_action_victims_on_a_card_and_after_end() -> None:
    """R14: `>id` on a Clubs card and after `end` names the victim of a Suit Action; annotations stay apart."""
    assert tokens_of("3. 10C>Ines_B!? 4S\nend >Bob\n") == [
        (Generic.Subheading, "3."), (Name.Constant, "10C"), (Name.Function, ">Ines_B"), (Generic.Emph, "!?"),
        (Name.Constant, "4S"), (Keyword, "end"), (Name.Function, ">Bob"),
    ]


def test_bids_takes_and_joker_suits() -> None:
    """B3-B5 calls; B7: the Joker's given suit and high/low, an ace's sign."""
    assert tokens_of("bid Bob 3\ntake Bob 9H point QS\nfinal Bob 4\n1. AH- 9H JoS+\n") == [
        (Keyword, "bid"), (Name.Variable, "Bob"), (Number.Integer, "3"),
        (Keyword, "take"), (Name.Variable, "Bob"), (Name.Constant, "9H"), (Keyword, "point"), (Name.Constant, "QS"),
        (Keyword, "final"), (Name.Variable, "Bob"), (Number.Integer, "4"),
        (Generic.Subheading, "1."), (Name.Constant, "AH"), (Operator, "-"), (Name.Constant, "9H"),
        (Name.Constant, "Jo"), (Name.Attribute, "S"), (Operator, "+"),
    ]


def test_a_word_is_what_its_place_makes_it() -> None:
    """As in the reader's contextual lexer: `JD` after `deal` is a player's id, then a card."""
    assert tokens_of("deal JD JD kitty") == [
        (Keyword, "deal"), (Name.Variable, "JD"), (Name.Constant, "JD"), (Keyword, "kitty"),
    ]


def test_rich_syntax_uses_it() -> None:
    from rich.console import Console
    from rich.syntax import Syntax

    console = Console(width=80, color_system="truecolor", force_terminal=True)
    segments = console.render(Syntax("1. JoS+ 9H", "dgn", theme="monokai"))
    styles = {segment.text: segment.style for segment in segments if segment.text.strip()}
    assert styles["Jo"] != styles["S"]  # the Joker's given suit stands out from the card
    assert styles["1."] != styles["9H"]


# --------------------------------------------------------------------------- every valid game


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_lexes_as_the_reader_reads_it(path: Path) -> None:
    with path.open(encoding="utf-8") as stream:
        texts = [text for _, _, text in game_texts(stream)]
    assert texts
    for text in texts:
        assert_faithful(text)
    whole = path.read_text(encoding="utf-8")  # and the file as pygmentize gets it, games one after another
    assert "".join(value for _, _, value in DGNLexer().get_tokens_unprocessed(whole)) == whole
    assert all(token is not Error for _, token, _ in DGNLexer().get_tokens_unprocessed(whole))


def _set_ups() -> list[tuple[str, int, tuple[str, ...], dict[str, str]]]:
    """Every rule set of every family, at every player count, with every combination of its variants it accepts."""
    found = []
    for rule_id, rules in RULE_SETS.items():
        for count in rules.player_counts:
            for size in range(len(rules.variants) + 1):
                for variants in itertools.combinations(rules.variants, size):
                    try:
                        rules.configure(DEFAULT_NAMES[:count], variants=variants, dealer=0)
                    except ConfigError:
                        continue
                    found.append((rule_id, count, variants, {}))
        for tag in rules.option_tags:  # Kirk's Hands and Target (K8)
            found.append((rule_id, rules.default_players, (), {tag: "2" if tag == "Hands" else "150"}))
    return found


SET_UPS = _set_ups()


def test_set_ups_cover_every_family() -> None:
    assert {rule_id for rule_id, *_ in SET_UPS} == set(RULE_SETS)
    assert any("partnership" in variants for _, _, variants, _ in SET_UPS)
    assert any(options for *_, options in SET_UPS)


@pytest.mark.slow  # hundreds of simulated games lexed
def test_simulated_games_of_every_family_and_set_up() -> None:
    """`GAMES` random games, spread over the set-ups, written with and without deal lines and with
    comments and annotations strewn between the tokens: none has an Error token, and every fourth is
    checked token by token against the reader's own lexer (the engine's time is most of this test's)."""
    rng = random.Random(13)
    per_set_up = max(1, GAMES // len(SET_UPS))
    lexed = 0
    for rule_id, count, variants, options in SET_UPS:
        rules = RULE_SETS[rule_id]
        for number in range(per_set_up):
            config = rules.configure(DEFAULT_NAMES[:count], variants=variants, dealer=rng.randrange(count),
                                     options=options)
            game = play_random_game(config, rng)
            text = write_game(record_from_game(game, deals=number % 2 == 0))
            for variant in (text, _strewn(text, rng)):
                if lexed % 4 == 0:
                    assert_faithful(variant)
                else:
                    tokens = list(terminals(variant))
                    assert "".join(value for _, _, value in tokens) == variant
                    assert [value for _, name, value in tokens if name is None] == []
                lexed += 1
    assert lexed == 2 * per_set_up * len(SET_UPS)


_CARD = re.compile(r"(?:1[0-5]|[1-9]|[TJQKA])[DHSC]")


def _strewn(text: str, rng: random.Random) -> str:
    """`text` with comments between the movetext's tokens and annotations on some cards, as a scorer
    writes them (the tag section is left alone: a tag is one line)."""
    cut = text.index("\nR") + 1
    out = []
    for word in text[cut:].split(" "):
        if _CARD.fullmatch(word) and rng.random() < 0.1:
            word += rng.choice(["!", "?", "!!", "??", "!?", "?!"])
        out.append(word)
        if rng.random() < 0.05:
            out.append(rng.choice(["{a {note}", "{}", "; to the end of the line\n", "\t{tab}\r\n"]))
    return text[:cut] + " ".join(out)


# --------------------------------------------------------------------------- broken games


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.name)
def test_errors_only_where_the_reader_reports_a_syntax_problem(path: Path) -> None:
    """A syntax problem: the lexer's first Error is at the reader's place for it. A broken rule
    (a revoke, a wrong count) is no business of a lexer: no Error at all."""
    with path.open(encoding="utf-8") as stream:
        games = list(game_texts(stream))
    for _, first_line, text in games:
        record = parse_game(text, first_line=first_line)
        errors = [pos for pos, name, _ in terminals(text) if name is None]
        if not record.problems:
            assert errors == [], f"{path.name}: an Error where the reader reads the game"
            continue
        problem = record.problems[0]
        assert errors, f"{path.name}: the reader reports {problem.message}, the lexer nothing"
        line = text.count("\n", 0, errors[0]) + first_line
        column = errors[0] - (text.rfind("\n", 0, errors[0]) + 1) + 1
        assert (line, column) == (problem.line, problem.column), problem.message


@pytest.mark.parametrize("text", [
    "R1 dealer Ann\n1. 07D 5H", "R1 dealer Ann\n1. 16H 5H", '[Site "no closing quote]\n',
    "R1 dealer Ann pass Bob", "R1 dealer Ann\ndeal Ann 2D3D", "R1 dealer Ann\nBob 5H",
    "R1 dealer Ann\n1. 5H\nenders", "R1 dealer Ann\nbid Ann many", "{not closed", "[Event \"x\" \"y\"]",
], ids=repr)
def test_broken_text_errors_where_the_reader_does(text: str) -> None:
    record = parse_game(text)
    assert record.problems
    tokens = list(DGNLexer().get_tokens_unprocessed(text))
    assert "".join(value for _, _, value in tokens) == text
    errors = [pos for pos, token, _ in tokens if token is Error]
    assert errors
    where = text.count("\n", 0, errors[0]) + 1, errors[0] - (text.rfind("\n", 0, errors[0]) + 1) + 1
    assert where == (record.problems[0].line, record.problems[0].column)


@pytest.mark.parametrize("text", ["R1 dealer", "[Event", "R1 dealer Ann pass", "take Bob 9H point"], ids=repr)
def test_a_game_cut_short_has_no_error_token(text: str) -> None:
    """The reader reports what is missing at the end of the game; a lexer marks text, and no text is
    wrong here, only absent: so no Error (each piece still has its own token)."""
    assert parse_game(text).problems
    tokens = list(DGNLexer().get_tokens_unprocessed(text))
    assert all(token is not Error for _, token, _ in tokens)
    assert "".join(value for _, _, value in tokens) == text


def test_an_item_out_of_place_is_not_an_error_to_the_lexer() -> None:
    """The one place the lexer and the reader part: the reader wants a round header before a trick;
    the lexer reads item by item, so that one quoted line (`validate` quotes one) highlights alone."""
    text = "1. 5H 9H 2S"
    assert parse_game(text).problems
    assert [name for _, name, _ in terminals(text) if name != "WS"] == ["TRICK", "PLAY", "PLAY", "PLAY"]


# --------------------------------------------------------------------------- `diamonds validate` in colour

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _problems_of(path: Path) -> list[tuple[object, object]]:
    from diamonds.replay import validate_record

    found = []
    with path.open(encoding="utf-8") as stream:
        for index, first_line, text in game_texts(stream):
            record = parse_game(text, first_line=first_line, index=index)
            found += [(record, problem) for problem in validate_record(record).problems]
    return found


@pytest.mark.parametrize("name", ["revoke", "rank-16", "unclosed-tag-value", "misspelt-player"])
def test_coloured_problem_is_the_plain_one_highlighted(name: str) -> None:
    from diamonds.notation.diagnostics import format_problem

    found = _problems_of(ROOT / "samples" / "invalid" / f"{name}.dgn")
    assert found
    for record, problem in found:
        plain = format_problem("f.dgn", record, problem)  # type: ignore[arg-type]
        coloured = format_problem("f.dgn", record, problem, colour=True)  # type: ignore[arg-type]
        assert coloured != plain
        assert _ANSI.sub("", coloured) == plain  # the same characters, the same columns
        quoted = coloured.split("\n")[1]
        if problem.code == "syntax":  # R-free: the word the reader cannot read is the lexer's Error
            assert "\x1b[04m\x1b[91m" in quoted  # pygments' underlined bright red: Error
        else:
            assert "\x1b[04m\x1b[91m" not in quoted


def _run_in_pty(arguments: list[str], env: dict[str, str]) -> str:
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, ["-m", "diamonds.cli.main", *arguments], cwd=str(ROOT),
                          env=env, encoding="utf-8", timeout=60, dimensions=(24, 200))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    return str(child.before).replace("\r\n", "\n")


def _environment(**changes: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.setdefault("TERM", "xterm-256color")
    if env["TERM"] == "dumb":
        env["TERM"] = "xterm-256color"
    env.update(changes)
    return env


def test_validate_highlights_on_a_terminal() -> None:
    expected = (ROOT / "samples" / "invalid" / "revoke.expected").read_text(encoding="utf-8")
    shown = _run_in_pty(["validate", "samples/invalid/revoke.dgn"], _environment())
    assert _ANSI.search(shown), "no colour on a terminal"
    assert _ANSI.sub("", shown).startswith(expected.rstrip("\n") + "\n")


def test_no_colour_with_no_color_set_nor_through_a_pipe() -> None:
    expected = (ROOT / "samples" / "invalid" / "revoke.expected").read_text(encoding="utf-8")
    shown = _run_in_pty(["validate", "samples/invalid/revoke.dgn"], _environment(NO_COLOR="1"))
    assert not _ANSI.search(shown)
    assert shown.startswith(expected.rstrip("\n") + "\n")
    piped = subprocess.run([sys.executable, "-m", "diamonds.cli.main", "validate", "samples/invalid/revoke.dgn"],
                           cwd=ROOT, env=_environment(), capture_output=True, text=True, timeout=60)
    assert piped.returncode == 1
    assert piped.stdout == expected.rstrip("\n") + "\n" + "1 game: 0 valid, 1 invalid, 0 incomplete\n"
