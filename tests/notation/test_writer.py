"""notation.writer: the canonical layout, round trips, Result in seat order, unreadable games kept verbatim."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from diamonds.core import Card, simulate
from diamonds.notation import parse_game, parse_games, records
from diamonds.notation.tags import format_result, parse_result
from diamonds.notation.writer import escape_tag_value, write_game, write_games
from diamonds.replay import record_from_game

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def cards(text: str) -> tuple[records.Play, ...]:
    return tuple(records.Play(Card.parse(word)) for word in text.split())


RECORD = records.GameRecord(
    tags=(
        records.Tag("Event", 'The "Thursday" club \\ Leeds'),
        records.Tag("Players", "Ann Bob Cat"),
        records.Tag("Result", "Cat 22, Ann 41, Bob 38"),
    ),
    comments=(records.Comment("scorer: jpk", True), records.Comment(" second sheet", False)),
    rounds=(
        records.Round(
            records.RoundHeader(1, "Ann", 1, comments=(records.Comment("Thief with Bob", True),)),
            (
                records.HandLine("deal", "Ann", cards("1D 4D")),
                records.HandLine("pass", "Ann", cards("4D"), comments=(records.Comment(" by mistake?", False),)),
            ),
            (
                records.Trick(1, (
                    records.Play(Card.parse("5H")),
                    records.Play(Card.parse("13C"), records.Choice("Cat"), "!?", (records.Comment("robs Cat", True),)),
                    records.Play(Card.parse("2S")),
                ), comments=(records.Comment("Bob leads", True),)),
                records.Trick(2, (
                    records.Play(Card.parse("3D"), comments=(records.Comment(" long think", False),)),
                    *cards("4D 5D"),
                )),
            ),
            records.EndLine((records.Choice("Bob"),), comments=(records.Comment("majority", True),)),
        ),
        records.Round(records.RoundHeader(2, "Bob", 2)),
    ),
)

CANONICAL = """\
[Event "The \\"Thursday\\" club \\\\ Leeds"]
[Players "Ann Bob Cat"]
[Result "Ann 41, Bob 38, Cat 22"]

{scorer: jpk}
; second sheet
R1 dealer Ann pass 1 {Thief with Bob}
deal Ann 1D 4D
pass Ann 4D ; by mistake?
1. {Bob leads} 5H 13C>Cat!? {robs Cat} 2S
2. 3D ; long think
   4D 5D
end >Bob {majority}

R2 dealer Bob pass 2
"""


def test_the_canonical_layout():
    assert write_game(RECORD) == CANONICAL


def test_the_canonical_text_reads_back_as_the_record():
    back = parse_game(CANONICAL)
    assert back.readable
    assert back != RECORD  # RECORD's Result is out of seat order: the writer reorders it
    assert back == replace(RECORD, tags=RECORD.tags[:2] + (records.Tag("Result", "Ann 41, Bob 38, Cat 22"),))


def test_records_of_simulated_games_survive_write_then_parse():
    for seed, (players, rules, variants) in enumerate([
        (3, "2e", ()), (2, "1e", ("perfect",)), (4, "bga", ("partnership",)), (6, "1e", ("partnership",)),
        (5, "2e", ("perfect",)),
    ]):
        game = simulate(players, rules=rules, variants=variants, seed=seed)
        for deals in (True, False):
            record = record_from_game(game, tags=[("Event", f"seed {seed}")], deals=deals)
            text = write_game(record)
            assert parse_game(text) == record
            assert write_game(parse_game(text)) == text


MESSY = """\
[Players "Ann bob_2 Cat-x"]   ; the table
[Result "cat-x 3, ANN 1, Bob_2 2"]
R1   dealer ann pass 2 {a}
deal  ANN 1d 4♦ ; dealt
pass Ann 9D 12h 1. {b} 5♥ 13c>BOB_2!? 2s
2. 3D ; x
4D
5D end >cat-x ; y

R2 dealer BOB_2 pass 1
"""


def test_write_of_parse_is_stable_and_reads_as_the_same_record():
    first = write_game(parse_game(MESSY))
    assert write_game(parse_game(first)) == first
    assert first == """\
[Players "Ann bob_2 Cat-x"]
[Result "Ann 1, bob_2 2, Cat-x 3"]

; the table
R1 dealer Ann pass 2 {a}
deal Ann 1D 4D ; dealt
pass Ann 9D 12H
1. {b} 5H 13C>bob_2!? 2S
2. 3D ; x
   4D 5D
end >Cat-x ; y

R2 dealer bob_2 pass 1
"""


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.dgn")), ids=lambda p: p.name)
def test_the_samples_are_canonical(path):
    text = path.read_text(encoding="utf-8")
    games = parse_games(text)
    assert all(game.readable for game in games)
    assert write_games(games) == text


@pytest.mark.parametrize(("players", "written", "canonical"), [
    ("Ann Bob Cat", "Cat 22, Ann 41, Bob 38", "Ann 41, Bob 38, Cat 22"),
    ("Ann Bob Cat", "bob 38,cat 22 ,  ANN 41", "Ann 41, Bob 38, Cat 22"),
    ("Ann Bob Cat Dan", "Dan+Bob 44, Cat+Ann 50", "Ann+Cat 50, Bob+Dan 44"),
    ("Ann Bob Cat Dan Eve Fay", "Fay+Cat 9, Eve+Bob 8, Dan+Ann -1", "Ann+Dan -1, Bob+Eve 8, Cat+Fay 9"),
    ("Ann Bob Cat", "*", "*"),
    ("Ann Bob Cat", "Ann won", "Ann won"),  # not a Result the writer can read: kept as written
])
def test_result_is_written_in_seat_order(players, written, canonical):
    record = records.GameRecord(tags=(records.Tag("Players", players), records.Tag("Result", written)))
    assert write_game(record) == f'[Players "{players}"]\n[Result "{canonical}"]\n'


def test_result_entries_are_read_in_any_order():
    entries = parse_result("Dan+Bob 44, Cat+Ann 50")
    assert [(e.side, e.score) for e in entries] == [(("Dan", "Bob"), 44), (("Cat", "Ann"), 50)]
    assert parse_result(" * ") is None
    assert format_result(entries, ("Ann", "Bob", "Cat", "Dan")) == "Ann+Cat 50, Bob+Dan 44"


def test_tag_values_are_escaped():
    assert escape_tag_value('a "b" \\ c') == 'a \\"b\\" \\\\ c'
    record = records.GameRecord(tags=(records.Tag("Event", '"\\'),))
    assert write_game(record) == '[Event "\\"\\\\"]\n'
    assert parse_game(write_game(record)) == record


UNREADABLE = '[Players "Ann Bob"]\n\nR1   dealer Ann pass 1 {keep   this}\n1. 5H   16D\n'


def test_an_unreadable_game_is_written_back_exactly():
    (record,) = parse_games(UNREADABLE)
    assert not record.readable
    assert write_game(record) == UNREADABLE
    without_newline = parse_game(UNREADABLE.rstrip("\n"))
    assert write_game(without_newline) == UNREADABLE


def test_a_file_with_an_unreadable_game_keeps_it_between_canonical_ones():
    good = write_game(RECORD)
    text = good + "\n" + UNREADABLE + "\n" + good
    games = parse_games(text)
    assert [g.readable for g in games] == [True, False, True]
    assert write_games(games) == text
    assert write_games(parse_games(write_games(games))) == text


def test_the_writer_is_total():
    assert write_game(records.GameRecord()) == "\n"
    bare = records.GameRecord(rounds=(records.Round(records.RoundHeader(1, "Zed", 3), tricks=(records.Trick(1, cards("15C")),)),))
    assert write_game(bare) == "R1 dealer Zed pass 3\n1. 15C\n"
    assert parse_game(write_game(bare)) == bare
