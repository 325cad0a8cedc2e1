"""From a Fitzgerald game on the engine to a DGN record: how simulated games are written down."""

from __future__ import annotations

from collections.abc import Iterable

from diamonds.core import Engine, sort_cards
from diamonds.notation.records import Choice, EndLine, GameRecord, HandLine, Play, Plays, Round, RoundHeader, Trick
from diamonds.replay.record import game_tags

from .rules import (
    CardsDealt,
    ChoosePassCount,
    ChooseVictim,
    Deal,
    PassCards,
    PlayCard,
    Reason,
    TrickWon,
)
from .words import WORDS

__all__ = ["record_from_game"]


def record_from_game(game: Engine, *, tags: Iterable[tuple[str, str]] = (), deals: bool = True) -> GameRecord:
    """The record of every move of `game` (deal lines optional)."""
    config = game.config
    names = config.players
    rounds: list[Round] = []
    header: RoundHeader | None = None
    hand_lines: list[HandLine] = []
    tricks: list[list[Play]] = []
    end_choice: Choice | None = None

    def close_round() -> None:
        if header is None:
            return
        trick_items = tuple(Trick(i, Plays(plays)) for i, plays in enumerate(tricks, 1))
        end = EndLine((end_choice,), kind=END_WORD) if end_choice is not None else None
        rounds.append(Round(header, tuple(hand_lines), trick_items, end))

    for ply, move in enumerate(game.moves):
        state = game.state_at(ply)
        events = game.events[ply]
        if isinstance(move, Deal):
            # The round opens at its deal: a game stopped before the dealer's pass count (R6) is written as its
            # header without a count and its deal lines, not left out.
            close_round()
            header = RoundHeader(state.round_no, names[state.dealer], None, count_word=WORDS.header_count or "")
            hand_lines, tricks, end_choice = [], [], None
            dealt = next(e.hands for e in events if isinstance(e, CardsDealt))
            if deals:
                hand_lines.extend(HandLine("deal", names[seat], Plays([Play(c) for c in hand]))
                                  for seat, hand in enumerate(dealt))
        elif isinstance(move, ChoosePassCount):
            header = RoundHeader(state.round_no, names[state.dealer], move.count, count_word=WORDS.header_count or "")
        elif isinstance(move, PassCards):
            hand_lines.append(HandLine("pass", names[move.seat], Plays([Play(c) for c in sort_cards(move.cards)])))
        elif isinstance(move, PlayCard):
            if not state.trick:
                tricks.append([])
            tricks[-1].append(Play(move.card))
        elif isinstance(move, ChooseVictim):
            pending = state.pending
            assert pending is not None
            if move.victim is None:
                continue
            choice = Choice(names[move.victim])
            if pending.reason is Reason.OFF_SUIT:
                tricks[-1][-1] = _with_choice(tricks[-1][-1], choice)
            elif pending.reason is Reason.TRICK_WON:
                won = _last_trick_won(game, ply)
                plays = tricks[-1]
                index = next(i for i, p in enumerate(plays) if p.card == won.card)
                plays[index] = _with_choice(plays[index], choice)
            else:
                end_choice = choice
    close_round()
    return GameRecord(game_tags(game, tags), tuple(rounds))


def _with_choice(play: Play, choice: Choice) -> Play:
    return Play(play.card, choice, play.annotation, play.comments)


def _last_trick_won(game: Engine, ply: int) -> TrickWon:
    for events in reversed(game.events[: ply + 1]):
        for event in reversed(events):
            if isinstance(event, TrickWon):
                return event
    raise AssertionError("a trick-won choice follows a won trick")

END_WORD = next(item.word for item in WORDS.items if item.shape.value == "end")  # end >Bob (R16)
