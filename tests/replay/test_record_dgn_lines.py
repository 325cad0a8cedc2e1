"""What DGN accepts, the recorder accepts: a numbered trick line with comments, several cards, whole lines,
a comment on its own (kept where it was written, never dropped); its public API (save / restore / probe,
`question`, `record`) is what the server uses; and the server's table state names who is due and, to the
scorer, every legal item, grouped where an item is N cards chosen (R6's passes).
"""

from __future__ import annotations

import pytest
from command import diamonds  # noqa: F401 (the fixture)

import diamonds as front_door
from diamonds.replay.recorder import Recorder
from diamonds.serve.state import choice_groups, due

LEAGUE = "samples/1e-3p-league.dgn"


def _league_round_one() -> list[str]:
    """R1 of the league sample, line by line as written (its pass count first, as the recorder takes it)."""
    text = open(LEAGUE, encoding="utf-8").read()
    lines = text.split("R1 dealer Kofi pass 2\n", 1)[1].split("\n\nR2", 1)[0].splitlines()
    return ["pass 2", *lines]


def _recorder() -> Recorder:
    return Recorder.new("1e", ["hwalsh", "Ines_B", "Kofi"], dealer="Kofi")


def test_the_samples_own_trick_line_with_its_comment_is_recorded_as_written() -> None:
    recorder = _recorder()
    for line in _league_round_one()[:7]:
        outcome = recorder.enter(line)
        assert outcome.refusal is None, (line, outcome.refusal)
    assert recorder.enter("1. {hwalsh leads} 4C 15C>hwalsh 9C").accepted == ("{hwalsh leads} 4C", "15C>hwalsh", "9C")
    assert "\n1. {hwalsh leads} 4C 15C>hwalsh 9C\n" in recorder.text


def test_a_whole_round_typed_as_the_sample_writes_it_is_the_samples_round() -> None:
    recorder = _recorder()
    for line in _league_round_one():
        outcome = recorder.enter(line.split(" ; ")[0])  # the sample's `;` note on its end line aside
        assert outcome.refusal is None and outcome.question is None, (line, outcome)
    sample = next(front_door.read_games(LEAGUE))
    recorded = front_door.Game.from_text(recorder.text)
    assert recorded.moves == sample.moves[:len(recorded.moves)]
    assert recorded.end().label == "R1.end"


def test_a_comment_on_its_own_is_recorded_after_the_item_it_follows() -> None:
    recorder = _recorder()
    for line in _league_round_one()[:8]:
        recorder.enter(line)
    outcome = recorder.enter("{a lead from length}")
    assert outcome.accepted == ("{a lead from length}",) and outcome.refusal is None
    assert "1. {hwalsh leads} 4C 15C>hwalsh 9C {a lead from length}\n" in recorder.text
    assert recorder.enter("2. 1S!? {bold} 12S 13S").refusal is None
    assert "2. 1S!? {bold} 12S 13S" in recorder.text  # the annotation and the comment stay on their card


def test_comments_before_the_first_round_are_the_games_own_and_kept_as_written() -> None:
    recorder = _recorder()
    assert recorder.enter("{Played at the club} ; first edition").accepted == ("{Played at the club}", "; first edition")
    assert recorder.enter("{second line}").accepted == ("{second line}",)
    assert recorder.enter("R1 dealer Kofi pass 2").refusal is None
    text = recorder.text
    assert "\n\n{Played at the club}\n; first edition\n{second line}\nR1 dealer Kofi pass 2\n" in text
    assert [c.text.strip() for c in recorder.record.comments] == ["Played at the club", "first edition", "second line"]
    resumed = Recorder.resume(text)  # a file read back keeps them (a server's restart, `record FILE` again)
    assert resumed.preamble == recorder.preamble and resumed.text == text
    assert recorder.enter("undo").info == ("took back R1 dealer Kofi pass 2",)
    assert recorder.enter("undo").info == ("took back {second line}",)
    assert "{second line}" not in recorder.text and "; first edition" in recorder.text
    saved = recorder.save()
    recorder.enter("{kept only until restored}")
    recorder.restore(saved)
    assert recorder.preamble == ("{Played at the club}", "; first edition")


def test_an_unclosed_comment_before_the_first_round_is_refused_and_nothing_is_kept() -> None:
    recorder = _recorder()
    outcome = recorder.enter("{never closed")
    assert outcome.refusal is not None and outcome.accepted == () and recorder.preamble == ()


def _as_written(path: str) -> tuple[str, str]:
    """The first game of the sample at `path`: its head with `[Result "*"]` (a game to record), and its
    movetext."""
    import re

    from diamonds.notation import game_texts

    _, _, text = next(iter(game_texts(open(path, encoding="utf-8"))))
    head, movetext = text.strip("\n").split("\n\n", 1)
    return re.sub(r'\[Result "[^"]*"\]', '[Result "*"]', head) + "\n\n", movetext + "\n"


@pytest.mark.slow  # every sample's first game, item by item (the bidding games run to 500 lines)
def test_every_samples_movetext_typed_line_by_line_is_recorded_as_the_sample_writes_it() -> None:
    """What DGN accepts, the recorder accepts: each sample's first game, its movetext entered line by line as
    written (comments before the first round, on lines and cards, `;` notes, victims, annotations), gives
    the sample's own text."""
    import glob

    samples = sorted(glob.glob("samples/*.dgn"))
    assert len(samples) >= 10
    for path in samples:
        head, movetext = _as_written(path)
        recorder = Recorder.resume(head)
        for line in movetext.splitlines():  # a question (an end-of-round award, R14) is answered by the next line
            outcome = recorder.enter(line)
            assert outcome.refusal is None, (path, line, outcome)
        assert recorder.question is None, path
        expected = open(path, encoding="utf-8").read().split("\n\n[Event", 1)[0].strip("\n")
        assert recorder.text.strip("\n") == expected, path
        assert recorder.finished, path


def test_save_restore_and_probe_leave_the_recorder_as_it_was() -> None:
    recorder = _recorder()
    for line in _league_round_one()[:7]:
        recorder.enter(line)
    text, saved = recorder.text, recorder.save()
    probed = recorder.probe("4C")
    assert probed is not None and probed.accepted == ("4C",)
    assert recorder.text == text
    assert recorder.probe("5H") is not None and recorder.probe("5H").refusal is not None  # type: ignore[union-attr]
    recorder.enter("4C 15C 9C")
    assert recorder.question is not None and recorder.waiting_item is not None  # R14: the victim is asked for
    assert recorder.question.choices == (">hwalsh", ">Kofi")  # Ines_B won with 15C: not herself (R14)
    recorder.restore(saved)
    assert recorder.text == text and recorder.question is None and recorder.waiting_item is None
    assert recorder.record.rounds[0].header.pass_count == 2


def test_the_state_names_who_is_due_and_every_legal_item() -> None:
    recorder = _recorder()
    for line in _league_round_one()[:4]:  # the pass count and the deal lines: the passes are due
        recorder.enter(line)
    position = front_door.Game.from_text(recorder.text).end()
    scorer = due(position, recorder.turn(), False, True)
    assert scorer["players"] == ["hwalsh"] and scorer["known"]  # Kofi deals: hwalsh passes first (R6)
    assert len(scorer["items"]) == 45 and all(item.startswith("pass ") for item in scorer["items"])  # 10 choose 2
    [group] = scorer["groups"]
    assert group["choose"] == 2 and group["join"] == "pass hwalsh {} {}"  # the record's words: the line names its player
    assert recorder.enter(group["join"].format(*[c["text"] for c in group["choices"][:2]])).refusal is None
    assert [c["text"] for c in group["choices"]] == [str(card) for card in position.hand("hwalsh")]
    watcher = due(position, recorder.turn(), False, False)
    assert watcher["players"] == ["hwalsh"] and watcher["items"] is None  # a watcher sees who, not the hand


def test_without_deal_lines_the_recorders_turn_says_who_is_due() -> None:
    recorder = _recorder()
    for line in ["pass 2", "pass hwalsh 11D 6S", "pass Ines_B 1D 14D", "pass Kofi 13S 4C", "4C"]:
        assert recorder.enter(line).refusal is None, line
    position = front_door.Game.from_text(recorder.text).end()
    assert position.is_chance  # the round's hands are not known yet
    assert due(position, recorder.turn(), False, True) == {"players": ["Ines_B"], "known": False, "items": None,
                                                          "groups": []}


def test_choice_groups_keep_single_items_as_they_are() -> None:
    assert choice_groups(["9H", "10H"]) == [{"kind": "item", "choose": 1, "join": "{}",
                                             "choices": [{"text": "9H", "label": "9H"},
                                                         {"text": "10H", "label": "10H"}]}]
    assert choice_groups([]) == []


BAD_PLAYERS = '[Event "x"]\n[Rules "2e"]\n[Players "Ann, Bob, Cat"]\n[Dealer "Ann"]\n[Result "*"]\n\n'


def test_a_file_that_cannot_be_resumed_is_shown_where_as_validate_shows_it(tmp_path, diamonds) -> None:
    """`record FILE` on an unfinished game with a bad tag: the place, the line and a caret, exit 2, no internal
    error (it was a ConfigError from deep in the set-up)."""
    path = tmp_path / "bad.dgn"
    path.write_text(BAD_PLAYERS)
    run = diamonds("record", path, stdin=b"R1 dealer Ann pass 2\n")
    assert run.code == 2
    head, line, caret = run.err.rstrip("\n").split("\n")
    assert head.startswith(f"diamonds record: {path}:3:11: ") and "cannot be resumed" in head
    assert line.strip() == '[Players "Ann, Bob, Cat"]' and caret.strip() == "^" * len("Ann, Bob, Cat")
    assert path.read_text() == BAD_PLAYERS  # left as it was
    assert diamonds("validate", path).out.split("\n")[1:3] == run.err.split("\n")[1:3]  # as validate shows it


def test_a_line_that_opens_with_comments_is_recorded_as_the_canonical_writer_writes_it() -> None:
    """`{night one} R1 dealer Kofi pass 2` and `{passes} pass hwalsh …`: DGN reads the comment as the item
    before's (or the game's, before any round), then the line; the recorder keeps them as `fmt` writes them."""
    from diamonds.notation import parse_game
    from diamonds.notation.writer import write_game

    lines = ["{night one} R1 dealer Kofi pass 2", "{passes} pass hwalsh 11D 6S", "pass Ines_B 1D 14D {late}"]
    recorder = _recorder()
    for line in lines:
        outcome = recorder.enter(line)
        assert outcome.refusal is None, (line, outcome.refusal)
    assert recorder.enter("{night one} R1 dealer Kofi").accepted == ()  # the line refused: its comment not kept
    head = recorder.text.split("\n\n", 1)[0]
    assert recorder.text == write_game(parse_game(head + "\n\n" + "\n".join(lines) + "\n"))
    assert recorder.preamble == ("{night one}",)
