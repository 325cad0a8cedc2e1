"""The rough edges a new user meets in `diamonds record` (issue 23): who plays and the trick so far
without hands, a hint at a round's start, `?` listing only the unseen cards, typos placed where they
stand, a swap in one step, the end-of-round award asked as `end >Name`, the Date tag, a resume."""

from __future__ import annotations

import io
from pathlib import Path

from diamonds.cli.record_cmd import run_lines
from diamonds.replay.recorder import Recorder


def fitz() -> Recorder:
    return Recorder.new("2e", ["Ann", "Bob", "Cat"], dealer="Ann")


#: A round's pass count and its pass lines, due before its first card when it has no deal lines (R6): its deal
#: is inferred from them and its plays. Each passes to the left, Bob first (Ann deals); no card the tests play.
PASSED = ("pass 2", "pass Bob 12C 13C", "pass Cat 14C 15C", "pass Ann 10C 11C")


def test_without_hands_the_status_says_who_plays_and_the_trick_so_far() -> None:
    recorder = fitz()
    for line in (*PASSED, "1H"):
        assert recorder.enter(line).refusal is None
    assert not recorder.hands_known()
    # Ann deals, Bob leads (R7); then Cat.
    assert recorder.where() == "round 1, trick 1, card 2, Cat to play (trick so far: Bob 1H)"
    assert recorder.enter("2H 3H").refusal is None
    # Ann's 3H won trick 1 (R10): Ann leads trick 2, computed by the family's own trick-winner rule.
    assert recorder.where().endswith("trick 2, card 1, Ann leads")
    assert recorder.enter("4S 9S").refusal is None
    assert recorder.where() == "round 1, trick 2, card 3, Cat to play (trick so far: Ann 4S, Bob 9S)"



def test_without_hands_another_games_marks_are_refused_at_once() -> None:
    """`6S-` (a bidding game's low ace mark) or `7SH` (a Joker's suit) on a Fitzgerald card: the round
    is not replayed while its hands are unknown, yet the mark is refused when typed, not at the round's
    end (R5)."""
    recorder = fitz()
    for line in PASSED:
        assert recorder.enter(line).refusal is None
    before = recorder.text
    for item in ("6S-", "7S+"):
        outcome = recorder.enter(item)
        assert outcome.refusal is not None, item
        assert (outcome.refusal.code, outcome.refusal.rule) == ("choice-not-allowed", "R5")
        assert recorder.text == before
    assert recorder.enter("6S").refusal is None


def test_kirk_without_hands_says_who_plays() -> None:
    recorder = Recorder.new("kirk", ["A", "B", "C", "D"], options={"Hands": "1"})
    assert recorder.enter("5H").refusal is None
    assert recorder.where() == "round 1, trick 1, card 2, C to play (trick so far: B 5H)"


def test_line_mode_status_says_who_plays(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    run_lines(fitz(), str(tmp_path / "rec.dgn"), [*(f"{line}\n" for line in PASSED), "1H 2H\n"], out, err)
    assert "unfinished at round 1, trick 1, card 3, Ann to play (trick so far: Bob 1H, Cat 2H)" in err.getvalue()


def test_line_mode_quit_saves_and_leaves_as_on_a_terminal(tmp_path: Path) -> None:
    """docs/record.md: "Ctrl-D or `quit` saves and exits 0". Line mode refused `quit` as no card, went on
    recording the lines after it, and exited 1."""
    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / "rec.dgn"
    assert run_lines(fitz(), str(path), [*(f"{line}\n" for line in PASSED), "1H\n", " QUIT \n", "2H\n"], out, err) == 0
    assert "refused" not in err.getvalue()
    assert path.read_text(encoding="utf-8").rstrip().endswith("1. 1H")


def test_the_first_prompt_hints_at_the_pass_count() -> None:
    recorder = fitz()
    assert "`pass N`" in recorder.where()
    info = recorder.enter("?").info
    assert any("`pass N`" in line for line in info)


def test_question_mark_without_hands_lists_only_unseen_cards() -> None:
    recorder = fitz()
    for line in PASSED:
        recorder.enter(line)
    recorder.enter("1H 2H 3H 4S")
    where, hint = recorder.enter("?").info
    assert hint.startswith("unseen cards")
    listed = hint.split(": ", 1)[1].split()
    assert len(listed) == 60 - 4
    assert not {"1H", "2H", "3H", "4S"} & set(listed)


def test_typos_are_reported_where_they_would_stand(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    run_lines(fitz(), str(tmp_path / "rec.dgn"), [*(f"{line}\n" for line in PASSED), "1H 2H 3H\n", "5H 14X\n", "16D\n",
                                                  "fix R9.1.1 5H\n"], out, err)
    text = err.getvalue()
    assert ":0:0" not in text
    # 5H leads trick 2 on line 11 (the tags, a blank line, the header, 3 pass lines, trick 1); 14X would stand
    # beside it.
    assert "rec.dgn:11:7: `14X` is not a card" in text and "    2. 5H 14X\n          ^^^" in text
    assert "rec.dgn:11:7: `16D` is not a card" in text
    assert "typed:5: R9.1.1 is not a card of this record yet" in text


def test_two_cards_swap_in_one_step_and_are_checked_in_full() -> None:
    swapped, fixed = fitz(), fitz()
    for recorder in (swapped, fixed):
        for line in (*PASSED, "1H 2H 3H", "5S 6S 7S"):
            assert recorder.enter(line).refusal is None
    # `fix` with a card already at another place says how to swap, rather than "played twice".
    refusal = swapped.enter("fix R1.2.1 6S").refusal
    assert refusal is not None and "`swap R1.2.1 R1.2.2`" in refusal.message
    outcome = swapped.enter("swap R1.2.1 R1.2.2")
    assert outcome.refusal is None and outcome.accepted == ("swap R1.2.1 R1.2.2",)
    for line in ("fix R1.2.1 15D", "fix R1.2.2 5S", "fix R1.2.1 6S"):  # the old way, through an unused card
        assert fixed.enter(line).refusal is None
    assert swapped.text == fixed.text and "2. 6S 5S 7S" in swapped.text
    assert swapped.where() == fixed.where()
    # The swapped record is checked as a whole: a swap that breaks the trick's order of play is refused.
    assert swapped.enter("swap R1.1.1 R1.9.1").refusal is not None


def test_a_swap_is_checked_with_the_hands() -> None:
    from test_record import game_and_lines, recorder_for

    game, _, lines = game_and_lines("1e", 3, (), True)
    assert lines[7] == "1. 8C 13C>Ann 12C"
    recorder = recorder_for(game)
    for line in lines[:8]:
        assert recorder.enter(line).refusal is None
    before = recorder.text
    refusal = recorder.enter("swap R1.1.1 R1.1.3").refusal  # Bob does not hold 12C (R8)
    assert refusal is not None and refusal.rule == "R8"
    assert recorder.text == before


def test_the_end_of_round_award_is_asked_as_the_end_line() -> None:
    from test_record import game_and_lines, recorder_for

    game, _, lines = game_and_lines("1e", 3, (), True)
    assert lines[16:18] == ["10. 12D 8H 15H", "end >Bob"]
    for answer in (">Bob", "Bob", "end >Bob"):
        recorder = recorder_for(game)
        for line in lines[:16]:
            assert recorder.enter(line).refusal is None
        question = recorder.enter(lines[16]).question
        assert question is not None and question.end and question.item == "end"
        assert question.prompt == "end >" and "`end >Name`" in question.message
        assert recorder.enter(answer).accepted == ("15H", "end >Bob")
        assert recorder.where().startswith("round 2")


def test_a_victim_at_a_trick_is_still_asked_at_its_card() -> None:
    from test_record import game_and_lines, recorder_for

    game, _, lines = game_and_lines("1e", 3, (), True)
    recorder = recorder_for(game)
    for line in lines[:7]:
        recorder.enter(line)
    assert recorder.enter("8C 13C").refusal is None
    question = recorder.enter("12C").question
    assert question is not None and not question.end and question.prompt == "R1.1.2 needs >"


def _record_cli(tmp_path: Path, monkeypatch, *options: str) -> str:
    from diamonds.cli.main import main

    path = tmp_path / "rec.dgn"
    monkeypatch.setattr("sys.stdin", io.StringIO("pass 2\n"))
    assert main(["record", str(path), "--rules", "2e", "--players", "Ann Bob Cat", *options]) == 0
    return path.read_text(encoding="utf-8")


def test_the_date_defaults_to_today(tmp_path: Path, monkeypatch) -> None:
    import time

    today = time.strftime("%Y.%m.%d")
    assert f'[Date "{today}"]' in _record_cli(tmp_path, monkeypatch)
    (tmp_path / "rec.dgn").unlink()
    assert '[Date "2026.01.02"]' in _record_cli(tmp_path, monkeypatch, "--date", "2026.01.02")
    for empty in ("", "none"):
        (tmp_path / "rec.dgn").unlink()
        assert "[Date " not in _record_cli(tmp_path, monkeypatch, "--date", empty)


def test_a_date_not_in_dgn_s_form_is_refused_and_nothing_is_written(tmp_path: Path, monkeypatch, capsys) -> None:
    """The Date tag is the recorder's to write: `yesterday` or 2026.13.45 were written as given, where DGN
    writes YYYY.MM.DD with ?? for what is unknown."""
    from diamonds.cli.main import main

    path = tmp_path / "rec.dgn"
    for wrong in ("yesterday", "2026.13.45", "2026.02.30", "26.11.20", "2026-11-20"):
        monkeypatch.setattr("sys.stdin", io.StringIO("pass 2\n"))
        assert main(["record", str(path), "--rules", "2e", "--players", "3", "--date", wrong]) == 2
        assert f"--date {wrong}: a date is written YYYY.MM.DD" in capsys.readouterr().err
        assert not path.exists()
    for known in ("2026.11.??", "2026.??.??", "????.??.??", "2024.02.29"):
        assert f'[Date "{known}"]' in _record_cli(tmp_path, monkeypatch, "--date", known)
        path.unlink()


def test_the_dealer_is_named_in_any_case_and_written_as_players_spells_it(tmp_path: Path, monkeypatch) -> None:
    """`--dealer bob` was refused ("not one of the players") where `replay --as kofi` is taken: a player is
    named in any case, and the Dealer tag is written as the Players tag spells the name."""
    assert dict(Recorder.new("2e", ["Ann", "Bob", "Cat"], dealer="bOB").tags)["Dealer"] == "Bob"
    assert '[Dealer "Bob"]' in _record_cli(tmp_path, monkeypatch, "--dealer", "bob")
    from diamonds.cli.main import main

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["record", str(tmp_path / "rec.dgn"), "--dealer", "BOB"]) == 0  # the same dealer: resumed


def test_a_resumed_game_shows_the_trick_so_far(tmp_path: Path) -> None:
    recorder = fitz()
    for line in PASSED:
        recorder.enter(line)
    recorder.enter("1H 2H 3H 4S")
    resumed = Recorder.resume(recorder.text)
    assert resumed.where() == "round 1, trick 2, card 2, Bob to play (trick so far: Ann 4S)"


def test_a_dealer_who_is_not_seated_is_refused_with_the_games_own_seating_ruling() -> None:
    """R1, K1 and B1 each say who is seated in their game: the recorder cites the game's, not Fitzgerald's."""
    from diamonds.core import rules_for
    from diamonds.replay.recorder import SetupError

    for rules, names in (("2e", "Ann Bob Cat"), ("kirk", "Ann Bob Cat Dan"), ("bidding", "Ann Bob Cat")):
        try:
            Recorder.new(rules, names.split(), dealer="Zed")
        except SetupError as error:
            assert (error.tag, error.rule) == ("Dealer", rules_for(rules).seats_rule)
            assert error.rule == {"2e": "R1", "kirk": "K1", "bidding": "B1"}[rules]
        else:
            raise AssertionError(f"{rules}: a dealer who is not seated was taken")


def test_a_player_seated_twice_is_refused_with_the_games_own_seating_ruling() -> None:
    """The set-up's seating errors carry no ruling: the recorder, as `validate`, cites the game's (R1, K1, B1)."""
    from diamonds.replay.recorder import SetupError

    for rules, names, rule in (("2e", "Ann Bob ann", "R1"), ("kirk", "Ann Bob Cat bob", "K1"),
                               ("bidding", "Ann Bob ANN", "B1")):
        try:
            Recorder.new(rules, names.split())
        except SetupError as error:
            assert (error.tag, error.rule) == ("Players", rule), (rules, error.tag, error.rule)
        else:
            raise AssertionError(f"{rules}: a player seated twice was taken")


#: 1e, Ann deals, no deal lines; in trick 4 Cat wins a trick led in Clubs and names its victim (R14).
CLUBS_TRICK = ("pass 3", "pass Bob 1H 15H 11C", "pass Cat 8S 2C 14C", "pass Ann 3D 11H 15S", "1. 15S 6S 13S",
               "2. 12H 7H 8H", "3. 11H 1H 4H", "4. 5C 9C 2C")


def waiting_victim() -> Recorder:
    recorder = Recorder.new("1e", ["Ann", "Bob", "Cat"], dealer="Ann")
    for line in CLUBS_TRICK:
        recorder.enter(line)
    assert recorder.question is not None and recorder.waiting_item == "2C"
    return recorder


def test_commands_typed_while_a_question_waits_are_commands_and_the_card_keeps_waiting() -> None:
    """The hunt: `?`, `fix` and `swap` typed at the victim's question went to the answer: the waiting card was
    dropped, and after `?` the recorder's record and its check disagreed (the victim could never be named)."""
    recorder = waiting_victim()
    text = recorder.text
    info = recorder.enter("?").info
    assert info[0] == "2C waits: Cat must name whose Showroom the Clubs action takes from: Ann (3), Bob (4) (R14)"
    assert "`undo` takes 2C back" in info[1]
    for command in ("fix R1.1.1 15S", "swap R1.1.1 R1.1.2"):
        refusal = recorder.enter(command).refusal
        assert refusal is not None and refusal.typed and "2C waits for its answer" in refusal.message
    assert recorder.waiting_item == "2C" and recorder.text == text
    refused = recorder.enter(">Cat").refusal  # herself: refused as such, and asked again
    assert refused is not None and refused.message == "Cat cannot take from themselves with Clubs"
    assert recorder.waiting_item == "2C" and recorder.text == text
    assert recorder.enter(">Bob").accepted == ("2C (and 9C>Bob)",)
    assert recorder.text.rstrip().endswith("4. 5C 9C>Bob 2C") and recorder.question is None


def test_a_victims_question_offers_only_whom_the_rules_allow() -> None:
    """The victim's choices came from the players' names: the actor was offered (R14: not themselves)."""
    question = waiting_victim().question
    assert question is not None and question.choices == (">Ann", ">Bob")


def test_quit_while_a_question_waits_saves_and_leaves_saying_what_was_not_recorded(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / "rec.dgn"
    recorder = Recorder.new("1e", ["Ann", "Bob", "Cat"], dealer="Ann")
    assert run_lines(recorder, str(path), [f"{line}\n" for line in CLUBS_TRICK] + ["quit\n"], out, err) == 0
    assert "left while R1.4.2 waits" in err.getvalue() and "not recorded" in err.getvalue()
    assert "refused" not in err.getvalue()
    assert path.read_text(encoding="utf-8").rstrip().endswith("4. 5C 9C")


def test_undo_of_an_end_line_that_answered_the_last_card_takes_both_back_as_a_resume_reads_it() -> None:
    """The hunt: the round's last card and its `end >Name` line go in together; `undo` took back the line alone,
    leaving the card recorded where a resume of the same text makes it wait for its victim."""
    from test_record import game_and_lines, recorder_for

    game, _, lines = game_and_lines("1e", 3, (), True)
    assert lines[16:18] == ["10. 12D 8H 15H", "end >Bob"]
    recorder = recorder_for(game)
    for line in lines[:16]:
        recorder.enter(line)
    recorder.enter(lines[16])
    assert recorder.enter(">Bob").accepted == ("15H", "end >Bob")
    assert recorder.enter("undo").info == ("took back 15H end >Bob",)
    assert recorder.text.rstrip().endswith("10. 12D 8H") and recorder.record.problems == ()
    assert not recorder._last.replayed.problems
    assert Recorder.resume(recorder.text).text == recorder.text


def test_with_deal_lines_and_no_pass_lines_a_card_due_lists_cards_not_pass_lines() -> None:
    """The hunt: the engine still waits on the pass lines (inferred when the round is complete), so `?` and
    `legal()` listed 120 pass lines, some of cards already played, while a card was due."""
    from test_record import game_and_lines, recorder_for

    game, _, lines = game_and_lines("2e", 3, (), True)
    recorder = recorder_for(game)
    first_trick = next(line for line in lines if line.startswith("1. "))
    for line in lines[: lines.index(first_trick)]:
        if not line.startswith("pass ") or line.split()[1].isdigit():  # the count, not the pass lines
            assert recorder.enter(line).refusal is None, line
    assert recorder.enter(first_trick.split()[1]).refusal is None
    assert not recorder.hands_known()
    legal = recorder.legal()
    assert legal and not any(word.startswith("pass") for word in legal) and first_trick.split()[1] not in legal
    assert recorder.enter("?").info[1].startswith("unseen cards")


def test_a_bidding_hand_without_deal_lines_says_who_plays_as_with_them() -> None:
    """The hunt: without hands the bidding game's status said "round 1, trick 1, card 1" at every card, no player:
    it had no seats-from-the-cards rule (B6: the dealer's left leads, B8: each trick's winner the next)."""
    from test_record import game_and_lines, recorder_for

    wheres = []
    for deals in (True, False):
        game, _, lines = game_and_lines("bidding", 3, (), deals)
        recorder = recorder_for(game)
        said = []
        for line in lines:
            words = line.split()
            for item in (words[1:] if words[0].endswith(".") else [line]):
                if words[0].endswith("."):
                    said.append(recorder.where())
                assert recorder.enter(item).refusal is None, item
        wheres.append(said)
    with_hands, without = wheres
    assert len(without) > 30 and all(" leads" in w or " to play" in w for w in without)
    assert without == with_hands
