"""`diamonds record` on a real terminal (a pty through pexpect, 80x24): the prompt_toolkit session.

A 1e game whose deal and passes are already in the file (so the hands are known): typing cards, a
refused card with its message and ruling (R8), undo, tab completion on the legal cards, the victim
question of a trick led in Clubs (R14) and its answer, Ctrl-D (saved, exit 0), then resuming the same
file and Ctrl-C (saved, exit 130). Then a 1e round typed without deal lines: the screen is live on its
stand-in deal (the trick, the victim asked at once, R14) with every hand drawn as its count, none of its
cards shown. The screen of each session is printed as text (ANSI stripped).
"""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from test_record import game_and_lines, recorder_for

from diamonds.replay.recorder import Recorder

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("prompt_toolkit")
pytestmark = pytest.mark.process  # `diamonds record` on a real pty

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][A-Z0-9]|\x1b[>=]|\r")
TIMEOUT = 90  # seconds for one screen under any load: a failure, not a figure


def plain(text: str) -> str:
    return ANSI.sub("", text)


def spawn(path: str, log: io.StringIO):  # type: ignore[no-untyped-def]
    command = shutil.which("diamonds")
    args = ["record", path]
    if command is None:  # not on PATH: the same entry point through the interpreter
        command, args = sys.executable, ["-m", "diamonds.cli.main", *args]
    env = dict(os.environ, TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="80", LINES="24")
    child = pexpect.spawn(command, args, dimensions=(24, 80), encoding="utf-8", timeout=TIMEOUT, env=env)
    child.logfile_read = log
    return child


@dataclass(frozen=True, slots=True)
class Session:
    """`diamonds record` started on a file that holds the first lines of a game, at trick 1's first card."""

    lines: list[str]  # the game's movetext lines, as typed
    recorder: Recorder  # what the file holds, recorded beside the session
    path: Path
    before: str  # the file's text when the session started
    log: io.StringIO  # everything the terminal showed
    child: Any


def start(tmp_path: Path, *, deals: bool, first: int) -> Session:
    """The 1e game of seed 3 (`deals`: written with its deal lines), its `first` lines in the file (the header,
    the deal and pass lines), and the session on it waiting for Bob's lead."""
    game, _expected, lines = game_and_lines("1e", 3, (), deals)
    recorder = recorder_for(game)
    for line in lines[:first]:
        assert recorder.enter(line).accepted
    path = tmp_path / "tonight.dgn"
    path.write_text(recorder.text, encoding="utf-8")
    log = io.StringIO()
    child = spawn(str(path), log)
    child.expect_exact("round 1, trick 1, card 1, Bob leads >")
    return Session(lines, recorder, path, recorder.text, log, child)


def step(child, line: str, *marks: str) -> str:  # type: ignore[no-untyped-def]
    """Type `line` and Enter; wait for each mark of the new screen in turn; the screen's text up to the last."""
    child.sendline(line)
    seen = []
    for mark in marks:
        child.expect_exact(mark)
        seen.append(plain(child.before) + mark)
    return "".join(seen)


def leave(child, key: str) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    """Ctrl-D or Ctrl-C: the exit status, and what the recorder said last."""
    child.sendcontrol(key)
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus, plain(child.before)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="a pty")
def test_a_session_on_a_real_terminal(tmp_path):
    session = start(tmp_path, deals=True, first=7)  # the round header, the deal and pass lines: hands known
    child, path, before, log = session.child, session.path, session.before, session.log
    assert session.lines[7] == "1. 8C 13C>Ann 12C"  # the game the session below is typed from (seed 3)
    screen = step(child, "8C", "Bob leads 8C", "card 2, Cat to play (trick so far: Bob 8C) >")
    assert "Trick 1, led ♣ Clubs: Bob 8C" in screen
    assert path.read_text(encoding="utf-8") == before + "1. 8C\n"  # written through before the next prompt

    # Cat holds Clubs: a Diamond is refused, with the place, the ruling, and nothing recorded (R8).
    screen = step(child, "2D", "refused:", "card 2, Cat to play (trick so far: Bob 8C) >")
    assert "Cat must follow Clubs" in screen and "(R8)" in screen
    assert path.read_text(encoding="utf-8") == before + "1. 8C\n"

    step(child, "13C", "Cat plays 13C", "card 3, Ann to play (trick so far: Bob 8C, Cat 13C) >")
    screen = step(child, "undo", "took back 13C", "card 2, Cat to play (trick so far: Bob 8C) >")
    assert path.read_text(encoding="utf-8") == before + "1. 8C\n"
    # the reader's forgiving forms
    step(child, "13c", "Cat plays 13C", "card 3, Ann to play (trick so far: Bob 8C, Cat 13C) >")

    # The trick was led in Clubs: its winner names the victim (R14), asked at the trick's last card.
    screen = step(child, "12C", "R1.1.2 needs >")
    assert "R14: Cat must name whose Showroom the Clubs action takes from" in screen
    assert path.read_text(encoding="utf-8") == before + "1. 8C 13C\n"  # 12C waits for the answer
    screen = step(child, ">Ann", "Cat wins trick 1 with 13C", "trick 2, card 1, Cat leads >")
    assert "Clubs action for the trick" in screen
    assert path.read_text(encoding="utf-8") == before + "1. 8C 13C>Ann 12C\n"

    # Completion on the legal cards: of Cat's cards only 15S starts with "15". The menu shows it as
    # "15" is typed (computed in the background); Tab then takes it, Enter records it.
    child.send("15")
    child.expect_exact("15S")
    child.send("\t")
    step(child, "", "Cat leads 15S", "card 2, Ann to play (trick so far: Cat 15S) >")
    status, ended = leave(child, "d")
    assert status == 0
    assert "saved, unfinished at round 1, trick 2, card 2" in ended and 'Result "*"' in ended
    assert path.read_text(encoding="utf-8") == before + "1. 8C 13C>Ann 12C\n2. 15S\n"

    # Resuming: the table as it stood; Ctrl-C saves what was accepted and says it was interrupted.
    child = spawn(str(path), log)
    child.expect_exact("Trick 2")
    child.expect_exact("card 2, Ann to play (trick so far: Cat 15S) >")
    step(child, "2S", "Ann plays 2S", "card 3, Bob to play (trick so far: Cat 15S, Ann 2S) >")
    status, ended = leave(child, "c")
    assert status == 130
    assert "interrupted; saved, unfinished at round 1, trick 2, card 3" in ended
    assert path.read_text(encoding="utf-8") == before + "1. 8C 13C>Ann 12C\n2. 15S 2S\n"
    print(plain(log.getvalue()))


CARD = re.compile(r"(?<![\w.])(?:1[0-5]|[1-9])[DHSC](?!\w)")  # a card of a Fitzgerald deck, as a word of its own
HAND_COUNT = re.compile(r"(\d+) cards?$")  # a hand drawn as its count: the players' grid's last column


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="a pty")
def test_a_round_without_deal_lines_is_drawn_live_with_no_hand_shown(tmp_path):
    """Without deal lines the round is played on a stand-in deal (hands drawn at random to fit the record):
    the screen follows every card (the trick, who won it, the Clubs action's victim, R14) but shows no card
    of any hand, each hand drawn as its count, and says that every card is checked as it comes."""
    from diamonds.cli.record_screen import STAND_IN
    from diamonds.replay.steps import steps_of

    session = start(tmp_path, deals=False, first=4)  # the round header and the passes: the hands stay unknown
    child, path, before, log = session.child, session.path, session.before, session.log
    recorder, lines = session.recorder, session.lines
    assert lines[:6] == ["R1 dealer Ann pass 3", "pass Bob 3D 12D 14H", "pass Cat 1H 5H 7S", "pass Ann 7D 6H 3C",
                         "1. 8C 13C>Ann 12C", "2. 3D 6D 8D"]  # the game typed below (seed 3), with no deal line
    screen = step(child, "8C", "Bob leads 8C", "card 2, Cat to play (trick so far: Bob 8C) >")
    assert "Trick 1, led ♣ Clubs: Bob 8C" in screen  # live: the table at the card, not at the round's start
    step(child, "13C", "Cat plays 13C", "card 3, Ann to play (trick so far: Bob 8C, Cat 13C) >")
    # the victim is asked as soon as the trick is complete (R14): the stand-in deal says who won
    screen = step(child, "12C", "R1.1.2 needs >")
    assert "R14: Cat must name whose Showroom the Clubs action takes from" in screen
    step(child, ">Ann", "Cat wins trick 1 with 13C", "trick 2, card 1, Cat leads >")
    step(child, "3D", "Cat leads 3D", "card 2, Ann to play (trick so far: Cat 3D) >")
    typed = ["8C", "13C", "12C", "3D", "6D"]
    screen = step(child, "6D", "Ann plays 6D", STAND_IN, "card 3, Bob to play (trick so far: Cat 3D, Ann 6D) >")
    table = screen[screen.rindex("Round 1/"):]  # the last screen, from its title (the typed line is above it)
    assert "Trick 2, led ♦ Diamonds: Cat 3D · Ann 6D" in table
    assert "in full at its end" not in table and "No cards on the table" not in table
    # No card face of any hand: the only cards on the screen are those typed (the trick, the log, the prompt).
    assert set(CARD.findall(table)) <= set(typed), table
    assert set(CARD.findall(table)) >= {"3D", "6D"}
    # Each hand is drawn as its count: as many cards as the seat holds (10 dealt, less those it played).
    recorder.enter(lines[4])
    for card in ("3D", "6D"):
        recorder.enter(card)
    held = sorted(len(hand) for hand in steps_of(recorder.replayed_live)[-1].table.hands)
    counts = sorted(int(m.group(1)) for line in table.splitlines() if (m := HAND_COUNT.search(line.rstrip())))
    assert counts == held == [8, 8, 9], table
    assert path.read_text(encoding="utf-8") == before + "1. 8C 13C>Ann 12C\n2. 3D 6D\n"
    status, _ended = leave(child, "d")
    assert status == 0
    print(plain(log.getvalue()))
