"""Regenerate the sample games in samples/ (the invalid ones in samples/invalid/ are hand-made).

    python samples/make_samples.py          # from the repository root

Every game is simulated with a fixed seed (`diamonds_core.simulate`), turned
into a record (`replay.record_from_game`), given what a scorer writes in the
margin (annotations and comments, added to the record so that the output stays
canonical) and written with `notation.writer`. Before a file is written, each
game is read back and replayed: it must parse to the same record, replay valid
and complete, and its Result must hold the scores.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "samples") not in sys.path:  # the shared helper, also when loaded by path
    sys.path.insert(0, str(ROOT / "samples"))

from sampling import braced, club, line_comment, write  # noqa: E402

from diamonds.core import Engine, Suit, simulate  # noqa: E402
from diamonds.families.fitzgerald.rules import (  # noqa: E402
    Deal,
    PlayCard,
    Reason,
    RoundStarted,
    SuitAction,
    TrickWon,
    first_leader,
    results,
)
from diamonds.notation.records import Comment, GameRecord  # noqa: E402
from diamonds.replay import record_from_game  # noqa: E402

ANNOTATIONS = ("!", "?", "!!", "??", "!?", "?!")


@dataclass(frozen=True)
class Sample:
    players: tuple[str, ...]
    rules: str
    seed: int
    tags: tuple[tuple[str, str], ...]
    variants: tuple[str, ...] = ()
    dealer: str | None = None
    deals: bool = True
    margin: str = "none"  # "none", "light" (scores after each round) or "full" (annotations too)
    opening: tuple[str, ...] = field(default=())  # comments before the first round


FILES: dict[str, list[Sample]] = {
    "club-night-2026-11-20.dgn": [
        Sample(("mvdberg", "Anneke", "jpk"), "2e", 1120,
               club("Thursday Club Night", "The Meeple Room, Leeds ENG", "2026.11.20", "1", ("Table", "2")),
               dealer="Anneke", margin="light", opening=("Table 2, by the window. Scorer: jpk",)),
        Sample(("Sofie_R", "TomH", "Priya-S", "dbo"), "2e", 2011,
               club("Thursday Club Night", "The Meeple Room, Leeds ENG", "2026.11.20", "2", ("Table", "1"))),
        Sample(("GretaW", "Olu", "kasia_m", "Ruben", "mvdberg"), "2e", 20261120,
               club("Thursday Club Night", "The Meeple Room, Leeds ENG", "2026.11.20", "3", ("Table", "1")),
               dealer="Olu", margin="full"),
    ],
    "1e-3p-league.dgn": [
        Sample(("hwalsh", "Ines_B", "Kofi"), "1e", 4108,
               club("First Edition League 2026", "Sheffield ENG", "2026.10.08", "4"),
               margin="full", opening=("Stronghold first edition: Clubs robs a Showroom of the player's choice",)),
    ],
    "1e-4p-partnership.dgn": [
        Sample(("Marit", "lbeaumont", "Joost", "Camille-D"), "1e", 913,
               club("Ghent Pairs Cup", "Ghent BEL", "2026.09.13", "2",
                    ("Annotator", "Joost")),
               variants=("partnership",), dealer="lbeaumont", margin="light"),
    ],
    "2e-6p-partnership.dgn": [
        Sample(("Anneke", "TomH", "Priya-S", "Ruben", "GretaW", "jpk"), "2e", 6262,
               club("Autumn Open \"Six at a Table\"", "Leeds ENG", "2026.10.31", "3"),
               variants=("partnership",), margin="light"),
    ],
    "bga-2p-online.dgn": [
        Sample(("Kofi", "Sofie_R"), "bga", 2202,
               club("Board Game Arena friendly", "boardgamearena.com", "2026.11.02", "-",
                    ("TimeControl", "turn-based")),
               margin="full"),
    ],
    "bga-5p-online.dgn": [
        Sample(("dbo", "Marit", "hwalsh", "Camille-D", "Olu"), "bga", 5150,
               club("BGA Arena Season 12", "boardgamearena.com", "2026.08.27", "-")),
    ],
    "2e-5p-perfect.dgn": [
        Sample(("Joost", "Ines_B", "kasia_m", "lbeaumont", "Ruben"), "2e", 1205,
               club("Perfect Diamonds evening", "Antwerp BEL", "2026.??.??", "1"),
               variants=("perfect",), margin="full",
               opening=("Copied from the score sheet; the month was not written down",)),
    ],
    "1e-2p-perfect-no-deals.dgn": [
        Sample(("hwalsh", "Priya-S"), "1e", 1602,
               club("Kitchen table", "Bristol ENG", "2026.07.19", "-"),
               variants=("perfect",), deals=False, margin="light",
               opening=("Hands not written down: the deal follows from the passes and the plays",)),
    ],
    "bga-4p-partnership-perfect.dgn": [
        Sample(("Camille-D", "Kofi", "Marit", "TomH"), "bga", 4413,
               club("BGA team league", "boardgamearena.com", "2026.11.14", "5"),
               variants=("partnership", "perfect"), margin="full"),
    ],
}


# --------------------------------------------------------------------------- the margin


def margin(record: GameRecord, game: Engine, level: str, opening: tuple[str, ...]) -> GameRecord:
    """What a scorer adds: standings after each round; with "full", marks on notable plays."""
    config = game.config
    names = config.players
    rounds = [[list(trick.plays) for trick in rnd.tricks] for rnd in record.rounds]
    trick_notes: dict[tuple[int, int], list[Comment]] = {}
    header_notes: dict[int, list[Comment]] = {}
    ends: dict[int, Comment] = {}
    marks_in_round: dict[int, int] = {}

    def mark(r: int, t: int, p: int, annotation: str, note: str | None = None) -> None:
        if level != "full" or marks_in_round.get(r, 0) >= 2:
            return
        play = rounds[r][t][p]
        if play.annotation:
            return
        marks_in_round[r] = marks_in_round.get(r, 0) + 1
        comments = play.comments + ((braced(note),) if note else ())
        rounds[r][t][p] = replace(play, annotation=annotation, comments=comments)

    def standings(state) -> str:  # type: ignore[no-untyped-def]
        parts = [f"{config.side_name(r.side)} {r.showroom}/{r.vault}" for r in results(state)]
        return ", ".join(parts)

    r = -1
    where: list[tuple[int, int]] = []  # (round, trick) of each play, in order
    for ri, rnd in enumerate(record.rounds):
        for ti, trick in enumerate(rnd.tricks):
            where.extend((ri, ti) for _ in trick.plays)
    play_index = -1
    current = (0, 0, 0)
    for ply, (move, events) in enumerate(zip(game.moves, game.events)):
        if isinstance(move, Deal) and ply:
            ends[r] = line_comment(f"after R{r + 1} (Showroom/Vault): {standings(game.state_at(ply))}")
        if isinstance(move, PlayCard):
            play_index += 1
            ri, ti = where[play_index]
            current = (ri, ti, next(i for i, p in enumerate(rounds[ri][ti]) if p.card == move.card))
        for event in events:
            if isinstance(event, RoundStarted):
                r = event.round_no - 1
                if level == "full" and event.thief is not None:
                    header_notes.setdefault(r, []).append(braced(f"Thief with {names[event.thief]}"))
                if level == "full" and r == 0:
                    leader = first_leader(config, event.dealer)
                    trick_notes.setdefault((0, 0), []).append(braced(f"{names[leader]} leads"))
            elif isinstance(event, SuitAction) and event.reason is Reason.OFF_SUIT:
                ri, ti, pi = current
                actor = names[event.actor] if event.actor is not None else "?"
                if event.suit is Suit.CLUBS and event.points:
                    victim = config.side_name(event.victim) if event.victim is not None else "?"
                    mark(ri, ti, pi, "!", f"{actor} takes a crystal from {victim}" if pi % 2 else None)
                elif event.suit is Suit.CLUBS:
                    mark(ri, ti, pi, "??", "the Clubs action takes nothing")
                elif event.suit is Suit.SPADES and not event.points:
                    mark(ri, ti, pi, "?", "empty Showroom: nothing to bank")
                elif rounds[ri][ti][pi].card.rank == 15:
                    mark(ri, ti, pi, "?!")
            elif isinstance(event, TrickWon):
                ri, ti, _ = current
                plays = rounds[ri][ti]
                won = next(i for i, p in enumerate(plays) if p.card == event.card)
                if event.card.rank <= 4 and len(plays) >= 3:
                    mark(ri, ti, won, "!!", f"wins with the {event.card}")
                elif plays[0].card.rank == 1 and won != 0:
                    mark(ri, ti, 0, "!?")
    ends[r] = line_comment(f"final (Showroom/Vault): {standings(game.state)}")

    new_rounds = []
    for ri, rnd in enumerate(record.rounds):
        tricks = []
        for ti, trick in enumerate(rnd.tricks):
            notes = tuple(trick_notes.get((ri, ti), ()))
            tricks.append(replace(trick, plays=tuple(rounds[ri][ti]), comments=trick.comments + notes))
        header = replace(rnd.header, comments=rnd.header.comments + tuple(header_notes.get(ri, ())))
        rnd = replace(rnd, header=header, tricks=tuple(tricks))
        if level in ("light", "full"):
            if rnd.end is not None:
                rnd = replace(rnd, end=replace(rnd.end, comments=rnd.end.comments + (ends[ri],)))
            else:
                last = rnd.tricks[-1]
                play = last.plays[-1]
                last = replace(last, plays=last.plays[:-1] + (replace(play, comments=play.comments + (ends[ri],)),))
                rnd = replace(rnd, tricks=rnd.tricks[:-1] + (last,))
        new_rounds.append(rnd)
    return replace(record, rounds=tuple(new_rounds), comments=record.comments + tuple(braced(t) for t in opening))


# --------------------------------------------------------------------------- files


def make(sample: Sample) -> GameRecord:
    game = simulate(sample.players, rules=sample.rules, variants=sample.variants, seed=sample.seed,
                    dealer=sample.dealer)
    assert game.state.is_over
    record = record_from_game(game, tags=sample.tags, deals=sample.deals)
    return margin(record, game, sample.margin, sample.opening)


def main() -> None:
    used: set[str] = set()
    for name, samples in FILES.items():
        records = [make(sample) for sample in samples]
        for record in records:
            used.update(play.annotation for rnd in record.rounds for trick in rnd.tricks
                        for play in trick.plays if play.annotation)
        write(name, records, scores=False)
    missing = [a for a in ANNOTATIONS if a not in used]
    assert not missing, f"no sample shows the annotations {missing}: change a seed"


if __name__ == "__main__":
    main()
