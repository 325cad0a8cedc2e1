"""Rough edges a new user found (a bug hunt of 2026-11-29), each now refused or handled as the house's errors are:
`file:line:col`, the line with a caret, a failing exit status, never a traceback.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pty
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from command import diamonds  # noqa: F401  (the fixture: the command in this process)

import diamonds as api
from diamonds.bots.analyse import annotate, judge
from diamonds.notation.writer import write_game

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def test_an_encoding_that_refuses_the_whole_stream_is_a_located_error_not_a_crash(diamonds) -> None:  # type: ignore[no-untyped-def]
    """UTF-16 asks for its byte-order mark and punycode refuses the text whole: no byte to point at, the place
    is where reading stopped, and the run fails (the codec's own UnicodeError, not a decode error)."""
    sample = SAMPLES / "1e-3p-league.dgn"
    for encoding in ("utf-16", "punycode"):
        for command in (["validate"], ["convert", "--to", "json"], ["replay", "--at", "R1.1"], ["fmt", "--check"]):
            run = diamonds(*command, "--encoding", encoding, sample)
            assert run.code == 1, (encoding, command, run)
            assert f"{sample}:1:1: not {encoding} (" in run.err, run.err


def test_a_byte_of_another_encoding_is_shown_in_its_line_with_a_caret(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "latin1.dgn"
    path.write_bytes('[Event "club"]\n[Players "h\u00e9lo\x1b[2J Bob Cat"]\n'.encode("latin-1"))
    for command in (["validate"], ["convert", "--to", "dgn"], ["stats"]):
        run = diamonds(*command, path)
        assert run.code == 1, (command, run)
        lines = run.err.splitlines()
        head = next(i for i, line in enumerate(lines) if f"{path}:2:12: not UTF-8 (byte 0xE9)" in line)
        assert lines[head + 1] == '    [Players "h\ufffd', (command, lines)
        assert lines[head + 2] == "    " + " " * len('[Players "h') + "^", (command, lines)


def test_a_control_character_before_the_bad_byte_is_shown_escaped(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "esc.dgn"
    path.write_bytes(b'[Event "a\x1b[31mb\xe9"]\n')
    run = diamonds("validate", path)
    assert run.code == 1 and '    [Event "a\\x1b[31mb\ufffd' in run.err.splitlines(), run.err


def test_fmt_fails_when_a_game_is_unreadable_and_says_so_once_per_game(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "rank.dgn"
    shutil.copy(SAMPLES / "invalid" / "rank-16.dgn", path)
    before = path.read_bytes()
    for command in (["fmt", "--check"], ["fmt"]):
        run = diamonds(*command, path)
        assert run.code == 1, (command, run)
        assert run.err.count("is unreadable and is kept as it is") == 1, run.err
    assert path.read_bytes() == before


def test_fmt_writes_a_high_ace_bare_where_it_was_written_with_its_sign(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """B7: `AC+` and `AC` say the same (a high ace); the canonical form is bare, and fmt's check of the meaning
    knows it."""
    text = (SAMPLES / "bidding-3p-club.dgn").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("10. ") and " AC" in line and "AC+" not in line)
    lines[at] = lines[at].replace(" AC", " AC+", 1)
    path = tmp_path / "ace.dgn"
    path.write_text("".join(lines), encoding="utf-8")
    assert diamonds("validate", path).code == 0
    run = diamonds("fmt", path)
    assert run.code == 0 and "formatted" in run.out, run
    assert path.read_text(encoding="utf-8") == text


def test_a_width_too_narrow_to_show_anything_is_refused(diamonds) -> None:  # type: ignore[no-untyped-def]
    sample = SAMPLES / "1e-3p-league.dgn"
    for width in ("0", "-3", "19"):
        for command in (["replay", sample, "--at", "R2.7"], ["stats", sample]):
            run = diamonds(*command, "--width", width)
            assert run.code == 2 and "--width: must be at least 20" in run.err, (width, command, run)
    assert diamonds("replay", sample, "--at", "R2.7", "--width", "20").out.strip()


def test_as_names_a_player_or_is_refused(diamonds) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("play", "--rules", "kirk", "--as", "Zed", stdin=b"quit\n")
    assert run.code == 2 and "--as Zed: not a player of this game (Ann Bob Cat Dan)" in run.err, run
    for command in (["play", "--rules", "kirk"], ["replay", SAMPLES / "1e-3p-league.dgn", "--at", "R1.1"]):
        run = diamonds(*command, "--as", "", stdin=b"quit\n")
        assert run.code == 2 and "--as: names no player" in run.err, (command, run)


def test_analyse_refuses_thresholds_and_budgets_that_mean_nothing(diamonds) -> None:  # type: ignore[no-untyped-def]
    sample = SAMPLES / "kirk-4p-hands.dgn"
    for value in ("-5", "0", "nan", "inf"):
        run = diamonds("analyse", sample, "--mistake", value)
        assert run.code == 2 and "--mistake: must be a number of points above 0" in run.err, (value, run)
    run = diamonds("analyse", sample, "--samples", "4", "--max-samples", "2")
    assert run.code == 2 and "--max-samples 2 is below --samples 4" in run.err, run


def test_analyse_keeps_the_scorers_annotation_and_adds_nothing_twice() -> None:
    game = next(api.read_games(str(SAMPLES / "kirk-4p-hands.dgn")))
    judgements = judge(game, samples=1, max_samples=1, exact_nodes=0)
    scored = {(r, t, i): play.annotation for r, rnd in enumerate(game.record.rounds) for t, trick in enumerate(rnd.tricks)
              for i, play in enumerate(trick.plays) if play.annotation}
    assert scored, "the sample has no scorer's annotation: the test checks nothing"
    marked = [j if j.glyph else dataclasses.replace(j, glyph="??") for j in judgements]  # each card gets a note
    once = annotate(game.record, marked)
    for (r, t, i), annotation in scored.items():
        play = once.rounds[r].tricks[t].plays[i]
        assert play.annotation == annotation, ((r, t, i), play.annotation)
    twice = annotate(once, marked)
    assert write_game(twice) == write_game(once)


@pytest.mark.process
@pytest.mark.skipif(sys.platform == "win32", reason="a pty")
def test_dgn_written_to_a_terminal_shows_control_characters_escaped_and_to_a_pipe_keeps_them(tmp_path: Path) -> None:
    """A comment or tag may hold any character, and `convert --to dgn` keeps it (a file or a pipe gets the
    same bytes); on a real terminal (a pty) it is shown escaped, so the file cannot clear the screen."""
    path = tmp_path / "esc.dgn"
    text = (SAMPLES / "1e-3p-league.dgn").read_text(encoding="utf-8")
    path.write_text(text.replace("{hwalsh leads}", "{\x1b[2J\x1b]0;pwned\x07 leads}", 1), encoding="utf-8")
    assert "\x1b[2J" in path.read_text(encoding="utf-8")
    command = [sys.executable, "-m", "diamonds.cli.main", "convert", str(path), "--to", "dgn"]
    piped = subprocess.run(command, capture_output=True, check=True).stdout.decode("utf-8")
    assert "{\x1b[2J\x1b]0;pwned\x07 leads}" in piped
    main, child = pty.openpty()
    with subprocess.Popen(command, stdout=child, stderr=subprocess.DEVNULL) as process:
        os.close(child)
        shown = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the child has closed its end (Linux)
                break
            if not chunk:
                break
            shown += chunk
        assert process.wait() == 0
    os.close(main)
    terminal = shown.decode("utf-8")
    assert "\x1b" not in terminal and "\x07" not in terminal
    assert "{\\x1b[2J\\x1b]0;pwned\\x07 leads}" in terminal


# ---------------------------------------------------------------- a second hunt (2026-11-29): the API, convert, serve


@pytest.mark.parametrize("options", [[], ["--from", "json"]])
def test_json_converts_only_back_to_dgn_even_to_parquet(diamonds, tmp_path: Path, options: list[str]) -> None:  # type: ignore[no-untyped-def]
    """`--to parquet` read a JSON file as DGN (a syntax error at its first brace) and still wrote tables of one
    bogus game: it is refused before anything is read or written, as the other formats are."""
    source = tmp_path / "games.json"
    assert diamonds("convert", "--to", "json", SAMPLES / "1e-3p-league.dgn", "-o", source).code == 0
    out = tmp_path / "tables"
    run = diamonds("convert", *options, "--to", "parquet", source, "-o", out)
    assert run.code == 2 and "from json only --to dgn is possible" in run.err, run
    assert not out.exists()


def test_a_csv_export_is_not_read_back_as_dgn(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """`convert plays.csv --to dgn` read the CSV as DGN ("expected a round header" at 1:1): an export of the
    plays alone is refused by its name, before anything is read or written."""
    plays = tmp_path / "plays.csv"
    assert diamonds("convert", "--to", "csv", SAMPLES / "kirk-4p-hands.dgn", "-o", plays).code == 0
    out = tmp_path / "back.dgn"
    run = diamonds("convert", plays, "--to", "dgn", "-o", out)
    assert run.code == 2 and "a CSV export holds the plays alone and is not read back" in run.err, run
    assert not out.exists()


def test_game_from_text_reads_the_first_of_several_games() -> None:
    """It parsed the whole text as one game: a syntax error at the second game's first tag, and no moves."""
    text = (SAMPLES / "club-night-2026-11-20.dgn").read_text(encoding="utf-8")
    first = next(api.read_games(str(SAMPLES / "club-night-2026-11-20.dgn")))
    game = api.Game.from_text(text)
    assert game.is_valid and game.moves == first.moves and game.players == first.players
    assert len(list(api.read_games(str(SAMPLES / "club-night-2026-11-20.dgn")))) > 1


def test_a_pass_or_a_deal_written_out_of_order_is_the_same_move() -> None:
    """A pass is a set of cards (R6) and so is a hand: `pass hwalsh 10D 5D` was pushed but not `is_legal`, and
    positions that passed or dealt the same cards in another order compared unequal, states included."""
    game = next(api.read_games(str(SAMPLES / "1e-3p-league.dgn")))
    pos = game.at("R1.0")  # after the round's three passes (R6)
    for _ in range(3):
        pos.pop()
    mover = pos.to_move
    legal = pos.legal_moves[0]
    assert len(legal.cards) > 1, legal
    backwards = pos.parse(f"pass {mover} " + " ".join(str(card) for card in reversed(legal.cards)))
    assert backwards == legal and backwards in pos.legal_moves and pos.is_legal(backwards)
    other = pos.copy()
    pos.push(backwards)
    other.push(legal)
    assert pos == other and pos.state == other.state
    assert pos.text(pos.peek()) == other.text(legal) and pos.game().moves == pos.moves
    for rules in ("2e", "kirk", "bidding"):
        first, second = api.Position(rules), api.Position(rules)
        deal = first.chance_move(random.Random(3))
        shuffled = dataclasses.replace(deal, hands=tuple(tuple(reversed(hand)) for hand in deal.hands))
        assert shuffled == deal and hash(shuffled) == hash(deal)
        first.push(deal)
        second.push(shuffled)
        assert first == second and first.state == second.state and second.game().moves == second.moves


@pytest.mark.parametrize(("tags", "error", "words"), [
    ({"Rules": "kirk"}, ValueError, "its own Rules tag"), ({"Players": "X Y Z"}, ValueError, "its own Players tag"),
    ({"Hands": "2"}, ValueError, "its own Hands tag"), ({"Ev ent": "x"}, ValueError, "not a tag's name"),
    ({"Event": 5}, TypeError, "are text"), ({"Event": "a\nb"}, ValueError, r"U\+000A"),
])
def test_a_positions_game_takes_only_event_tags_it_can_write(tags: dict, error: type, words: str) -> None:
    """`pos.game(tags)` wrote them all: a second Rules tag read back as another game, a line break or a space
    made the text unreadable, an int was an AttributeError."""
    pos = api.Position("2e")
    pos.deal(random.Random(1))
    with pytest.raises(error, match=words):
        pos.game(tags)
    assert pos.game({"Event": "Club night"}).tags["Event"] == "Club night"


@pytest.mark.parametrize("spec", ["mc:0", "ismcts:-3"])
def test_a_bots_count_below_one_says_so(diamonds, spec: str) -> None:  # type: ignore[no-untyped-def]
    """It said there was no bot called 'mc:0'."""
    run = diamonds("arena", "--bots", f"{spec},greedy", "--players", "2", "--games", "2")
    assert run.code == 2 and "takes N of at least 1" in run.err and "no bot called" not in run.err, run


def test_a_json_document_of_the_wrong_shape_is_described_not_printed_whole(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A top-level array of games was refused with the whole document printed (30 KB for one game)."""
    whole = tmp_path / "one.json"
    assert diamonds("convert", "--to", "json", SAMPLES / "bga-2p-online.dgn", "-o", whole).code == 0
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps(json.loads(whole.read_text(encoding="utf-8"))["games"]), encoding="utf-8")
    run = diamonds("convert", listed, "--to", "dgn")
    assert run.code == 1 and run.err.strip().endswith("$: an array of 1 item is not of type 'object'"), run.err
    assert len(run.err) < 200


def test_the_front_door_names_an_argument_of_the_wrong_kind() -> None:
    """Each gave a bare AttributeError or TypeError from deep inside, or read "perfect" letter by letter."""
    with pytest.raises(TypeError, match="tag and value are text"):
        api.Position("kirk", options={"Hands": 2})
    with pytest.raises(api.core.ConfigError, match="the Foo tag has no meaning in a kirk game"):
        api.Position("kirk", options={"Foo": "1"})  # refused, as simulate, record and the server refuse it
    with pytest.raises(TypeError, match="players are named by text"):
        api.Position("2e", [1, 2, 3])  # type: ignore[list-item]
    assert api.Position("2e", variants="perfect").config.perfect
    with pytest.raises(TypeError):  # compiled, the declared `str` refuses it in mypyc's words (docs/build.md)
        api.Position("kirk").parse(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="for a path use read_games"):
        api.read_game(str(SAMPLES / "1e-3p-league.dgn"))  # type: ignore[arg-type]


@pytest.mark.parametrize(("rules", "words"), [("2e", "is for 2 to 6 players (R1)"), ("kirk", "is for exactly 4 players (K1)")])
def test_a_count_of_players_above_the_names_is_measured_against_the_rule_set(diamonds, rules: str, words: str) -> None:  # type: ignore[no-untyped-def]
    """It said "at most 8 players" (the command's own names), where the rule set seats 2 to 6."""
    run = diamonds("simulate", "--rules", rules, "--players", "99999999999999999999")
    assert run.code == 2 and words in run.err and "at most 8" not in run.err, run


@pytest.mark.parametrize("sample", ["kirk-4p-hands.dgn", "2e-6p-partnership.dgn", "bidding-3p-club.dgn"])
def test_stats_too_narrow_for_a_table_stacks_its_rows_and_loses_no_figure(diamonds, sample: str) -> None:  # type: ignore[no-untyped-def]
    """`--width 20` squeezed every column to an ellipsis or nothing (the set-up column blank): a table whose
    figures cannot fit is written a row at a time, `column: value`, and every figure is there in full."""
    narrow = diamonds("stats", str(SAMPLES / sample), "--width", "20")
    assert narrow.code == 0, narrow
    assert "…" not in narrow.out
    assert max(len(line) for line in narrow.out.splitlines()) <= 20
    document = json.loads(diamonds("stats", str(SAMPLES / sample), "--format", "json").out)
    group = document["groups"][0]
    assert f"  games: {group['games']}" in narrow.out
    assert f"  max: {group['scores']['max']}" in narrow.out
    wide = diamonds("stats", str(SAMPLES / sample), "--width", "100")
    assert "  games: " not in wide.out and "┃" in wide.out  # where the table fits, it is a table


def test_arguments_of_the_wrong_kind_say_what_was_wanted() -> None:
    """A third hunt: each was a bare AttributeError from deep inside, or was taken (a bool as a seat, "3" as an
    action, a Position handed to a bot, which could then see every hand), or gave the default (`mc:`)."""
    import random as _random

    from diamonds.bots import make_bot

    pos = api.Position("kirk", dealer=0)
    pos.deal(_random.Random(1))
    game = next(api.read_games(str(SAMPLES / "1e-3p-league.dgn")))
    wrong = [
        (lambda: pos.seat(True), TypeError, "a player is named (Ann) or given by seat (0), not True"),
        (lambda: pos.view(None), TypeError, ""),  # compiled, the declared `str | int` refuses it in mypyc's words
        (lambda: api.Position("kirk", dealer=True), TypeError, "the dealer is named (Ann) or given by seat (0)"),
        (lambda: api.Position("kirk", dealer=1.0), TypeError, ""),  # compiled: mypyc's words, as for view(None)
        (lambda: pos.chance_move(5), TypeError, "drawn with a random.Random"),
        (lambda: game.at(None), TypeError, ""),  # (compiled, mypyc's words)
        (lambda: list(api.read_games(b"x.dgn")), TypeError, "read_games reads a path (text)"),
        (lambda: pos.game([("Event", "x")]), TypeError, "tags are a mapping"),
        (lambda: make_bot(None), TypeError, "a bot is named by text"),
        (lambda: make_bot("mc:"), ValueError, "mc:N needs its N"),
        (lambda: make_bot("greedy:"), ValueError, "no bot called 'greedy:'"),
        (lambda: make_bot("random", seed=1).choose(pos), TypeError, "a bot chooses from one player's view"),
        (lambda: make_bot("greedy", seed=1).choose(pos), TypeError, "a bot chooses from one player's view"),
    ]
    for call, kind, words in wrong:
        with pytest.raises(kind) as caught:
            call()
        assert words in str(caught.value), caught.value
    assert make_bot("random", seed=1).choose(pos.view(pos.to_move)) in pos.legal_moves  # a view is fine


def test_an_environment_step_takes_an_integer_id_only() -> None:
    pytest.importorskip("pettingzoo")
    import numpy as np

    env = api.env("kirk", 4, options={"Hands": "1"})
    env.reset(seed=1)
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    for action in (str(legal[0]), float(legal[0])):
        with pytest.raises(TypeError, match="an action is an integer id"):
            env.step(action)
    env.step(legal[0])  # a numpy integer, as the mask gives it
