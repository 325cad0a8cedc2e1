"""`diamonds record` in line mode: simulated games typed item by item come out as the same DGN.

Every allowed set-up of every registered family, with and without deal lines; undo, fix,
refusals with their rulings, and a revoke without deal lines reported at the round's end.
"""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from diamonds.cli.record_cmd import run_lines
from diamonds.core import ConfigError
from diamonds.core.registry import FAMILIES
from diamonds.core.simulate import simulate
from diamonds.notation.reader import parse_game
from diamonds.notation.writer import write_game
from diamonds.replay.record import record_from_game
from diamonds.replay.recorder import Recorder
from diamonds.replay.validate import replay_record, validate_record

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
SHORT = {"Hands": "1"}  # Kirk's game of one hand: the same checks, a shorter test


def setups() -> list[tuple[str, int, tuple[str, ...]]]:
    found = []
    for family in FAMILIES:
        for rules in family.rule_sets:
            for count in rules.player_counts:
                for size in range(len(rules.variants) + 1):
                    for variants in itertools.combinations(rules.variants, size):
                        try:
                            rules.configure(NAMES[:count], variants=variants)
                        except ConfigError:
                            continue
                        found.append((rules.id, count, variants))
    return found


def options_for(rules: str) -> dict[str, str]:
    from diamonds.core import rules_for

    return {k: v for k, v in SHORT.items() if k in rules_for(rules).option_tags}


def game_and_lines(rules: str, count: int, variants: tuple[str, ...], deals: bool, seed: int = 3):
    game = simulate(NAMES[:count], rules=rules, variants=variants, seed=seed, options=options_for(rules))
    expected = write_game(record_from_game(game, deals=deals))
    movetext = expected.split("\n\n", 1)[1]
    return game, expected, [line for line in movetext.splitlines() if line.strip()]


def recorder_for(game) -> Recorder:
    config = game.config
    return Recorder.new(config.rules, config.players, variants=[getattr(config, "variant_text", "")],
                        dealer=config.players[config.first_dealer], options=options_for(config.rules))


def record_lines(tmp_path: Path, game, lines: list[str]) -> tuple[int, str, str]:
    path = tmp_path / "game.dgn"
    recorder = Recorder.resume(write_game(parse_game(recorder_for(game).text)))
    out, err = io.StringIO(), io.StringIO()
    status = run_lines(recorder, str(path), [line + "\n" for line in lines], out, err)
    return status, path.read_text(encoding="utf-8"), err.getvalue()


def cases() -> list[tuple[str, int, tuple[str, ...], bool]]:
    """Every set-up with and without deal lines when DIAMONDS_RECORD_FULL=1 (about 6 minutes here);
    by default every rule set and every variant word once, alternating deal lines (the time budget)."""
    import os

    every = [(r, n, v, d) for r, n, v in setups() for d in (True, False)]
    if os.environ.get("DIAMONDS_RECORD_FULL"):
        return every
    chosen, seen = [], set()
    for _index, (rules, count, variants, deals) in enumerate(every):
        key = (rules, variants)
        if key not in seen and count <= 4 and deals == (len(chosen) % 2 == 0):
            seen.add(key)
            chosen.append((rules, count, variants, deals))
    return chosen


@pytest.mark.parametrize("rules,count,variants,deals", cases(), ids=lambda v: str(v))
def test_every_setup_records_the_simulated_game(tmp_path, rules, count, variants, deals):
    game, expected, lines = game_and_lines(rules, count, variants, deals)
    # Tricks typed card by card in one game of each pair, as whole lines in the other.
    if not deals:
        lines = [part for line in lines for part in (line.split()[1:] if line[0].isdigit() else [line])]
    status, written, err = record_lines(tmp_path, game, lines)
    assert (status, err.count("refused")) == (0, 0), err
    assert written == expected
    assert 'Result "*"' not in written


def test_set_up_of_the_simulated_game_matches(tmp_path):
    """The recorder's own tags are those a simulated game is written with (the comparison above relies on it)."""
    game, expected, _ = game_and_lines("2e", 4, ("partnership",), True)
    head = recorder_for(game).text.split("\n\n")[0].splitlines()
    assert head[:-1] == expected.split("\n\n")[0].splitlines()[:-1]
    assert head[-1] == '[Result "*"]'


@pytest.mark.parametrize("family", [f.name for f in FAMILIES])
def test_through_a_real_pipe(tmp_path, family):
    rules = next(f for f in FAMILIES if f.name == family).rule_sets[0]
    game, expected, lines = game_and_lines(rules.id, rules.default_players, (), False)
    path = tmp_path / "pipe.dgn"
    config = game.config
    command = [sys.executable, "-m", "diamonds.cli.main", "record", str(path), "--rules", rules.id,
               "--players", " ".join(config.players), "--dealer", config.players[config.first_dealer],
               "--event", "Club night"]
    command += [f"--{k.lower()}={v}" for k, v in options_for(rules.id).items()]
    done = subprocess.run(command, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "the game is over" in done.stderr
    written = path.read_text()
    today = time.strftime("%Y.%m.%d")  # a new game's Date defaults to today (issue 23)
    assert written == expected.replace(f'[Rules "{rules.id}"]',
                                       f'[Event "Club night"]\n[Date "{today}"]\n[Rules "{rules.id}"]')


def test_missing_set_up_is_an_error_in_line_mode(tmp_path):
    done = subprocess.run([sys.executable, "-m", "diamonds.cli.main", "record", str(tmp_path / "x.dgn"),
                           "--rules", "1e"], input="5H\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--players" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "x.dgn").exists()


def new_1e() -> Recorder:
    return Recorder.new("1e", ["Ann", "Bob", "Cat"], dealer="Bob")


#: Round 1's pass count and pass lines (Bob deals: Cat passes first, R6), due before its first card without deal
#: lines; none of their cards is played by the tests.
PASSED = ("pass 2", "pass Cat 1D 2D", "pass Ann 3D 4D", "pass Bob 6D 7D")


def passed_1e() -> Recorder:
    """`new_1e` with round 1's passes written: ready for its first card."""
    recorder = new_1e()
    for line in PASSED:
        assert recorder.enter(line).accepted == (line,)
    return recorder


def test_refusals_name_the_ruling_and_record_nothing():
    recorder = passed_1e()
    assert recorder.enter("5h").accepted == ("5h",)  # the reader's forgiving forms
    before = recorder.text
    outcome = recorder.enter("5H")
    assert outcome.refusal is not None
    assert (outcome.refusal.code, outcome.refusal.rule) == ("card-not-held", "R8")
    assert "already played" in outcome.refusal.message
    assert recorder.text == before
    outcome = recorder.enter("16D")  # no such rank in DGN: not a card at all
    assert outcome.refusal is not None and "not a card" in outcome.refusal.message
    outcome = recorder.enter("JD")  # a card of another game's deck (R5)
    assert outcome.refusal is not None and outcome.refusal.rule == "R5"
    outcome = recorder.enter("2. 7H")
    assert outcome.refusal is not None and "expected a card" in outcome.refusal.message
    text = outcome.refusal.text("g.dgn")
    assert text.startswith("g.dgn") or "2." in text


def test_undo_takes_back_items_one_by_one():
    recorder = passed_1e()
    recorder.enter("5H 9H")
    assert recorder.text.rstrip().endswith("1. 5H 9H")
    recorder.enter("undo")
    assert recorder.text.rstrip().endswith("1. 5H")
    recorder.enter("undo")
    assert recorder.text.rstrip().endswith(PASSED[-1])
    for _ in PASSED[1:]:
        recorder.enter("undo")
    assert recorder.text.rstrip().endswith("R1 dealer Bob pass 2")
    recorder.enter("undo")
    assert "R1" not in recorder.text
    assert recorder.enter("undo").info == ("nothing to take back",)


def test_fix_checks_everything_after_again():
    recorder = passed_1e()
    recorder.enter("5H 9H 2S")
    assert recorder.enter("fix R1.1.2 7H").accepted
    assert "1. 5H 7H 2S" in recorder.text
    refused = recorder.enter("fix R1.1.2 2S")  # 2S is played later in the trick: the card after it breaks
    assert refused.refusal is not None and refused.refusal.rule == "R8"
    assert "1. 5H 7H 2S" in recorder.text
    refused = recorder.enter("fix R1 pass 3")  # the pass lines after it pass 2 cards each (R6)
    assert refused.refusal is not None and refused.refusal.rule == "R6"
    assert "R1 dealer Bob pass 2" in recorder.text
    counted = new_1e()
    counted.enter("pass 2")
    assert counted.enter("fix R1 pass 3").accepted
    assert "R1 dealer Bob pass 3" in counted.text


def test_a_victim_is_asked_for_and_the_answer_completes_the_card():
    """Cards typed bare; each question answered as the simulated record says. Three kinds come up (R14):
    a Clubs card played off-suit names its own victim; the winner of a trick led in Clubs, asked when the
    trick's last card is entered (the question names the winning card, R1.3.2); and the end-of-round
    Clubs award, asked at the round's last card once that card's own victim (if any) is given, and
    answered with the victim of the record's `end` line."""
    game, expected, lines = game_and_lines("1e", 3, (), True)
    recorder = recorder_for(game)
    kinds = {"own card": 0, "trick winner": 0, "end of round": 0}
    answered_end = None
    for index, line in enumerate(lines):
        if not line[0].isdigit():
            if line == answered_end:  # already recorded as the answer to the end-of-round question
                answered_end = None
                continue
            outcome = recorder.enter(line)
            assert outcome.refusal is None and outcome.question is None, outcome
            continue
        written = line.split()[1:]
        for card in written:
            bare, _, victim = card.partition(">")
            outcome = recorder.enter(bare)
            while outcome.question is not None:
                question = outcome.question
                assert question.rule == "R14" and question.code == "victim-required", question
                asked = question.item
                if question.end:  # the round's Clubs award, asked as its `end >Name` line
                    end_line = lines[index + 1]
                    assert end_line.startswith("end >") and question.prompt == "end >", (asked, end_line)
                    kind, answer, answered_end = "end of round", end_line.split()[1], end_line
                elif asked.startswith("R"):  # the trick's winning card, R<round>.<trick>.<position>
                    kind, answer = "trick winner", ">" + written[int(asked.rsplit(".", 1)[1]) - 1].partition(">")[2]
                elif ">" not in asked and victim:
                    kind, answer = "own card", f">{victim}"
                else:
                    raise AssertionError(f"a question at the card with no victim to give: {question}")
                assert answer in question.choices
                kinds[kind] += 1
                outcome = recorder.enter(answer)
                # Accepted, or (the round's last card) the next question: the end-of-round award.
                assert outcome.refusal is None and bool(outcome.accepted) != bool(outcome.question), outcome
            assert outcome.refusal is None, outcome
    assert all(kinds.values()), kinds
    assert recorder.text == expected


def revoked_round() -> tuple[list[str], tuple[int, int], str]:
    """A no-deal Fitzgerald game with two cards of one round swapped so that the record revokes (R8)."""
    game, expected, _ = game_and_lines("2e", 3, (), False, seed=5)
    lines = expected.split("\n")
    tricks = [i for i, line in enumerate(lines) if line[:1].isdigit() and i < lines.index("", 6)]
    for a, b in itertools.combinations(tricks, 2):
        for x, y in itertools.product(range(1, 4), repeat=2):
            changed = list(lines)
            wa, wb = changed[a].split(), changed[b].split()
            wa[x], wb[y] = wb[y], wa[x]
            changed[a], changed[b] = " ".join(wa), " ".join(wb)
            record = parse_game("\n".join(changed))
            problems = validate_record(record).problems
            if problems and problems[0].code == "must-follow-suit":
                return changed, (problems[0].line, problems[0].column), problems[0].rule or ""
    raise AssertionError("no swap makes a revoke")  # pragma: no cover


def test_a_revoke_without_deal_lines_is_refused_as_soon_as_a_card_proves_it():
    """Without deal lines the round is played on a stand-in deal (hands drawn to fit the record), so a revoke
    (R8) is refused at the first card that proves it, not at the round's end: the card that shows the player
    held the led suit. The refusal stands at the revoked card, revealed by the card just entered."""
    lines, (line, column), rule = revoked_round()
    recorder = Recorder.new("2e", ["Ann", "Bob", "Cat"], dealer=lines[2].split('"')[1])
    movetext = [text for text in lines[lines.index("") + 1:] if text.strip()]
    first_round = movetext[: movetext.index(next(t for t in movetext[1:] if t.startswith("R2")))]
    cards = [card for text in first_round for card in (text.split()[1:] if text[0].isdigit() else [text])]
    refused = [(index, outcome.refusal) for index, card in enumerate(cards)
               if (outcome := recorder.enter(card)).refusal is not None]
    assert len(refused) >= 1
    index, refusal = refused[0]
    assert refusal.code == "must-follow-suit" and refusal.rule == rule == "R8"
    assert (refusal.line, refusal.column) == (line, column)
    if refusal.at:  # proved by a later card: the refusal stands at the revoked card, revealed by that one
        assert refusal.at.startswith("R1.") and "revealed by" in refusal.text("g.dgn")
    else:  # proved by what the record already held (a card passed to the player): refused as it was entered
        assert refusal.item == cards[index] and refusal.source_line.split()[-1] == cards[index]
    assert index < len(cards) - 1  # before the round's end, where the replay with hands would first see it


@pytest.mark.parametrize("rules,count,deals,every", [("2e", 3, False, 1), ("kirk", 4, True, 1), ("bidding", 3, True, 9)])
def test_the_incremental_check_is_the_full_replay(rules, count, deals, every):
    """Each item replays only its own round, from the engine's state after the rounds before it (kept
    once the engine has moved past them). At every checked item, and for a wrong card entered there (the
    last card again: already played, R8/K5/B7), the problems, notes, end and state are those of
    whole record's replay (`replay_record`, with the stand-in deal of an unfinished round without deal lines,
    as the recorder replays)."""
    game = simulate(NAMES[:count], rules=rules, seed=4, options={"Hands": "2"} if rules == "kirk" else {})
    expected = write_game(record_from_game(game, deals=deals))
    lines = [line for line in expected.split("\n\n", 1)[1].splitlines() if line.strip()]
    config = game.config
    recorder = Recorder.new(rules, config.players, dealer=config.players[config.first_dealer],
                            options={"Hands": "2"} if rules == "kirk" else {})
    compared = 0
    for index, line in enumerate(lines):
        outcome = recorder.enter(line)
        assert outcome.accepted and outcome.refusal is None and outcome.question is None, outcome
        if index % every or not line[0].isdigit():
            continue
        wrong = replace(recorder.rounds[-1], cards=(*recorder.rounds[-1].cards, recorder.rounds[-1].cards[-1]))
        for rounds in (recorder.rounds, (*recorder.rounds[:-1], wrong)):
            checked = recorder._check(rounds)
            full = replay_record(checked.record, history=False, events=False, stand_in=True)
            assert checked.replayed.problems == full.problems
            assert checked.replayed.drawn_round == full.drawn_round
            assert checked.replayed.notes == full.notes
            assert checked.replayed.complete == full.complete
            assert checked.replayed.game.state == full.game.state
        assert full.problems and full.problems[0].rule  # the wrong card was refused, with its ruling
        compared += 1
    assert recorder.text == expected
    assert compared >= 10 and recorder.text.count("\nR") >= 2  # several rounds: the kept states were used


def test_a_round_header_is_refused_while_the_round_before_is_unfinished():
    """Without deal lines the replay stops at an unfinished round and checks nothing after it, so the
    recorder itself refuses to open the next round early (the file stays a game `validate` can check)."""
    recorder = passed_1e()
    recorder.enter("5H 9H 2S")
    before = recorder.text
    outcome = recorder.enter("R2 dealer Cat pass 1")
    assert outcome.refusal is not None and "round 1 is not finished" in outcome.refusal.message
    assert recorder.text == before
    assert recorder.enter("R1 dealer Bob pass 3").refusal is not None  # nor a second header for round 1


@pytest.mark.parametrize("rules,count", [("2e", 3), ("1e", 4), ("kirk", 4)])  # the bidding game reads every
# card word DGN knows as its own and refuses one not in its pack as a play (B2), with or without hands
@pytest.mark.parametrize("deals", [True, False])
def test_another_games_card_is_refused_by_the_recorder_as_validate_refuses_it(rules, count, deals):
    """The recorder replays the round being written itself (`Replayer.read_round`), and handed a Joker to
    Fitzgerald's trick-winner rule (an AttributeError, no refusal) where `validate` refuses it at its token with
    the game's ruling: each family's foreign card words, typed as the round's next card, are refused as
    `validate` refuses them in the recorder's text, and nothing is recorded."""
    from diamonds.core import rules_for
    from diamonds.replay.validate import foreign_cards

    game, _, lines = game_and_lines(rules, count, (), deals)
    first_trick = next(index for index, line in enumerate(lines) if line.split()[0] == "1.")
    recorder = recorder_for(game)
    for line in lines[:first_trick]:
        assert recorder.enter(line).refusal is None, line
    assert recorder.enter(lines[first_trick].split()[1]).refusal is None  # the first card: a trick under way
    before = recorder.text
    foreign = foreign_cards(rules_for(rules), recorder.config)
    assert foreign
    for card, error in list(foreign.items())[:3]:
        refusal = recorder.enter(str(card)).refusal
        assert refusal is not None, card
        assert (refusal.code, refusal.rule, refusal.message) == ("card-not-in-deck", error.rule, error.reason)
        problems = validate_record(parse_game(before.rstrip("\n") + f" {card}\n")).problems
        assert [(p.pos.line, p.pos.column, p.rule) for p in problems] == [(refusal.line, refusal.column, error.rule)]
        assert recorder.text == before
