"""The command's manners (issue 34, clig.dev): what it says when it replaces an output, `--no-clobber`,
progress in games with a summary line, folders as inputs, a file with no game, one message for every
missing extra, `--players` as a count or names, `-o` for every output, `analyse --game/--encoding`,
the piped replay of a file of several games, and the interactive replay's first screen and typeahead."""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from command import Run, diamonds  # noqa: F401  (the fixture: the command in this process)

from diamonds.cli import progress as progress_module
from diamonds.cli.navigator import opening_step
from diamonds.cli.progress import GameProgress, summary_line
from diamonds.core import simulate
from diamonds.notation import parse_games
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game, replay_record
from diamonds.replay.steps import steps_of

ROOT = Path(__file__).resolve().parents[2]


def game_text(players: int = 3, seed: int = 1, rules: str = "1e", names: tuple[str, ...] | None = None) -> str:
    game = simulate(names or players, rules=rules, seed=seed)
    return write_game(record_from_game(game, tags=[("Event", "Test")]))


def games_file(path: Path, count: int, players: int = 3) -> Path:
    path.write_text("\n".join(game_text(players, seed) for seed in range(1, count + 1)), encoding="utf-8")
    return path


def one_line(run: Run) -> str:
    lines = run.err.splitlines()
    assert len(lines) == 1, run
    return lines[0]


# --------------------------------------------------------------------------- replacing outputs


def test_replacing_a_folder_of_tables_says_what_it_held(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pq = pytest.importorskip("pyarrow.parquet")
    many = games_file(tmp_path / "many.dgn", 5)
    one = games_file(tmp_path / "one.dgn", 1)
    tables = tmp_path / "t"
    first = diamonds("convert", many, "--to", "parquet", "-o", f"{tables}/")
    assert first.code == 0 and first.err == ""  # a new folder: nothing replaced, nothing said
    again = diamonds("convert", one, "--to", "parquet", "-o", f"{tables}/")
    assert again.code == 0
    assert one_line(again) == (f"diamonds convert: {tables}/ replaced: it held 5 games in 4 tables "
                               "(games, plays, events, rounds); it now holds 1 game")
    assert pq.read_metadata(tables / "games.parquet").num_rows == 1


def test_no_clobber_refuses_an_existing_folder_and_leaves_it_as_it_was(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("pyarrow")
    many = games_file(tmp_path / "many.dgn", 3)
    tables = tmp_path / "t"
    assert diamonds("convert", many, "--to", "parquet", "-o", tables).code == 0
    before = {path.name: path.read_bytes() for path in tables.iterdir()}
    run = diamonds("convert", games_file(tmp_path / "one.dgn", 1), "--to", "parquet", "-o", tables, "--no-clobber")
    assert run.code == 2 and run.out == ""
    assert one_line(run) == f"diamonds convert: {tables} exists (a folder) and --no-clobber keeps it: left as it was"
    assert {path.name: path.read_bytes() for path in tables.iterdir()} == before
    assert sorted(os.listdir(tmp_path)) == ["many.dgn", "one.dgn", "t"]  # no staged folder left beside it


@pytest.mark.parametrize("command", [
    ["simulate", "--seed", "1"],
    ["convert", "{game}", "--to", "json"],
    ["analyse", "{game}", "--samples", "1", "--exact-nodes", "0"],
    ["arena", "--rules", "1e", "--players", "3", "--bots", "random,random,random", "--games", "1", "--seed", "1"],
    ["replay", "{game}", "--at", "end"],
])
def test_no_clobber_refuses_an_existing_file_in_every_command_with_o(diamonds, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                      command: list[str]) -> None:
    game = tmp_path / "game.dgn"
    game.write_text(game_text(), encoding="utf-8")
    out = tmp_path / ("out.svg" if command[0] == "replay" else "out.txt")
    out.write_text("keep me\n", encoding="utf-8")
    words = [word.replace("{game}", str(game)) for word in command]
    run = diamonds(*words, "-o", out, "--no-clobber")
    assert run.code == 2 and one_line(run).endswith(f"{out} exists (a file) and --no-clobber keeps it: left as it was")
    assert out.read_text(encoding="utf-8") == "keep me\n"
    out.unlink()  # absent, the same command writes it
    assert diamonds(*words, "-o", out, "--no-clobber").code == 0 and out.read_text(encoding="utf-8") != "keep me\n"


def test_no_clobber_still_writes_to_a_device(diamonds) -> None:  # type: ignore[no-untyped-def]
    assert diamonds("simulate", "--seed", "1", "-o", os.devnull, "--no-clobber").code == 0


# --------------------------------------------------------------------------- progress


CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")


def screen_lines(text: str) -> list[str]:
    """What a terminal shows of `text`, line by line, without its cursor moves and colours."""
    return [line for line in CONTROL.sub("", text).split("\n") if line.strip()]


class Terminal(io.StringIO):
    """A stream that says it is a terminal, as stderr is when a person runs the command."""

    def isatty(self) -> bool:
        return True


def test_progress_counts_games_and_ends_with_one_summary_line(tmp_path: Path) -> None:
    path = games_file(tmp_path / "g.dgn", 2)
    screen = Terminal()
    with GameProgress([str(path)], "validating", "validated", games=7, stream=screen) as progress:
        for _ in range(7):
            progress.advance(100)
    text = screen.getvalue()
    assert "7 games" in text and "bytes" not in text and "/" not in text.split("games/s")[0].split("7 games")[0]
    last = screen_lines(text)[-1]
    assert re.fullmatch(r"validated 7 games in [\d,]+\.\d s \(([\d,]+|-) games/s\)", last), text
    assert progress.games == 7


def test_progress_is_silent_off_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress_module, "_WORTH_SHOWING", 0)
    path = games_file(tmp_path / "g.dgn", 2)
    quiet = io.StringIO()
    with GameProgress([str(path)], stream=quiet) as progress:
        progress.advance(10, 2)
    assert quiet.getvalue() == "" and progress.games == 2


def test_an_interrupted_run_has_no_summary_line(tmp_path: Path) -> None:
    screen = Terminal()
    with pytest.raises(KeyboardInterrupt), GameProgress([], games=3, stream=screen) as progress:
        progress.advance(1)
        raise KeyboardInterrupt
    assert "validated" not in screen.getvalue()


def test_the_summary_line_says_games_time_and_speed() -> None:
    assert summary_line("converted", 3000, 4.0) == "converted 3,000 games in 4.0 s (750 games/s)"
    assert summary_line("rated", 1, 0.5) == "rated 1 game in 0.5 s (2 games/s)"


def test_validate_on_a_terminal_counts_its_games(diamonds, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    path = games_file(tmp_path / "g.dgn", 3)
    monkeypatch.setattr(progress_module, "_WORTH_SHOWING", 0)  # a small file gets the bar too
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    run = diamonds("validate", path)
    assert run.code == 0 and run.out == "3 games: 3 valid, 0 invalid, 0 incomplete\n"
    assert re.fullmatch(r"validated 3 games in .* games/s\)", screen_lines(screen.getvalue())[-1]), screen.getvalue()
    piped = diamonds("validate", path)  # stderr captured, not a terminal: no bar, no summary line
    assert piped.err == ""


# --------------------------------------------------------------------------- inputs


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """Two DGN files (one in a subfolder), a hidden one, and a file that is not DGN."""
    root = tmp_path / "logs"
    (root / "older").mkdir(parents=True)
    (root / ".hidden").mkdir()
    games_file(root / "b.dgn", 2)
    games_file(root / "older" / "a.DGN", 1)
    games_file(root / ".hidden" / "c.dgn", 4)
    (root / "notes.txt").write_text("not a game\n", encoding="utf-8")
    return root


def test_a_folder_is_read_for_its_dgn_files(diamonds, folder: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("validate", folder)
    assert run.code == 0 and run.out == "3 games: 3 valid, 0 invalid, 0 incomplete\n"
    listed = diamonds("validate", folder, "--format", "json")
    import json

    assert [entry["path"] for entry in json.loads(listed.out)["files"]] == [str(folder / "b.dgn"),
                                                                            str(folder / "older" / "a.DGN")]


def test_stats_reads_a_folder_of_dgn_files_and_a_folder_of_tables(diamonds, folder: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("pyarrow")
    from_dgn = diamonds("stats", folder, "--format", "json")
    assert from_dgn.code == 0, from_dgn
    assert diamonds("convert", folder, "--to", "parquet", "-o", tmp_path / "tables").code == 0
    from_tables = diamonds("stats", tmp_path / "tables", "--format", "json")
    assert from_tables.code == 0 and from_tables.out == from_dgn.out


def test_replay_takes_a_folder_for_an_archive(diamonds, folder: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("replay", folder, "-o", f"{tmp_path}/archive/")
    assert run.code == 0, run
    pages = sorted(path.name for path in (tmp_path / "archive").glob("*.html"))
    assert "index.html" in pages and len(pages) == 3, pages  # the index and a page per DGN file


@pytest.mark.parametrize("command", [["validate"], ["convert", "--to", "json"], ["convert", "--to", "parquet", "-o", "T"],
                                     ["stats"], ["replay"], ["analyse"]])
def test_a_file_with_no_game_is_a_warning_and_status_1(diamonds, tmp_path: Path, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    if "parquet" in command or command == ["stats"]:
        pytest.importorskip("pyarrow")
    empty = tmp_path / "empty.dgn"
    empty.write_text("\n  \n", encoding="utf-8")  # blank lines only (a comment alone is a game without tags)
    words = [str(tmp_path / "t") if word == "T" else word for word in command]
    run = diamonds(words[0], empty, *words[1:])
    assert run.code == 1, run
    assert f"diamonds {command[0]}: warning: {empty} holds no game" in run.err.splitlines()


# --------------------------------------------------------------------------- extras


def test_one_message_names_every_missing_extra(diamonds, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    for package in ("pyarrow", "openskill", "matplotlib"):
        monkeypatch.setitem(sys.modules, package, None)  # as if not installed: import and find_spec fail
    path = games_file(tmp_path / "g.dgn", 1)
    run = diamonds("ratings", path, "--plot", tmp_path / "r.svg")
    assert run.code == 2 and run.out == ""
    assert one_line(run) == ('diamonds ratings: needs the ratings and plot extras (pyarrow, openskill and matplotlib, '
                             'which are not installed): pip install "diamonds[ratings,plot]"')
    assert not (tmp_path / "r.svg").exists()
    run = diamonds("stats", path)
    assert one_line(run) == ('diamonds stats: needs the parquet extra (pyarrow, which is not installed): '
                             'pip install "diamonds[parquet]"')


# --------------------------------------------------------------------------- --players


@pytest.mark.parametrize("players, expected", [("4", "Ann Bob Cat Dan"), ("Wu Xi Yo Zed", "Wu Xi Yo Zed"),
                                               ("Wu,Xi,Yo,Zed", "Wu Xi Yo Zed")])
def test_players_is_a_count_or_names_in_simulate_and_arena(diamonds, tmp_path: Path, players: str,  # type: ignore[no-untyped-def]
                                                          expected: str) -> None:
    run = diamonds("simulate", "--rules", "kirk", "--players", players, "--seed", "2")
    assert run.code == 0 and f'[Players "{expected}"]' in run.out
    out = tmp_path / "arena.dgn"
    run = diamonds("arena", "--rules", "kirk", "--players", players, "--bots", "random,random,random,random",
                   "--games", "2", "--seed", "2", "-o", out)
    assert run.code == 0, run
    assert out.read_text(encoding="utf-8").count(f'[Players "{expected}"]') == 2


def test_players_as_a_count_or_names_give_the_same_game(diamonds) -> None:  # type: ignore[no-untyped-def]
    counted = diamonds("simulate", "--players", "3", "--seed", "9")
    named = diamonds("simulate", "--players", "Ann Bob Cat", "--seed", "9")
    assert counted.code == named.code == 0 and counted.out == named.out


@pytest.mark.parametrize("players, expected", [("3", "Ann Bob Cat"), ("Wu Xi Yo", "Wu Xi Yo")])
def test_players_is_a_count_or_names_in_record_and_play(diamonds, tmp_path: Path, players: str,  # type: ignore[no-untyped-def]
                                                        expected: str) -> None:
    path = tmp_path / "t.dgn"
    run = diamonds("record", path, "--rules", "1e", "--players", players, "--dealer", expected.split()[0],
                   "--date", "none", stdin=b"")
    assert run.code in (0, 1), run
    assert f'[Players "{expected}"]' in path.read_text(encoding="utf-8")
    saved = tmp_path / "mine.dgn"
    run = diamonds("play", "--rules", "1e", "--players", players, "--bots", "random", "--seed", "1", "-o", saved,
                   stdin=b"quit\n")
    assert run.code == 0 and f"you are {expected.split()[0]}" in run.out
    assert f'[Players "{expected}"]' in saved.read_text(encoding="utf-8")


@pytest.mark.parametrize("players", ["0", "", " , "])
def test_players_that_are_neither_a_count_nor_names_are_a_usage_error(diamonds, players: str) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("simulate", "--players", players)
    assert run.code == 2 and "--players" in run.err and "Traceback" not in run.err


def test_too_many_players_by_count_is_one_line(diamonds) -> None:  # type: ignore[no-untyped-def]
    run = diamonds("arena", "--players", "9", "--bots", "random")
    assert run.code == 2 and one_line(run).startswith("diamonds arena: --players 9: ")


# --------------------------------------------------------------------------- replay -o


def test_replay_o_picks_the_output_by_its_name(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    game = games_file(tmp_path / "g.dgn", 2)
    run = diamonds("replay", game, "--at", "R1.2", "-o", tmp_path / "pos.svg")
    assert run.code == 0 and (tmp_path / "pos.svg").read_text(encoding="utf-8").lstrip().startswith("<svg")
    same = diamonds("replay", game, "--at", "R1.2", "--svg", tmp_path / "same.svg")
    assert same.code == 0
    assert (tmp_path / "same.svg").read_bytes() == (tmp_path / "pos.svg").read_bytes()
    run = diamonds("replay", game, "-o", tmp_path / "page.html")
    assert run.code == 0 and "<html" in (tmp_path / "page.html").read_text(encoding="utf-8").lower()


def test_replay_o_with_another_name_or_twice_is_a_usage_error(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    game = games_file(tmp_path / "g.dgn", 1)
    run = diamonds("replay", game, "-o", tmp_path / "pos.png")
    assert run.code == 2 and "must end in .svg" in one_line(run) and not (tmp_path / "pos.png").exists()
    run = diamonds("replay", game, "-o", tmp_path / "a.svg", "--svg", tmp_path / "b.svg")
    assert run.code == 2 and "name the output once" in one_line(run)


# --------------------------------------------------------------------------- analyse --game, --encoding


def test_analyse_takes_game_and_encoding(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    texts = [game_text(2, seed).replace('[Event "Test"]', '[Event "Café Zoë"]') for seed in (3, 4)]
    path = tmp_path / "latin.dgn"
    path.write_bytes("\n".join(texts).encode("latin-1"))
    options = ("--samples", "1", "--exact-nodes", "0")
    assert diamonds("analyse", path, *options).code == 1  # not utf-8: refused with file:line:col
    run = diamonds("analyse", path, "--encoding", "latin-1", "--game", "2", *options)
    assert run.code == 0, run
    (written,) = parse_games(run.out)  # game 2 alone, read in latin-1 (the names), written as text
    second = parse_games(texts[1])[0]
    assert written.tag_value("Event") == "Café Zoë"
    assert written.tag_value("Result") == second.tag_value("Result") != parse_games(texts[0])[0].tag_value("Result")
    assert replay_record(written).valid
    run = diamonds("analyse", path, "--encoding", "latin-1", "--game", "3", *options)
    assert run.code == 2 and "fewer than 3 games: 2 (--game 1 to 2)" in run.err


# --------------------------------------------------------------------------- the replay


def test_a_piped_replay_of_several_games_says_how_to_choose(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = games_file(tmp_path / "three.dgn", 3)
    run = diamonds("replay", path, "--steps")
    assert run.code == 0 and run.out.startswith("R1.0")
    assert one_line(run) == (f"diamonds replay: {path} holds 3 games; this is game 1 (choose another with "
                             "--game N, 1 to 3)")
    assert diamonds("replay", path, "--game", "2", "--steps").err == ""  # chosen: nothing to say
    assert diamonds("replay", games_file(tmp_path / "one.dgn", 1), "--steps").err == ""


def test_the_replay_opens_at_the_first_card() -> None:
    (record,) = parse_games(game_text())
    steps = steps_of(replay_record(record))
    index = opening_step(steps)
    assert steps[0].kind == "start" and steps[index].kind == "card"
    assert all(step.kind != "card" for step in steps[:index]) and steps[index].label == "R1.1.1"


def test_a_record_without_a_card_opens_at_its_deal() -> None:
    text = game_text()
    cut = text[:text.index("\n1. ")] + "\n"
    steps = steps_of(replay_record(parse_games(cut.replace('[Result', '[X'))[0]))
    assert steps[opening_step(steps)].kind in ("deal", "start")


@pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "mkfifo"), reason="a pty and a FIFO")
@pytest.mark.process  # a real pty
def test_keys_typed_while_the_replay_starts_are_kept(tmp_path: Path) -> None:
    """Keys typed before the replay reads its first key (`$` to the end, `q` to quit) are in the terminal's
    buffer: they are read, not flushed. The command starts only after they were typed (a shell waits
    on a FIFO the test opens once the keys are sent), so the order does not depend on speed."""
    pexpect = pytest.importorskip("pexpect")
    game = tmp_path / "game.dgn"
    game.write_text(game_text(), encoding="utf-8")
    last = steps_of(replay_record(parse_games(game_text())[0]))[-1].label
    go = tmp_path / "go"
    os.mkfifo(go)
    command = shutil.which("diamonds")
    start = [command] if command else [sys.executable, "-m", "diamonds.cli.main"]
    script = 'read _ < "$1"; shift; exec "$@"'
    env = dict(os.environ, TERM="xterm", COLUMNS="200", LINES="40",
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = pexpect.spawn("sh", ["-c", script, "sh", str(go), *start, "replay", str(game)], env=env,
                          dimensions=(40, 200), encoding="utf-8", timeout=90)
    log = io.StringIO()
    child.logfile_read = log
    try:
        child.send("$q")  # typed before the command runs: the terminal holds them
        with open(go, "w", encoding="utf-8") as fifo:  # only now does the shell start the replay
            fifo.write("go\n")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, log.getvalue()[-2000:]
    after = log.getvalue().split("\x1b[?1049l")[-1]  # what the replay leaves on the screen when it ends
    assert last in after, log.getvalue()[-2000:]  # `$` was read: the replay ended at the last position


@pytest.mark.parametrize("command", [["schema"], ["stats", "{game}", "--format", "json"],
                                     ["ratings", "{game}", "--format", "csv"]])
def test_o_writes_what_a_printing_command_prints(diamonds, tmp_path: Path, command: list[str]) -> None:  # type: ignore[no-untyped-def]
    if command[0] != "schema":
        pytest.importorskip("pyarrow")
        pytest.importorskip("openskill")
    game = games_file(tmp_path / "g.dgn", 2)
    words = [str(game) if word == "{game}" else word for word in command]
    printed = diamonds(*words)
    assert printed.code == 0 and printed.out
    out = tmp_path / "out.txt"
    written = diamonds(*words, "-o", out)
    assert written.code == 0 and written.out == ""
    assert out.read_text(encoding="utf-8") == printed.out


def test_arena_on_a_terminal_counts_the_games_played(diamonds, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    run = diamonds("arena", "--rules", "1e", "--players", "3", "--bots", "random,random,random", "--games", "2",
                   "--seed", "1")
    assert run.code == 0 and run.out.startswith("2 games of 1e, 3 players, seed 1\n")
    assert re.fullmatch(r"played 2 games in .* games/s\)", screen_lines(screen.getvalue())[-1]), screen.getvalue()


def test_no_clobber_keeps_a_plot_too(diamonds, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("pyarrow")
    pytest.importorskip("matplotlib")
    plot = tmp_path / "wins.svg"
    plot.write_text("keep me\n", encoding="utf-8")
    run = diamonds("stats", games_file(tmp_path / "g.dgn", 1), "--plot", plot, "--no-clobber")
    assert run.code == 2 and run.out == "" and "--no-clobber keeps it" in one_line(run)
    assert plot.read_text(encoding="utf-8") == "keep me\n"
