"""A record may end while a Clubs victim is due (R14; in 1e the actor names it, in 2e and bga the Thief decides,
R13): a game written from a position that waits for one reads back as that position, unfinished with a note,
where `validate` called it invalid ("Cat must name whose Showroom …"). A victim left unnamed anywhere else is
still the problem it was (samples/invalid/missing-victim-1e.dgn)."""

from __future__ import annotations

import random

import pytest

import diamonds
from diamonds.notation import parse_game
from diamonds.replay.validate import validate_record


def _victim_due(rules: str, seed: int, players: list[str]) -> diamonds.Position | None:
    """A random game of `rules` stopped at a victim due (a third of the times one comes up), or None."""
    rng = random.Random(seed)
    pos = diamonds.Position(rules, players)
    while not pos.is_over:
        if pos.is_chance:
            pos.deal(rng)
        else:
            pos.push(rng.choice(pos.legal_moves))
        if pos.is_over or pos.is_chance:
            continue
        moves = pos.legal_moves
        # Where naming no victim is one of the choices (`>-`, which DGN writes as no mark), a record that ends
        # there reads as that choice made: the reader cannot tell it from a victim still due.
        if type(moves[0]).__name__ == "ChooseVictim" and all(move.victim is not None for move in moves) \
                and rng.random() < 0.34:
            return pos
    return None


@pytest.mark.parametrize("rules,players", [("1e", ["Ann", "Bob", "Cat"]), ("1e", ["Ann", "Bob", "Cat", "Dan"]),
                                           ("1e", ["Ann", "Bob"])])
def test_a_game_written_while_a_victim_is_due_reads_back_as_its_position(rules, players) -> None:
    kinds = set()
    for seed in range(40):
        pos = _victim_due(rules, seed, players)
        if pos is None:
            continue
        text = str(pos.game())
        game = next(iter(diamonds.read_games(iter(text.splitlines(keepends=True)))))
        assert game.problems == [], (seed, text)
        assert not game.is_complete
        assert any("before a Clubs victim is named" in note and note.endswith("(R14)") for note in game.notes)
        end = game.end()
        assert end.state == pos.state and end.legal_moves == pos.legal_moves, seed
        replayed = validate_record(parse_game(text))
        assert replayed.still_due is not None and replayed.still_due.code == "victim-required"
        last = text.rstrip().splitlines()[-1]
        kinds.add("trick" if last[0].isdigit() and len(last.split()) - 1 < len(players) else "whole trick")
    assert kinds == {"trick", "whole trick"} or len(players) == 2  # an off-suit Club, and a trick won in Clubs


def test_a_victim_left_unnamed_before_the_records_end_is_still_refused() -> None:
    cases = 0
    for seed in range(40):
        pos = _victim_due("1e", seed, ["Ann", "Bob", "Cat"])
        if pos is None:
            continue
        pos.push(pos.legal_moves[0])  # the victim named, then a card after it
        if pos.is_chance or type(pos.legal_moves[0]).__name__ != "PlayCard":
            continue
        pos.push(pos.legal_moves[0])
        if type(pos.legal_moves[0]).__name__ == "ChooseVictim":
            continue
        text = str(pos.game())
        at = text.rindex(">")  # the victim's `>id`: no later card names one
        end = at + 1 + len(text[at + 1:].split(None, 1)[0])
        replayed = validate_record(parse_game(text[:at] + text[end:]))
        assert [(p.code, p.rule) for p in replayed.problems] == [("victim-required", "R14")], seed
        assert replayed.still_due is None
        cases += 1
    assert cases >= 3


def test_the_recorder_resumes_such_a_record_asking_for_the_victim() -> None:
    """`diamonds record FILE` on a file that ends at a card whose victim is due: it was refused ("Cat must name
    whose Showroom …"); it now resumes with that card waiting for its victim, as when the card is typed, and the
    answer gives the record of the position with that victim named."""
    from diamonds.replay.recorder import Recorder

    asked = 0
    for seed in range(12):
        pos = _victim_due("1e", seed, ["Ann", "Bob", "Cat"])
        if pos is None:
            continue
        recorder = Recorder.resume(str(pos.game()))
        question = recorder.question
        assert question is not None and question.code == "victim-required" and question.rule == "R14"
        victim = pos.legal_moves[0]
        pos.push(victim)
        outcome = recorder.enter(f">{pos.players[victim.victim]}")
        assert outcome.refusal is None and outcome.accepted
        assert recorder.question is None
        assert next(iter(diamonds.read_games(iter(recorder.text.splitlines(keepends=True))))).end().state == pos.state
        asked += 1
    assert asked >= 3


#: 1e (2e below), Ann deals, no deal lines: trick 4 is led in Clubs by Bob (R14: its winner names the victim).
CUT = ('[Rules "{rules}"]\n[Players "Ann Bob Cat"]\n[Dealer "Ann"]\n[Result "*"]\n\nR1 dealer Ann pass 3\n'
       "pass Bob 1H 15H 11C\npass Cat 8S 2C 14C\npass Ann 3D 11H 15S\n1. 15S 6S 13S\n2. 12H 7H 8H\n3. 11H 1H 4H\n")


@pytest.mark.parametrize("rules,trick,mark,rule,message", [
    ("2e", "4. 5C 9C>Bob", ">Bob", "R13", "9C names a victim, but under 2e the Thief decides whom Clubs robs"),
    ("1e", "4. 5C 9C>Zed", ">Zed", "R1", 'unknown victim "Zed" (players: Ann Bob Cat)'),
    ("1e", "4. 5C>Ann 9C", ">Ann", "R14",
     "5C does not win this Clubs trick, so it earns no Clubs action to name a victim for"),
    ("1e", "4. 3D>Ann 2D", ">Ann", "R14", "3D earns no Clubs action, so it names no victim"),
    ("1e", "4. 5C 9C>Cat", ">Cat", "R14", "Cat cannot take from themselves with Clubs"),  # Bob leads, Cat plays 9C
])
def test_a_victim_no_card_to_come_can_make_right_is_refused_in_a_trick_the_record_ends_inside(
        rules, trick, mark, rule, message) -> None:
    """The hunt: such a `>id` was taken while its trick was unfinished (the trick's check comes when it is whole),
    so `validate` called the file valid and the recorder wrote it, then refused every next card."""
    text = CUT.format(rules=rules) + trick + "\n"
    for replayed in (validate_record(parse_game(text)), replay_record_live(text)):
        assert [(p.pos.line, p.pos.column, p.rule, p.message) for p in replayed.problems] == [
            (13, len(trick[: trick.index(mark)]) + 1, rule, message)]
    fine = CUT.format(rules="1e") + "4. 5C 9C>Ann\n"  # 9C wins so far: its victim may stand
    assert validate_record(parse_game(fine)).problems == []


def replay_record_live(text: str):  # the recorder's and the server's check (a stand-in deal)
    from diamonds.replay.validate import replay_record

    return replay_record(parse_game(text), stand_in=True)
