"""`diamonds play` on a real terminal (a pty through pexpect), in every rule family.

A scripted player answers each question as a person would: it reads the choices listed (or said in the
question) and answers in words (a Clubs victim by the player's name, R14; the kitty card and then the point card
by their names, B4; a bid by its number, B3; the cards passed by name, R6; a card, Clubs first so that
Clubs actions come up). The game is told as the replay tells it (each trick's winner, the Suit Actions,
a hand's scoring, the scores at each round's end); the saved file validates and names the bots.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

import diamonds

pexpect = pytest.importorskip("pexpect")
pytestmark = [pytest.mark.process, pytest.mark.skipif(sys.platform == "win32", reason="a pty")]

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\r")
TIMEOUT = 120  # seconds for one answer under any load: a failure, not a figure
PROMPT = "your move> "


def spawn(args: list[str], log: io.StringIO):  # type: ignore[no-untyped-def]
    command = shutil.which("diamonds")
    if command is None:  # not on PATH: the same entry point through the interpreter
        command, args = sys.executable, ["-m", "diamonds.cli.main", *args]
    env = dict(os.environ, TERM="xterm", COLUMNS="100", LINES="40")
    child = pexpect.spawn(command, args, dimensions=(40, 100), encoding="utf-8", timeout=TIMEOUT, env=env)
    child.logfile_read = log
    return child


def choices(listing: list[str]) -> list[str]:
    """The answers listed by `moves`: `Hearts: 6H 7H` lines, or one line of words (`Bob, Cat or nobody`)."""
    words: list[str] = []
    for line in listing:
        words += line.split(":", 1)[1].split() if ":" in line else line.replace(",", " ").replace(" or ", " ").split()
    return words


def answer(question: str, listing: list[str]) -> str:
    words = choices(listing)
    if "how many cards does everyone pass" in question:
        return "2"
    count = re.match(r"Pass (\d) cards?", question)
    if count:
        return " ".join(words[:int(count.group(1))])
    if question.startswith("Your card?"):
        clubs = [line for line in listing if line.startswith("Clubs:")]
        return choices(clubs)[0] if clubs else words[0]
    return words[0]  # a victim's name, a kitty card, a point card, a bid


def play(tmp_path: Path, rules: str, *options: str, rounds: int = 1) -> tuple[str, list[tuple[str, str]], Path]:
    """Play as Ann until `rounds` rounds have ended (then `quit`) or the game is over: what the terminal
    showed, each (question, answer), and the saved game."""
    saved = tmp_path / f"{rules}.dgn"
    log = io.StringIO()
    child = spawn(["play", "--rules", rules, "--as", "Ann", "--bots", "greedy", "--seed", "2", *options,
                   "-o", str(saved)], log)
    asked: list[tuple[str, str]] = []
    while True:
        if child.expect_exact([PROMPT, pexpect.EOF]) == 1:
            break
        shown = [line for line in ANSI.sub("", child.before).splitlines() if line.strip()]
        at = max(i for i, line in enumerate(shown) if not line.startswith(" ") and not line.startswith("["))
        question = shown[at]
        if f"Scores at R{rounds}.end:" in ANSI.sub("", log.getvalue()):
            child.sendline("quit")
            child.expect(pexpect.EOF)
            break
        # the choices are listed under the question, or said in it (`... Name them: Bob, Cat or nobody`)
        listing = [line.strip() for line in shown[at + 1:]] or [re.split(r"[?:] ", question)[-1].rstrip("?")]
        reply = answer(question, listing)
        asked.append((question, reply))
        child.sendline(reply)
    child.close()
    assert child.exitstatus == 0, ANSI.sub("", log.getvalue())[-2000:]
    return ANSI.sub("", log.getvalue()), asked, saved


def saved_game(path: Path, bots: str) -> diamonds.Game:
    game = next(diamonds.read_games(str(path)))
    assert game.is_valid, game.problems
    assert game.tags["Bots"] == bots
    return game


@pytest.mark.parametrize("rules", ["1e", "2e", "bga"])
def test_a_fitzgerald_round_told_and_asked_in_words(tmp_path: Path, rules: str) -> None:
    said, asked, path = play(tmp_path, rules, "--players", "3")
    assert re.search(r"\n  \w+ wins trick 1 with ", said)
    assert re.search(r"\n  \w+: (Diamonds|Hearts|Spades|Clubs) action", said)  # the Suit Actions (R9-R13)
    assert re.search(r"\n  Scores at R1\.end: Ann -?\d+, Bob \?, Cat \?", said)  # the others' Vaults hidden (R2)
    passes = [reply for question, reply in asked if question.startswith("Pass ")]
    assert len(passes) == 1 and re.fullmatch(r"\w+ \w+|\w+", passes[0])  # the cards by name, no `pass` word
    game = saved_game(path, "Ann=human Bob=greedy Cat=greedy")
    assert len(game.moves) > 20
    if rules == "1e":  # no Thief: the Clubs actor names the victim (R14), here by the player's name alone
        victims = [reply for question, reply in asked if question.startswith("Your Clubs action (R14)")]
        assert victims and all(reply in ("Bob", "Cat") for reply in victims)
        assert f">{victims[0]}" in str(game)


def test_a_kirk_game_of_one_hand_to_its_end(tmp_path: Path) -> None:
    said, asked, path = play(tmp_path, "kirk", "--hands", "1")
    assert len(asked) == 13 and all(question == "Your card?" for question, _ in asked)
    assert "wins trick 13 with" in said and "Hand 1 scored:" in said and "game over:" in said
    game = saved_game(path, "Ann=human Bob=greedy Cat=greedy Dan=greedy")
    assert game.is_complete


def test_a_bidding_hand_asks_for_the_point_card_by_name(tmp_path: Path) -> None:
    said, asked, path = play(tmp_path, "bidding")
    questions = [question for question, _ in asked]
    assert questions[0].startswith("Your bid (B3)")
    take = next(i for i, q in enumerate(questions) if q.startswith("Take a card from the kitty (B4)"))
    assert questions[take + 1].startswith(f"You take {asked[take][1]}. Which card do you lay face down")
    point = asked[take + 1][1]
    assert f"Ann takes {asked[take][1]} from the kitty and lays " in said and re.fullmatch(r"\w+[+-]?", point)
    assert re.search(r"\n  (Bob|Cat) takes a card from the kitty and lays a point card", said)  # theirs hidden
    assert "wins trick 10 with" in said and "Hand 1 scored:" in said and "Scores at R1.end:" in said
    game = saved_game(path, "Ann=human Bob=greedy Cat=greedy")
    assert f"take Ann {asked[take][1]} point {point}" in str(game)


def test_ctrl_c_stops_the_game_as_quit_does_and_keeps_it_so_far(tmp_path: Path) -> None:
    """The help says -o saves the game "when it ends or stops": ^C left the file as it was (none), where
    `quit` saved. Now ^C saves the game so far, says so, and exits 130 as an interrupted command does."""
    saved = tmp_path / "stopped.dgn"
    log = io.StringIO()
    child = spawn(["play", "--rules", "kirk", "--as", "Ann", "--bots", "greedy", "--seed", "2", "-o", str(saved)], log)
    played = 0
    while played < 3:  # three of Ann's cards, each the first she may play
        child.expect_exact(PROMPT)
        child.sendline("moves")
        child.expect_exact(PROMPT)
        listing = [line.strip() for line in ANSI.sub("", child.before).splitlines() if ":" in line]
        child.sendline(choices(listing)[0])
        played += 1
    child.expect_exact(PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    said = ANSI.sub("", log.getvalue())
    assert child.exitstatus == 130, said[-1500:]
    assert "saved with the game so far (unfinished)" in said
    game = next(diamonds.read_games(str(saved)))
    assert game.is_valid and not game.is_complete, game.problems
    assert sum(1 for move in game.moves if type(move).__name__ == "PlayCard") >= 3
