"""What a table looks like to the pages: the public state (watchers) and the scorer's state.

Public means what every player at the table may know: the picture is drawn by the family's own
picture with a sight that sees no private thing (no hand, no Fitzgerald Vault) until the game is
over, and a score is shown only if no seat's view hides it (`View.sight.hidden_scores`). The
scorer, who typed every item, sees the table as the replay draws it (`Position.svg()`), the
scores, and the grid of the game's cards. Computed once per version (the table's cache).
"""

from __future__ import annotations

from math import comb
from typing import Any

from diamonds.core import AnyCard, rules_for
from diamonds.core.viewer import NOBODY
from diamonds.notation.records import split_play
from diamonds.svg.draw import Canvas, Sight
from diamonds.svg.phone import PhoneTable, phone_svg, sides_of

__all__ = ["table_state", "public_svg", "answers", "buttons", "probe", "due", "choice_groups"]


def public_svg(step: Any, size: int = 360) -> str:
    """The family's picture of `step` as a watcher may see it (as `Picture.svg`, for `NOBODY`)."""
    from diamonds.svg import picture_of

    table = step.table
    picture = picture_of(table.config.rules)
    sight = Sight(NOBODY, False, picture.over(table))
    title = picture.title(step, table)
    players = table.config.players
    description = f"A table of Diamonds ({table.config.rules}) with {', '.join(players)}: {title}, as a watcher sees it."
    canvas = Canvas(f"Diamonds {table.config.rules}: {title}, as a watcher sees it", description, size=size)
    picture.draw(canvas, step, table, sight)
    return canvas.tostring()


def _card_of(word: str) -> str | None:
    found = _card_object(word)
    return None if found is None else str(found)


def _card_object(word: str) -> AnyCard | None:
    """The card a recorded word names (its comments and marks left out), or None."""
    for part in word.split():
        if part.startswith(("{", ";")):
            continue
        try:
            return split_play(part)[0]
        except ValueError:
            return None
    return None


def _phone(config: Any, draft: Any, position: Any, state: dict[str, Any]) -> str:
    """The phone's picture of the state (`diamonds.svg.phone`): the trick, each card under its player, and the
    sides with the scores this viewer may see."""
    per_trick = config.plays_per_trick
    words = list(draft.cards[-(len(draft.cards) % per_trick):]) if draft is not None and len(draft.cards) % per_trick else []
    cards = [found for found in map(_card_object, words) if found is not None]
    players = _players_of(position, cards)
    if state["finished"]:
        winners = [name for side in state["standings"] if side["winner"] for name in side["players"]]
        caption = "Game over" + (f": {' & '.join(winners)} {'wins' if len(winners) == 1 else 'win'}" if winners else "")
    else:
        caption = "No cards on the table"
    return phone_svg(PhoneTable(
        trick=tuple(zip(players, cards)), per_trick=per_trick, sides=sides_of(state["standings"]),
        to_move=state["to_move"], caption=caption, title=f"Diamonds {config.rules}: {state['where']}"))


def _players_of(position: Any, cards: list[AnyCard]) -> list[str | None]:
    """Who played each card of the trick: the players of the position's last moves, where those are the same
    cards in the same order (the position of the record, or of its stand-in deal); else not said."""
    moves = position.moves[len(position.moves) - len(cards):] if cards else ()
    if len(moves) != len(cards):
        return [None] * len(cards)
    engine, rules, first = position.engine, position.rule_set, len(position.moves) - len(cards)
    players: list[str | None] = []
    for ply, (move, expected) in enumerate(zip(moves, cards), first):
        state = engine.state_at(ply)
        seat = rules.to_move(state)
        if seat is None or _card_object(rules.move_text(state, move)) != expected:
            return [None] * len(cards)
        players.append(position.players[seat])
    return players


def _standings(standings: Any, hidden: set[int], over: bool) -> list[dict[str, Any]]:
    """Each side's players and score (None where hidden); `winner` only once the game is over."""
    return [{"players": list(s.players), "score": None if s.side in hidden else s.score,
             "winner": bool(s.winner) if over else None} for s in standings]


def table_state(table: Any, private: bool) -> dict[str, Any]:
    """The state now (the caller holds the table's lock): `snapshot` then `render`."""
    return render(snapshot(table, private))


def snapshot(table: Any, private: bool, probes: bool = True) -> dict[str, Any]:
    """What the state needs from the recorder, taken under the table's lock (cheap: no replay; the scorer's
    buttons are tried on the recorder here, a few milliseconds, once per version). `probes=False`: the
    scorer's state without its buttons (the organiser's standings need only the scores)."""
    recorder = table.recorder
    kind = "public" if not private else "private" if probes else "scores"
    cached = table.cache.get((kind, table.version))
    if cached is not None:
        return {"cached": cached}
    over = recorder.finished
    config = recorder.config
    rounds = recorder.rounds
    draft = rounds[-1] if rounds and not over else None
    hands_known = recorder.hands_known()
    question = recorder.question
    return {
        "key": (kind, table.version), "private": private, "over": over,
        "text": recorder.text, "record": recorder.record, "config": config, "draft": draft,
        "hands_known": hands_known, "question": question, "tags": dict(recorder.tags),
        "legal": set(recorder.legal()) if private and hands_known and not over else set(),
        "turn": recorder.turn() if not over else ((), None),
        "where": recorder.where(), "items": _labels(recorder) if private else [],
        "lines": _lines(recorder) if private else [],
        "id": table.id, "seq": table.seq, "version": table.version, "cache": table.cache,
        "answers": answers(recorder) if private and probes else None,
        "buttons": buttons(recorder) if private and probes else [],
    }


def render(snap: dict[str, Any]) -> dict[str, Any]:
    """The state from a snapshot (the replay and the picture: outside the table's lock), cached per version."""
    if "cached" in snap:
        return dict(snap["cached"])
    import diamonds
    from diamonds.replay import replay_record
    from diamonds.replay.steps import steps_of

    over, private, config, draft = snap["over"], snap["private"], snap["config"], snap["draft"]
    # A round written without deal lines is played on a stand-in deal (`drawn_round`), so the table is live at
    # every item: the trick, the tricks won, the scores and who is due are the record's; its hands are not
    # known, so no picture shows them (drawn as backs, as a watcher sees them).
    # One replay per version, shared by the scorer's state and the watchers' (each is rendered once per version).
    cache = snap["cache"]
    shared = cache.get(("replay", snap["version"]))
    if shared is None:
        replayed = replay_record(snap["record"], stand_in=True)
        shared = cache[("replay", snap["version"])] = (replayed, steps_of(replayed)[-1])
    replayed, last_step = shared
    drawn = replayed.drawn_round is not None and not over
    position = diamonds.Game(snap["record"], replayed=replayed).end()
    hidden: set[int] = set()
    if not over:
        for name in position.players:
            hidden |= set(position.view(name).sight.hidden_scores)
    per_trick = config.plays_per_trick
    trick: list[str] = []
    if draft is not None and draft.cards and len(draft.cards) % per_trick:
        trick = [c for c in (_card_of(w) for w in draft.cards[-(len(draft.cards) % per_trick):]) if c]
    state: dict[str, Any] = {
        "id": snap["id"],
        "seq": snap["seq"],
        "version": snap["version"],
        "rules": config.rules,
        "players": list(config.players),
        "event": snap["tags"].get("Event"),
        "where": snap["where"],
        "finished": over,
        "result": _result(snap["record"]) if over else None,
        "to_move": position.to_move if snap["hands_known"] or drawn else None,
        "trick": trick,
        "standings": _standings(position.standings, set() if private else hidden, over),
        "due": due(position, snap["turn"], over, private, drawn),
    }
    if private:
        played = {c for c in (_card_of(w) for w in (draft.cards if draft is not None else ())) if c}
        legal = snap["legal"]
        question = snap["question"]
        state.update({
            "cards": [{"card": str(card), "played": str(card) in played, "legal": str(card) in legal}
                      for card in config.deck],
            "hands_known": snap["hands_known"],
            "question": None if question is None else {
                "item": question.item, "message": question.message, "code": question.code,
                "rule": question.rule, "end": question.end,
                "choices": snap["answers"] if snap["answers"] is not None else list(question.choices)},
            "items": snap["items"],
            "lines": snap["lines"],
            "buttons": snap["buttons"],
        })
    if snap["key"][0] != "scores":  # the organiser's standings read the scores of this state, never its pictures
        state["svg"] = position.svg(size=360) if private and not drawn else public_svg(last_step)
        state["phone_svg"] = _phone(config, draft, position, state)
    if len(cache) > 8:
        cache.clear()
    cache[snap["key"]] = state
    return dict(state)


def due(position: Any, turn: tuple[Any, str | None], over: bool, private: bool, drawn: bool = False) -> dict[str, Any]:
    """Who is due and, for the scorer, what they may do. Where the `Position` knows the hands (deal lines,
    or a round the replay has inferred) it says: the player to move and every legal item as its DGN words,
    grouped (`choice_groups`). On a stand-in deal (`drawn`: a round without deal lines) it still says who,
    but `items` is None: any card not yet seen may come (the recorder's question asks what else is due).
    Before a round's deal the recorder's turn from seat order and the cards says who."""
    if over:
        return {"players": [], "known": True, "items": [], "groups": []}
    if drawn and position.to_move is not None:
        return {"players": [position.to_move], "known": False, "items": None, "groups": []}
    if position.is_chance or position.to_move is None:
        who = turn[1]
        return {"players": [who] if who else [], "known": False, "items": None, "groups": []}
    texts = [position.text(move) for move in position.legal_moves] if private else []
    return {"players": [position.to_move], "known": True, "items": texts if private else None,
            "groups": choice_groups(texts)}


def choice_groups(texts: list[str]) -> list[dict[str, Any]]:
    """Legal items as the page's groups: items that differ only in their last N words, every N of a set
    (R6's `pass Ann 9D 12H`: every two of Ann's cards), as one group to `choose` N from and `join` into the
    item; else one group of the items themselves."""
    if not texts:
        return []
    split = [text.split() for text in texts]
    size = len(split[0])
    if len(split) > 1 and all(len(words) == size for words in split):
        prefix = 0
        while prefix < size and len({words[prefix] for words in split}) == 1:
            prefix += 1
        choose = size - prefix
        words = list(dict.fromkeys(word for each in split for word in each[prefix:]))
        if 1 < choose and len(split) == comb(len(words), choose):
            return [{"kind": split[0][0], "choose": choose, "join": " ".join([*split[0][:prefix], *["{}"] * choose]),
                     "choices": [{"text": word, "label": word} for word in words]}]
    return [{"kind": "item", "choose": 1, "join": "{}", "choices": [{"text": text, "label": text} for text in texts]}]


def probe(recorder: Any, line: str) -> Any:
    """What `recorder.enter(line)` would answer, with nothing recorded (the recorder is put back as it was);
    None if the line makes it fail. The caller holds the table's lock."""
    return recorder.probe(line)


def _takes(outcome: Any, question: Any = None) -> bool:
    """Whether `outcome` records the line: no refusal, and no question about the same card again (`Jo+` still
    needs its suit); a question about another item (the round's `end` line after a victim) is a new step."""
    if outcome is None or outcome.refusal is not None:
        return False
    asked = outcome.question
    return asked is None or question is None or not (asked.item.startswith(question.item) and asked.code == question.code)


def answers(recorder: Any) -> list[str] | None:
    """The answers the recorder takes to the question it waits on, each tried (`probe`), of those its family
    offers (`Rules.question_words`: the victims, `>Ann`; the bidding game's Joker, a sign, a suit and sign, B7).
    None when no question waits; the recorder's own choices if none is taken."""
    question = recorder.question
    if question is None:
        return None
    taken = [word for word in question.choices if _takes(probe(recorder, word), question)]
    return taken or list(question.choices)


def buttons(recorder: Any) -> list[dict[str, Any]]:
    """Buttons for what the card grid cannot say, each tried on the recorder (`probe`), so only what it would
    take now is offered: at a round's start its dealer's count where the family's header has one (`pass 1`
    to `pass 3`, R6); the family's calls (`bid Ann 3`, `final Ann 4`: its words of the call shape, for
    the player whose turn it is, every amount from 0 to the round's tricks that is legal), and for the card
    just recorded its other sign (an ace written bare is high; `fix R1.2.1 AH-` makes it low, B7)."""
    if recorder.question is not None or recorder.finished:
        return []
    return [*_due_groups(recorder), *_sign_group(recorder)]


def _due_groups(recorder: Any) -> list[dict[str, Any]]:
    """The groups of what is due next (a count, hand lines, an exchange, a call), as `buttons` says."""
    groups: list[dict[str, Any]] = []
    number, draft = recorder.current_round()
    config = recorder.config
    if draft is None or not draft.cards:
        from diamonds.core import family_of
        from diamonds.notation.words import Shape

        words = family_of(config.rules).part("words")
        calls = [item.word for item in getattr(words, "items", ()) if item.shape is Shape.CALL]
        top = len(config.deck) // max(1, config.plays_per_trick)
        count_word = str(getattr(words, "header_count", None) or "")
        if draft is None and count_word:  # a round that starts with its dealer's count (`pass 2`, R6)
            dealer = config.players[config.dealer_of_round(number)]
            counts = _amounts(recorder, [(f"{count_word} {amount}", str(amount)) for amount in range(top + 1)],
                              gapless=True)
            if counts:
                return [{"title": f"{dealer}: {count_word} count", "kind": "count", "choices": counts}]
        if draft is not None and not recorder.hands_known():
            groups += _count_lines(recorder, words, draft)
            if groups:
                return groups  # the round's hand lines come before its calls and cards
        exchange = recorder.exchange_due()
        if exchange is not None:  # `take Ann {}`: the kitty's card, then a question for the point card (B4)
            word, player = exchange
            return [{"title": f"{player}: {word}", "kind": "exchange", "choose": 1, "join": f"{word} {player} {{}}",
                     "choices": [{"text": card, "label": card} for card in recorder.cards_not_named()]}]
        for word in calls:
            for player in config.players:
                taken = _amounts(recorder, [(f"{word} {player} {amount}", str(amount)) for amount in range(top + 1)])
                if taken:
                    groups.append({"title": f"{player}: {word}", "kind": "call", "choices": taken})
            if groups:
                return groups  # one call is due at a time
        return groups
    return groups


def _sign_group(recorder: Any) -> list[dict[str, Any]]:
    """For the card just recorded, its other writings where the game has them (`Rules.other_writings`: the
    bidding game's ace, high when bare, `fix R1.2.1 AH-` makes it low, B7): offered until the next item, even
    when that card ended its round."""
    labels = _labels(recorder)
    groups: list[dict[str, Any]] = []
    last = labels[-1] if labels else None
    if last is not None and (recorder.current_round()[1] is None or recorder.current_round()[1].cards):
        token = last["text"]  # only a card alone (a correction would drop a comment written beside it)
        if " " in token:
            return groups
        config = recorder.config
        choices = []
        for other, meaning in rules_for(config.rules).other_writings(config, token):
            line = f"fix {last['label']} {other}"
            if _takes(probe(recorder, line)):
                choices.append({"text": line, "label": f"{other}: {meaning}"})
        if choices:
            groups.append({"title": f"{last['label']} {token}", "kind": "sign", "choices": choices})
    return groups


def _count_lines(recorder: Any, words: Any, draft: Any) -> list[dict[str, Any]]:
    """The hand lines a round's header count asks of every player (R6: `R1 dealer Ann pass 2`, then each
    player's `pass Ann 9D 12H`), as groups to `choose` that many cards from and `join` into the line, for
    the players whose line the recorder would take now. Only where the hands are not known: there any
    card not yet named in the round may be a player's (the inference at the round's end checks them);
    where they are known, `due` offers the legal lines themselves."""
    from diamonds.notation.words import Shape

    count_word = getattr(words, "header_count", None)
    if not count_word or not any(item.word == count_word and item.shape is Shape.HAND for item in words.items):
        return []
    number, _ = recorder.current_round()
    rounds = recorder.record.rounds  # the header as the notation read it, not split again here
    count = rounds[number - 1].header.pass_count if len(rounds) == number else None
    if not isinstance(count, int):
        return []
    free = recorder.cards_not_named()
    if count < 1 or len(free) < count:
        return []
    groups = []
    for player in recorder.config.players:
        if _takes(probe(recorder, " ".join([count_word, player, *free[:count]]))):
            groups.append({"title": f"{player}: {count_word} {count}", "kind": count_word, "choose": count,
                           "join": " ".join([count_word, player, *["{}"] * count]),
                           "choices": [{"text": card, "label": card} for card in free]})
    return groups


def _amounts(recorder: Any, lines: list[tuple[str, str]], *, gapless: bool = False) -> list[dict[str, str]]:
    """The lines (`bid Ann 3`, `pass 2`: a word, then an amount last) the recorder would take now, as
    buttons. The amounts are tried in order until one is refused at anything but its amount (the player
    or the word: not their turn, not due), after which no amount will do; `gapless` (a range, such as
    R6's 1 to 3) also stops at the first refusal after an amount taken. A final bid may skip an amount
    (B5), so calls are not gapless."""
    taken: list[dict[str, str]] = []
    for line, label in lines:
        outcome = probe(recorder, line)
        if _takes(outcome):
            taken.append({"text": line, "label": label})
            continue
        if gapless and taken:
            break
        refusal = outcome.refusal if outcome is not None else None
        if refusal is None or refusal.column != refusal.source_line.rstrip().rfind(" ") + 2:
            break
    return taken


def _result(record: Any) -> str | None:
    """The Result tag of the game as recorded (the recorder fills it in when the game ends; its own set-up
    tags keep the `*` it started with)."""
    return next((tag.value for tag in record.tags if tag.name == "Result"), None)


def _lines(recorder: Any) -> list[dict[str, str]]:
    """The lines of the round being recorded (its header, hand and call lines, its `end`), each with the
    `fix` that would replace it (`fix R1 bid Bob 4`: the round's line of that kind and player), for the
    correction form to start from."""
    rounds = recorder.rounds
    if not rounds:
        return []
    number, draft = len(rounds), rounds[-1]
    texts = [*draft.lines, *([draft.end] if draft.end is not None else [])]
    found = [{"label": f"R{number}", "text": draft.header, "fix": f"fix R{number} {draft.header}"}]
    return found + [{"label": f"R{number}", "text": text, "fix": f"fix R{number} {text}"} for text in texts]


def _labels(recorder: Any) -> list[dict[str, str]]:
    """The cards of the round being recorded with their labels (R1.3.2), for the correction form."""
    rounds = recorder.rounds
    if not rounds:
        return []
    number = len(rounds)
    per_trick = recorder.config.plays_per_trick
    return [{"label": f"R{number}.{i // per_trick + 1}.{i % per_trick + 1}", "text": word}
            for i, word in enumerate(rounds[-1].cards)]
