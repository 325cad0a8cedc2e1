"""What the sample generators (make_*samples.py) share: the club tags, the scorer's comments, the
first seed that shows what a sample wants, and the read-back check before a file is written."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import count
from pathlib import Path
from typing import Any

from diamonds.core import Engine, simulate
from diamonds.notation import parse_games
from diamonds.notation.records import Comment, GameRecord, Play
from diamonds.notation.tags import parse_result
from diamonds.notation.writer import write_games
from diamonds.replay import record_from_game, replay_record

SAMPLES = Path(__file__).resolve().parent


def club(event: str, site: str, date: str, round_: str, *extra: tuple[str, str]) -> tuple[tuple[str, str], ...]:
    return (("Event", event), ("Site", site), ("Date", date), ("Round", round_), *extra)


def braced(text: str) -> Comment:
    return Comment(text, braced=True)


def line_comment(text: str) -> Comment:
    return Comment(" " + text, braced=False)


@dataclass(frozen=True)
class Sample:
    """A sample game of Kirk's or the bidding game: a seeded game, the first from `first_seed` that shows
    all it `wants`, played at random or, with `bots`, by the project's bots (one spec per seat)."""

    players: tuple[str, ...]
    tags: tuple[tuple[str, str], ...]
    first_seed: int
    options: tuple[tuple[str, str], ...] = ()  # the tags the rules read (Kirk's Hands or Target, K8)
    wants: tuple[str, ...] = ()
    deals: bool = True
    opening: tuple[str, ...] = field(default=())  # comments before the first hand
    bots: tuple[str, ...] = ()  # `greedy`, `mc:8`, ... per seat (docs/bots.md); () plays at random


def find_game(sample: Sample, rules: str, shows: Callable[[Engine], set[str]]) -> tuple[int, Engine]:
    """The first seed from the sample's `first_seed` whose game of these rules shows everything it wants."""
    def play(seed: int) -> Engine:
        if sample.bots:
            return bots_game(sample.players, rules, seed, sample.bots, dict(sample.options))
        return simulate(sample.players, rules=rules, seed=seed, options=dict(sample.options) or None)

    return first_game(sample.first_seed, sample.wants, play, shows)


def bots_game(players: Sequence[str], rules: str, seed: int, bots: Sequence[str], options: dict[str, str]) -> Engine:
    """A whole game played by `bots` (one per seat). Everything random comes from `random.Random(seed)`:
    the dealer, then each bot's own seed, then the deals; so a seed gives the same game every time."""
    import diamonds
    from diamonds.bots import make_bot

    rng = random.Random(seed)
    dealer = rng.randrange(len(players))
    players_bots = [make_bot(spec, seed=rng.randrange(2**63)) for spec in bots]
    position = diamonds.Position(rules, players, dealer=dealer, options=options or None)
    while not position.is_over:
        if position.is_chance:
            position.deal(rng)
            continue
        seat = position.to_move_seat
        assert seat is not None  # neither a chance move nor the end
        position.push(players_bots[seat].choose(position.view(seat)))
    return position.engine


def first_game(first_seed: int, wants: Sequence[str], play: Callable[[int], Engine],
               shows: Callable[[Engine], set[str]]) -> tuple[int, Engine]:
    """The first seed from `first_seed` whose game (`play(seed)`) shows everything `wants` names."""
    for seed in count(first_seed):
        game = play(seed)
        if set(wants) <= shows(game):
            return seed, game
    raise AssertionError("unreachable")


def with_notes(record: GameRecord, plays: list[list[list[Play]]],
               trick_notes: dict[tuple[int, int], list[Comment]], comments: Sequence[str]) -> GameRecord:
    """The record with each trick's plays from `plays[round][trick]`, the notes of `trick_notes`
    after each trick, and `comments` before the first round."""
    rounds = []
    for h, rnd in enumerate(record.rounds):
        tricks = tuple(
            replace(trick, plays=tuple(plays[h][t]), comments=trick.comments + tuple(trick_notes.get((h, t), ())))
            for t, trick in enumerate(rnd.tricks)
        )
        rounds.append(replace(rnd, tricks=tricks))
    return replace(record, rounds=tuple(rounds), comments=record.comments + tuple(braced(t) for t in comments))


def check(name: str, records: list[GameRecord], text: str, *, scores: bool = True) -> None:
    """`text` reads back as `records`, each replays valid and complete, and its Result is written:
    with `scores`, as the scores the replay reaches."""
    back = parse_games(text)
    assert back == records, f"{name}: the written games do not read back as the same records"
    for record in back:
        replayed = replay_record(record)
        assert replayed.valid, (name, replayed.problems)
        assert replayed.complete, (name, replayed.notes)
        if not scores:
            assert record.tag_value("Result", "*") != "*", name
            continue
        entries = parse_result(record.tag_value("Result", "*"))
        assert entries is not None, name
        config = replayed.config
        written = {config.seat_of(entry.side[0]): entry.score for entry in entries}
        assert written == {s.side: s.score for s in replayed.game.standings()}, name


def write(name: str, records: list[GameRecord], *, scores: bool = True, seeds: Sequence[int] = ()) -> None:
    """Check the records (`check`) and write them to samples/`name`, saying so."""
    text = write_games(records)
    check(name, records, text, scores=scores)
    (SAMPLES / name).write_text(text, encoding="utf-8", newline="\n")
    seed = f"; seed {', '.join(str(s) for s in seeds)}" if seeds else ""
    print(f"wrote samples/{name} ({len(records)} game{'s' if len(records) > 1 else ''}{seed})")


def make(sample: Any, find_game: Callable[[Any], tuple[int, Engine]],
         margin: Callable[[GameRecord, Engine, tuple[str, ...]], GameRecord]) -> tuple[int, GameRecord]:
    """The seed and record of a sample: the game `find_game` finds, as a record (with the sample's
    `tags`, its `deals` or not) with what `margin` writes (after the sample's `opening`)."""
    seed, game = find_game(sample)
    assert game.is_over
    record = record_from_game(game, tags=sample.tags, deals=sample.deals)
    return seed, margin(record, game, sample.opening)


def make_files(files: Mapping[str, Sequence[Any]], make: Callable[[Any], tuple[int, GameRecord]]) -> None:
    """Make (`make(sample)`: seed and record), check and write each file of `files`."""
    for name, samples in files.items():
        made = [make(sample) for sample in samples]
        write(name, [record for _, record in made], seeds=[seed for seed, _ in made])
