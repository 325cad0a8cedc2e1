"""An analysed game for the page's tests, made quickly: real decisions of the league sample, given verdicts
by hand and written as `diamonds analyse` writes them (`annotate`, `with_summary`), so the page's reading
of an annotated record is tested without the minutes a real analysis takes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import diamonds
from diamonds.bots.analyse import Judgement, accuracy, annotate
from diamonds.bots.notes import with_summary
from diamonds.notation.writer import write_game

ROOT = Path(__file__).resolve().parents[2]
LEAGUE = ROOT / "samples" / "1e-3p-league.dgn"


def decisions(game: Any) -> list[tuple[int, int, int | None, str, str, str, str]]:
    """Every decision of a game as `judge` walks it: (ply, round index, card index in the round or None,
    kind, player, the move's text, the position's label)."""
    found = []
    position = game.start()
    round_index, play_index = -1, 0
    for ply, move in enumerate(game.moves):
        if position.is_chance:
            round_index, play_index = round_index + 1, 0
            position.push(move)
            continue
        text = position.view(position.to_move_seat).text(move)
        word, _, rest = text.partition(" ")
        kind = "card" if not rest and not word.startswith(">") else "victim" if not rest else word
        found.append((ply, round_index, play_index if kind == "card" else None, kind,
                      position.view(position.to_move_seat).viewer, text, position.label))
        if kind == "card":
            play_index += 1
        position.push(move)
    return found


def verdict(decision: tuple[int, int, int | None, str, str, str, str], glyph: str | None, loss: float,
            method: str = "est", best: str = "5S") -> Judgement:
    ply, round_index, play_index, kind, player, played, at = decision
    low, high = (loss - 0.5, loss + 0.5) if method == "est" else (loss, loss)
    return Judgement(ply, round_index, play_index, kind, player, played, best, -loss, 0.0, low, high,
                     24 if method == "est" else 1, 10, 10, method, glyph, at)


def after_its_trick(game: Any, decision: tuple[int, int, int | None, str, str, str, str]) -> bool:
    """A victim named for winning a trick led in Clubs (R10, R14), due after the trick's last card, whose `>Name`
    the record writes on an earlier card (the winner's)."""
    _, round_index, _, kind, _, played, at = decision
    if kind != "victim" or at.endswith(".end"):
        return False
    _, trick_no, card_no = at.split(".")
    [trick] = [t for t in game.record.rounds[round_index].tricks if t.number == int(trick_no)]
    names = [play.choice.player if play.choice is not None else None for play in trick.plays]
    return (str(trick.plays[0].card).endswith("C") and int(card_no) == len(trick.plays)
            and played[1:] in names[:-1])


def analysed(folder: Path, best: str = "5S") -> tuple[Path, list[Judgement], Any]:
    """The league game with a verdict on every decision, marks on a pass count, a pass, cards, a victim at a
    round's end, a won Clubs lead's victim, a double-dummy card and a double-dummy victim at another round's end
    (`best` is every verdict's best move): the annotated file, the verdicts, the game."""
    (game,) = list(diamonds.read_games(str(LEAGUE)))
    every = decisions(game)
    judgements = []
    marked = {0: ("?!", 1.5), 1: ("?", 4.5)}  # R1's pass count, then hwalsh's pass
    cards = [i for i, d in enumerate(every) if d[3] == "card"]
    # (the round's end victim, `end >hwalsh`: its note is on the end line, though the card just before is marked)
    victim = [i for i, d in enumerate(every) if d[3] == "victim" and i > 30 and every[i - 1][3] == "card"][0]
    marked.update({cards[4]: ("?!", 2.0), cards[20]: ("??", 7.5), cards[40]: ("?", 3.0), victim: ("?!", 1.5),
                   victim - 1: ("?!", 1.0)})
    # (a won Clubs lead's victim: written on the winner's card, due once the trick is complete, R10)
    marked[[i for i, d in enumerate(every) if after_its_trick(game, d)][0]] = ("?", 2.5)
    # (a victim at a later round's end judged double dummy: its comment is on the end line, which names no one)
    end_victims = [i for i, d in enumerate(every) if d[3] == "victim" and d[6].endswith(".end")]
    double_dummy = {cards[60], end_victims[-1]}
    assert victim not in double_dummy
    for index, decision in enumerate(every):
        if index in double_dummy:
            judgements.append(verdict(decision, "?", 4.0, "double dummy", best))
        elif index in marked:
            judgements.append(verdict(decision, marked[index][0], marked[index][1], best=best))
        else:
            judgements.append(verdict(decision, None, 0.2 * (index % 3), best=best))
    record = with_summary(annotate(game.record, judgements), accuracy(judgements, game.players, game.rules))
    path = folder / "analysed.dgn"
    path.write_text(write_game(record), encoding="utf-8")
    return path, judgements, game
