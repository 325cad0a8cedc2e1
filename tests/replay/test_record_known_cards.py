"""Issue 19: with every deal line typed but a pass line still missing, the known cards already prove
some cards wrong (a card the player cannot hold, a suit she surely holds and does not follow, R6, R8).
The check lives in the Fitzgerald bridge (the family's rules of passing and following)."""

from __future__ import annotations

import pytest

from diamonds.replay.recorder import Recorder

SET_UP = ["R1 dealer Ann pass 3",
          "deal Ann 3D 6D 9D 10D 4H 8H 11H 13S 15S 13C",
          "deal Bob 4D 11D 12D 1H 5H 12H 15H 5C 11C 15C",
          "deal Cat 13D 7H 9H 6S 8S 10S 11S 2C 9C 14C",
          "pass Bob 1H 15H 11C",
          "pass Cat 8S 2C 14C"]  # Ann's pass line not yet typed


def recorder() -> Recorder:
    rec = Recorder.new("2e", ["Ann", "Bob", "Cat"], dealer="Ann")
    for line in SET_UP:
        assert rec.enter(line).accepted, line
    return rec


@pytest.mark.parametrize("line,message", [
    ("1. 11D 7H", "Cat must follow Diamonds (holds 13D)"),  # her own kept card
    ("1. 5C 9C 4H", "Ann must follow Clubs (holds 2C 14C)"),  # cards passed to her by a written line
    ("1. 11D 13D 8H", "Ann must follow Diamonds"),  # 4 dealt, passing 3: at least one kept
    ("1. 14C", "Bob does not hold 14C"),  # Cat passed it to Ann
])
def test_what_the_known_cards_prove_is_refused(line: str, message: str) -> None:
    outcome = recorder().enter(line)
    assert outcome.refusal is not None and message in outcome.refusal.message, outcome


@pytest.mark.parametrize("line", ["1. 11D 13D 6D", "1. 5C 9C 13C", "1. 11D 13D"])
def test_what_they_do_not_disprove_is_accepted(line: str) -> None:
    outcome = recorder().enter(line)
    assert outcome.refusal is None and outcome.accepted
