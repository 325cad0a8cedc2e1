"""The rulings R1–R18, one group of tests per ruling, with expectations worked out by hand.

Positions are built from hands written down by hand (see `helpers.py`): the
hands are chosen so that the scenario under test happens, and each test says
in a comment how its expected numbers follow from the rulings. Seats: Ann 0,
Bob 1, Cat 2, Dan 3, Eve 4, Fay 5. Start: 3 points per Showroom (R2), the
Supply holds 235 minus those (R3).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest
from helpers import (
    SUPPLY,
    actions,
    card,
    cards,
    last_trick,
    new_game,
    of_type,
    play,
    play_whole_round,
    run,
    showroom,
    start_round,
    tricks,
    vault,
)

from diamonds.core import SUITS, Card, WrongPhase
from diamonds.families.fitzgerald.rules import (
    CardPlayed,
    CardsPassed,
    ChoosePassCount,
    ChooseVictim,
    Deal,
    FitzgeraldResult,
    GameEnded,
    PassCards,
    Phase,
    PlayCard,
    Reason,
    RoundEnded,
    RoundStarted,
    SuitAction,
    TrickWon,
    configure,
    errors,
    legal_moves,
    results,
    results_of,
)

ANN, BOB, CAT, DAN, EVE, FAY = range(6)
D, H, S, C = SUITS
OFF, WON, MAJ, NONE = Reason.OFF_SUIT, Reason.TRICK_WON, Reason.SUIT_MAJORITY, Reason.NO_TRICKS


def clubs(actor, side, reason, source_side, points, victim, before=None, after=None):
    """The SuitAction a Clubs action should produce."""
    return SuitAction(actor, side, C, reason, showroom(source_side), showroom(side), points,
                      victim=victim, thief_before=before, thief_after=after)


# --------------------------------------------------------------------------- shared full rounds

# 3 players, 2e, Ann deals: Bob leads (R7) and holds the Thief (R15). Everyone holds
# D3 H3 S2 C2, so every trick is followed, and Bob holds the top cards: he wins all ten.
BOB_WINS_ALL = ["1D 2D 3D 1H 2H 3H 1S 2S 1C 2C",
                "13D 14D 15D 13H 14H 15H 14S 15S 14C 15C",
                "4D 5D 6D 4H 5H 6H 3S 4S 3C 4C"]
BOB_WINS_ALL_PLAYS = ("13D 4D 1D  14D 5D 2D  15D 6D 3D  13H 4H 1H  14H 5H 2H  15H 6H 3H  "
                      "14S 3S 1S  15S 4S 2S  14C 3C 1C  15C 4C 2C")


def bob_wins_every_trick():
    game = new_game(dealer="Ann")
    start_round(game, BOB_WINS_ALL)
    return game, play(game, BOB_WINS_ALL_PLAYS)


def test_R11_R10_round_of_ten_tricks_all_won_by_bob():
    # R11: 10 cards each, so 10 tricks; R10: Bob wins each one and leads the next.
    game, events = bob_wins_every_trick()
    won = tricks(events)
    assert [t.trick_no for t in won] == list(range(1, 11))
    assert {t.winner for t in won} == {BOB}
    assert isinstance(events[events.index(won[-1]) + 2], RoundEnded)  # trick 10, Bob's Clubs, the end
    assert len(of_type(events, RoundEnded)) == 1
    # Trick-won actions, by hand: D D D (vault 3), H H H (showroom 3+3=6), S S (showroom 4, vault 5),
    # C: trick 9 Bob holds the Thief (nothing, Thief -> Cat); trick 10 robs Cat (Bob 5, Cat 2, Thief -> Ann).
    won_actions = [a for a in actions(events) if a.reason is WON]
    assert [a.suit for a in won_actions] == [D] * 3 + [H] * 3 + [S] * 2 + [C] * 2
    assert won_actions[8] == clubs(BOB, BOB, WON, BOB, 0, BOB, before=BOB, after=CAT)
    assert won_actions[9] == clubs(BOB, BOB, WON, CAT, 1, CAT, before=CAT, after=ANN)


def test_R13_thief_moves_left_on_end_of_round_clubs_award():
    # After the tricks the Thief is with Ann (see above). Bob took all 6 Clubs (R16): his Clubs award
    # robs Ann (3 -> 2, Bob 5 -> 6) and the Thief moves on to Bob.
    game, events = bob_wins_every_trick()
    award = [a for a in actions(events) if a.reason is MAJ and a.suit is C]
    assert award == [clubs(BOB, BOB, MAJ, ANN, 1, ANN, before=ANN, after=BOB)]
    assert game.state.thief == BOB


def test_R16_one_player_with_every_card_takes_all_four_awards_in_order():
    game, events = bob_wins_every_trick()
    ended = of_type(events, RoundEnded)[0]
    # Bob took 9 D, 9 H, 6 S, 6 C; nobody else took a card.
    assert ended.taken == ((0, 0, 0, 0), (9, 9, 6, 6), (0, 0, 0, 0))
    assert ended.tricks_won == (0, 10, 0)
    assert ended.majority == (BOB, BOB, BOB, BOB)
    awards = [a for a in actions(events) if a.reason is MAJ]
    # Bob before the awards: showroom 5, vault 5. D: vault 6; H: showroom 6; S: showroom 5, vault 7.
    assert awards[:3] == [
        SuitAction(BOB, BOB, D, MAJ, SUPPLY, vault(BOB), 1),
        SuitAction(BOB, BOB, H, MAJ, SUPPLY, showroom(BOB), 1),
        SuitAction(BOB, BOB, S, MAJ, showroom(BOB), vault(BOB), 1),
    ]
    assert [a.suit for a in awards] == [D, H, S, C]


def test_R17_two_players_without_tricks_take_two_diamonds_each_from_dealers_left():
    # Ann deals; from her left the order is Bob, Cat, Ann: Cat's two Diamonds come before Ann's.
    game, events = bob_wins_every_trick()
    bonus = [a for a in actions(events) if a.reason is NONE]
    assert bonus == [
        SuitAction(CAT, CAT, D, NONE, SUPPLY, vault(CAT), 1),
        SuitAction(CAT, CAT, D, NONE, SUPPLY, vault(CAT), 1),
        SuitAction(ANN, ANN, D, NONE, SUPPLY, vault(ANN), 1),
        SuitAction(ANN, ANN, D, NONE, SUPPLY, vault(ANN), 1),
    ]
    # The whole round by hand: Bob showroom 3 +3(H) -2(S) +1(C trick 10) +1(H award) -1(S award)
    # +1(C award) = 6, vault 3(D) +2(S) +1(D award) +1(S award) = 7; Ann robbed once by the award:
    # 2, vault 2; Cat robbed once: 2, vault 2. Supply 226 - 3 - 3 - 1 - 1 - 4 = 214.
    state = game.state
    assert state.showroom == (2, 6, 2)
    assert state.vault == (2, 7, 2)
    assert state.supply == 214
    assert state.points_in_play == 235


def test_R4_R7_R15_2e_next_round_after_bob_wins_every_trick():
    game, _ = bob_wins_every_trick()
    state = game.state
    # R4: round 2 is dealt by Ann's left neighbour, Bob; R7: Cat, Bob's left, leads;
    # R15 (2e): the Thief stays with Bob, where the Clubs award left it.
    assert (state.phase, state.round_no, state.dealer, state.leader) == (Phase.DEAL, 2, BOB, CAT)
    assert state.thief == BOB
    assert state.taken == ((0, 0, 0, 0),) * 3 and state.tricks_won == (0, 0, 0)
    events = start_round(game, ["1D 2D 3D 1H 2H 3H 1S 2S 1C 2C", "4D 5D 6D 4H 5H 6H 3S 4S 3C 4C",
                                "7D 8D 9D 7H 8H 9H 5S 6S 5C 6C"])
    assert events[0] == RoundStarted(2, BOB, BOB)
    assert game.state.to_move == CAT


# 3 players, 2e, Ann deals, as above, but Ann wins trick 9 (Clubs) and Bob trick 10 (Clubs):
# each of them takes 3 Clubs, a tie.
CLUBS_TIE = ["1D 2D 3D 1H 2H 3H 1S 2S 15C 1C",
             "13D 14D 15D 13H 14H 15H 14S 15S 14C 5C",
             "4D 5D 6D 4H 5H 6H 3S 4S 3C 4C"]
CLUBS_TIE_PLAYS = ("13D 4D 1D  14D 5D 2D  15D 6D 3D  13H 4H 1H  14H 5H 2H  15H 6H 3H  "
                   "14S 3S 1S  15S 4S 2S  14C 3C 15C  1C 5C 4C")


def test_R13_R16_clubs_tie_gives_no_award_and_thief_does_not_move():
    game = new_game(dealer="Ann")
    start_round(game, CLUBS_TIE)
    events = play(game, CLUBS_TIE_PLAYS)
    # Trick 9 (Ann wins): the Thief is still with Bob: Bob 4 -> 3, Ann 4, Thief -> Cat.
    # Trick 10 (Bob wins): robs Cat 3 -> 2, Bob 4, Thief -> Ann.
    clubs_actions = [a for a in actions(events) if a.suit is C]
    assert clubs_actions == [clubs(ANN, ANN, WON, BOB, 1, BOB, before=BOB, after=CAT),
                             clubs(BOB, BOB, WON, CAT, 1, CAT, before=CAT, after=ANN)]
    ended = of_type(events, RoundEnded)[0]
    assert ended.taken == ((0, 0, 0, 3), (9, 9, 6, 3), (0, 0, 0, 0))
    assert ended.majority == (BOB, BOB, BOB, None)
    assert ended.tricks_won == (1, 9, 0)
    assert not [a for a in actions(events) if a.reason is MAJ and a.suit is C]
    assert game.state.thief == ANN  # where trick 10 left it
    # Only Cat won no trick (R17). Ann: showroom 4, vault 0; Bob: showroom 4 (+1 H, -1 S award),
    # vault 7; Cat: showroom 2, vault 2. Supply 226 - 6 - 2 (awards) - 2 (Cat) = 216.
    assert [a.actor for a in actions(events) if a.reason is NONE] == [CAT, CAT]
    assert game.state.showroom == (4, 4, 2)
    assert game.state.vault == (0, 7, 2)
    assert game.state.supply == 216


# --------------------------------------------------------------------------- R1 seats


@pytest.mark.parametrize("n, lefts", [(2, [1, 0]), (3, [1, 2, 0]), (4, [1, 2, 3, 0]),
                                      (6, [1, 2, 3, 4, 5, 0])])
def test_R1_left_neighbour_is_next_seat_and_last_seat_wraps_to_first(n, lefts):
    config = configure(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"][:n])
    assert [config.left_of(seat) for seat in range(n)] == lefts


R1_HANDS = ["1D 2D 3D 4D 1H 2H 3H 1S 2S 1C",
            "6D 7D 8D 9D 4H 5H 6H 3S 4S 2C",
            "5D 10D 11D 12D 7H 8H 9H 5S 6S 3C"]


def test_R1_R8_play_goes_left_from_the_leader_wrapping_to_the_first_seat():
    # Bob deals, so Cat (the last seat) leads (R7); then Ann, then Bob.
    game = new_game(dealer="Bob")
    start_round(game, R1_HANDS)
    order = []
    for text in ["5D", "1D", "6D"]:
        order.append(game.state.to_move)
        play(game, text)
    assert order == [CAT, ANN, BOB]
    assert [(e.seat, e.leads) for e in of_type(game.events[-3] + game.events[-2] + game.events[-1],
                                                CardPlayed)] == [(CAT, True), (ANN, False), (BOB, False)]


def test_R1_thief_moves_left_from_the_last_seat_to_the_first():
    # Bob deals: the Thief starts with Cat (R15). Cat leads 6H, Ann has no Hearts and plays 1C:
    # she robs Cat (3 -> 2, Ann 4) and the Thief moves from Cat (seat 2) to Ann (seat 0).
    game = new_game(dealer="Bob")
    start_round(game, ["1C 2C 3C 4C 5C 1D 2D 3D 4D 5D",
                       "6C 7C 8C 9C 10C 1H 2H 3H 4H 5H",
                       "6H 7H 8H 9H 10H 6D 7D 8D 9D 10D"])
    assert game.state.thief == CAT
    events = play(game, "6H 1C")
    assert actions(events) == [clubs(ANN, ANN, OFF, CAT, 1, CAT, before=CAT, after=ANN)]
    assert game.state.thief == ANN
    assert game.state.showroom == (4, 3, 2)


# --------------------------------------------------------------------------- R2 set-up


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_R2_every_player_starts_with_3_in_showroom_and_empty_vault(n):
    state = new_game(" ".join(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"][:n])).state
    assert state.showroom == (3,) * n
    assert state.vault == (0,) * n


@pytest.mark.parametrize("players, teams", [("Ann Bob Cat Dan", 2), ("Ann Bob Cat Dan Eve Fay", 3)])
def test_R2_partnership_team_showroom_starts_at_6(players, teams):
    state = new_game(players, variants=["partnership"]).state
    assert state.showroom == (6,) * teams  # 3 per member, two members
    assert state.vault == (0,) * teams


# --------------------------------------------------------------------------- R3 crystals


@pytest.mark.parametrize("players, variants, supply", [
    ("Ann Bob", (), 229),                 # 235 - 2*3
    ("Ann Bob Cat", (), 226),             # 235 - 3*3
    ("Ann Bob Cat Dan Eve Fay", (), 217),  # 235 - 6*3
    ("Ann Bob Cat Dan", ("partnership",), 223),  # 235 - 2*6
])
def test_R3_supply_starts_with_235_minus_the_starting_showrooms(players, variants, supply):
    state = new_game(players, variants=variants).state
    assert state.supply == supply
    assert state.points_in_play == 235


def test_R3_actions_from_an_empty_supply_do_nothing():
    game = new_game(dealer="Ann")  # Bob leads
    start_round(game, ["2D 3D 4D 5D 6D 1S 2S 3S 4S 5S",
                       "5H 6H 7H 8H 9H 6S 7S 8S 9S 10S",
                       "7D 8D 9D 10D 11D 11S 12S 13S 14S 15S"])
    # One point left in the Supply (the rest moved to the Vaults, keeping the total at 235).
    state = replace(game.state, supply=1, vault=(75, 75, 75))
    state, events = run(state, "5H 7D 2D")
    # Cat's off-suit Diamonds takes the last point; Ann's off-suit Diamonds and Bob's trick-won
    # Hearts find the Supply empty: nothing moves, the actions still happen.
    assert actions(events) == [
        SuitAction(CAT, CAT, D, OFF, SUPPLY, vault(CAT), 1),
        SuitAction(ANN, ANN, D, OFF, SUPPLY, vault(ANN), 0),
        SuitAction(BOB, BOB, H, WON, SUPPLY, showroom(BOB), 0),
    ]
    assert (state.supply, state.vault, state.showroom) == (0, (75, 75, 76), (3, 3, 3))
    # Spades needs no Supply: Cat wins a Spades trick, showroom 3 -> 2, vault 76 -> 77.
    state, events = run(state, "6S 11S 1S")
    assert actions(events) == [SuitAction(CAT, CAT, S, WON, showroom(CAT), vault(CAT), 1)]
    assert (state.showroom, state.vault, state.points_in_play) == ((3, 3, 2), (75, 75, 77), 235)


def test_R3_R17_no_trick_bonus_stops_when_the_supply_runs_out():
    # Last trick: Ann leads 1S, Bob 2S, Cat 3S; Cat wins (Spades: no Supply needed). Taken after it:
    # Ann D4 H5 S3 C3, Cat D4 H5 S3 C3: every suit tied, no award (R16). Bob won no trick (R17):
    # his first Diamonds takes the Supply's last point, the second finds it empty.
    config = configure(["Ann", "Bob", "Cat"])
    state = last_trick(config, ["1S", "2S", "3S"], leader=ANN,
                       taken=[(4, 5, 3, 3), (0, 0, 0, 0), (4, 5, 0, 3)], tricks_won=[5, 0, 4],
                       supply=1, vault=(75, 75, 75))
    state, events = run(state, "1S 2S 3S")
    assert of_type(events, RoundEnded)[0].majority == (None, None, None, None)
    assert actions(events) == [
        SuitAction(CAT, CAT, S, WON, showroom(CAT), vault(CAT), 1),
        SuitAction(BOB, BOB, D, NONE, SUPPLY, vault(BOB), 1),
        SuitAction(BOB, BOB, D, NONE, SUPPLY, vault(BOB), 0),
    ]
    assert (state.supply, state.vault) == (0, (75, 76, 76))


# --------------------------------------------------------------------------- R4 rounds and dealers


@pytest.mark.parametrize("players, variants, rounds", [
    ("Ann Bob", (), 4), ("Ann Bob Cat", (), 6), ("Ann Bob Cat Dan", (), 4),
    ("Ann Bob Cat Dan Eve", (), 5), ("Ann Bob Cat Dan Eve Fay", (), 6),
    ("Ann Bob Cat Dan", ("partnership",), 4), ("Ann Bob Cat Dan Eve Fay", ("partnership",), 6),
    ("Ann Bob", ("perfect",), 4), ("Ann Bob Cat Dan Eve", ("perfect",), 5),
])
def test_R4_rounds_per_game_by_player_count(players, variants, rounds):
    assert new_game(players, variants=variants).config.rounds == rounds


def _shuffled_hands(config, rng):
    deck = list(config.deck)
    rng.shuffle(deck)
    size = config.hand_size
    return tuple(tuple(deck[i * size:(i + 1) * size]) for i in range(config.player_count))


@pytest.mark.parametrize("players, first_dealer, dealers", [
    ("Ann Bob Cat", "Bob", [BOB, CAT, ANN, BOB, CAT, ANN]),  # 6 rounds, one seat left each time
    ("Ann Bob Cat Dan", "Dan", [DAN, ANN, BOB, CAT]),        # 4 rounds, wrapping from the last seat
    ("Ann Bob", "Bob", [BOB, ANN, BOB, ANN]),                # 4 rounds
])
def test_R4_dealer_moves_left_each_round_and_game_ends_after_the_last(players, first_dealer, dealers):
    game = new_game(players, dealer=first_dealer)
    rng = random.Random(7)
    seen, ended = [], []
    while not game.state.is_over:
        assert game.state.phase is Phase.DEAL
        events = play_whole_round(game, _shuffled_hands(game.config, rng))
        seen.append(of_type(events, RoundStarted)[0].dealer)
        ended.append(len(of_type(events, GameEnded)))
    assert seen == dealers
    assert ended == [0] * (len(dealers) - 1) + [1]  # the game ends after the last round, only then
    assert game.state.round_no == len(dealers)
    # R4: no round after the last.
    before = (len(game), game.state)
    with pytest.raises(errors.GameOver) as info:
        game.push(Deal(_shuffled_hands(game.config, rng)))
    assert info.value.rule == "R4" and str(info.value).endswith("(R4)")
    assert (len(game), game.state) == before


# --------------------------------------------------------------------------- R5 hands


@pytest.mark.parametrize("players, variants, hand, deck_size, top", [
    ("Ann Bob Cat", (), 10, 60, 15),
    ("Ann Bob", (), 10, 60, 15),
    ("Ann Bob Cat Dan Eve Fay", (), 10, 60, 15),
    ("Ann Bob Cat Dan Eve", ("perfect",), 12, 60, 15),   # all 60 cards
    ("Ann Bob Cat Dan", ("perfect",), 13, 52, 13),       # no 14s, 15s
    ("Ann Bob Cat", ("perfect",), 12, 36, 9),            # no 10-15
    ("Ann Bob", ("perfect",), 16, 32, 8),                # no 9-15
])
def test_R5_hand_size_and_deck(players, variants, hand, deck_size, top):
    config = new_game(players, variants=variants).config
    assert config.hand_size == hand
    assert len(config.deck) == deck_size
    assert max(c.rank for c in config.deck) == top and min(c.rank for c in config.deck) == 1
    assert {c.suit for c in config.deck} == set(SUITS)


def test_R5_perfect_diamonds_with_five_players_deals_all_60_cards():
    game = new_game("Ann Bob Cat Dan Eve", variants=["perfect"])
    deck = [Card(rank, suit) for suit in SUITS for rank in range(1, 16)]
    hands = tuple(tuple(deck[i::5]) for i in range(5))  # 12 cards each
    game.push(Deal(hands))
    assert sum(len(h) for h in game.state.hands) == 60
    assert set().union(*game.state.hands) == set(deck)


def test_R5_perfect_two_players_deal_sixteen_cards_from_ranks_1_to_8():
    game = new_game("Ann Bob", variants=["perfect"])
    deck = [Card(rank, suit) for suit in SUITS for rank in range(1, 9)]
    game.push(Deal((tuple(deck[:16]), tuple(deck[16:]))))
    assert [len(h) for h in game.state.hands] == [16, 16]
    assert game.config.tricks_per_round == 8  # R11: 16 / 2


def test_R5_deal_refuses_a_hand_of_the_wrong_size():
    game = new_game()
    with pytest.raises(errors.InvalidDeal) as info:
        game.push(Deal((cards("1D 2D 3D 4D 5D 6D 7D 8D 9D 10D"), cards("1H 2H 3H 4H 5H 6H 7H 8H 9H"),
                        cards("1S 2S 3S 4S 5S 6S 7S 8S 9S 10S"))))
    assert str(info.value) == "Bob is dealt 9 cards, not 10 (R5)"
    assert info.value.rule == "R5"
    assert len(game) == 0


def test_R5_deal_refuses_a_card_outside_the_perfect_deck():
    game = new_game("Ann Bob Cat Dan", variants=["perfect"])  # no 14s or 15s
    hands = [list(cards(" ".join(f"{r}{s}" for r in range(1, 14)))) for s in "DHSC"]
    hands[3][12] = card("14C")
    with pytest.raises(errors.InvalidDeal) as info:
        game.push(Deal(tuple(tuple(h) for h in hands)))
    assert str(info.value) == "14C is not in this game's deck (ranks 1-13) (R5)"


def test_R5_deal_refuses_a_card_dealt_twice():
    game = new_game()
    with pytest.raises(errors.InvalidDeal) as info:
        game.push(Deal((cards("1D 2D 3D 4D 5D 6D 7D 8D 9D 10D"), cards("1H 2H 3H 4H 5H 6H 7H 8H 9H 5D"),
                        cards("1S 2S 3S 4S 5S 6S 7S 8S 9S 10S"))))
    assert str(info.value) == "5D is dealt twice (Ann and Bob) (R5)"


# --------------------------------------------------------------------------- R6 passing

PASS_DEAL = (cards("1D 2D 3D 4D 5D 6D 7D 8D 9D 10D"),
             cards("1H 2H 3H 4H 5H 6H 7H 8H 9H 10H"),
             cards("1C 2C 3C 4C 5C 6C 7C 8C 9C 10C"))


def test_R6_dealer_chooses_one_two_or_three():
    game = new_game(dealer="Cat")
    game.push(Deal(PASS_DEAL))
    assert game.state.to_move == CAT
    assert game.legal_moves() == (ChoosePassCount(1), ChoosePassCount(2), ChoosePassCount(3))
    for wrong in (0, 4, -1):
        with pytest.raises(errors.WrongPassCount) as info:
            game.push(ChoosePassCount(wrong))
        assert info.value.rule == "R6"
        assert str(info.value) == f"Cat (dealer) must choose 1, 2 or 3 cards to pass, not {wrong} (R6)"
    assert game.state.phase is Phase.PASS_COUNT


@pytest.mark.parametrize("count", [1, 2, 3])
def test_R6_every_player_passes_exactly_n_cards_to_the_left_at_once(count):
    game = new_game(dealer="Cat")
    game.push(Deal(PASS_DEAL))
    game.push(ChoosePassCount(count))
    def low(seat):
        return PASS_DEAL[seat][:count]  # the n lowest cards of each hand
    for seat, wrong in [(BOB, count - 1), (BOB, count + 1)]:
        if wrong == 0:
            continue
        with pytest.raises(errors.WrongPassCount) as info:
            game.push(PassCards(seat, PASS_DEAL[seat][:wrong]))
        plural = "s" if wrong != 1 else ""
        assert str(info.value) == f"Bob passes {wrong} card{plural}, but the dealer chose {count} (R6)"
    events = []
    with pytest.raises(errors.OutOfTurn) as early:  # made at once, taken from the dealer's left: Ann first
        game.push(PassCards(BOB, low(BOB)))
    assert early.value.rule == "R6" and early.value.seat == BOB
    for seat in (ANN, BOB, CAT):
        events += game.push(PassCards(seat, low(seat)))
    assert of_type(events, CardsPassed) == [CardsPassed(ANN, BOB, low(ANN)), CardsPassed(BOB, CAT, low(BOB)),
                                            CardsPassed(CAT, ANN, low(CAT))]
    # Ann gave her n lowest Diamonds to Bob and got Cat's n lowest Clubs, and so on.
    state = game.state
    assert state.hands[ANN] == frozenset(PASS_DEAL[ANN][count:] + low(CAT))
    assert state.hands[BOB] == frozenset(PASS_DEAL[BOB][count:] + low(ANN))
    assert state.hands[CAT] == frozenset(PASS_DEAL[CAT][count:] + low(BOB))
    assert state.phase is Phase.PLAY and all(len(h) == 10 for h in state.hands)


def test_R6_a_card_received_cannot_be_passed_on():
    game = new_game(dealer="Cat")
    game.push(Deal(PASS_DEAL))
    game.push(ChoosePassCount(1))
    game.push(PassCards(ANN, cards("1D")))  # to Bob, but only once all have passed
    assert card("1D") not in game.state.hands[BOB]
    with pytest.raises(errors.CardNotHeld) as info:
        game.push(PassCards(BOB, cards("1D")))
    assert info.value.rule == "R6"
    assert str(info.value) == "Bob cannot pass 1D: nobody holds it (R6)"
    play_moves = [PassCards(BOB, cards("1H")), PassCards(CAT, cards("1C"))]
    for move in play_moves:
        game.push(move)
    assert card("1D") in game.state.hands[BOB]  # delivered with the others


def test_R6_a_player_passes_once_and_only_cards_held_and_each_card_once():
    game = new_game(dealer="Cat")
    game.push(Deal(PASS_DEAL))
    game.push(ChoosePassCount(2))
    with pytest.raises(errors.CardNotHeld) as info:
        game.push(PassCards(BOB, cards("1H 5C")))
    assert str(info.value) == "Bob cannot pass 5C: Cat holds it (R6)"
    with pytest.raises(errors.InvalidPass) as info2:
        game.push(PassCards(ANN, cards("1D 1D")))
    assert str(info2.value) == "Ann passes 1D twice (R6)" and info2.value.rule == "R6"
    game.push(PassCards(ANN, cards("1D 2D")))
    game.push(PassCards(BOB, cards("1H 2H")))
    with pytest.raises(errors.OutOfTurn) as info3:
        game.push(PassCards(BOB, cards("3H 4H")))
    assert str(info3.value) == "Bob has already passed this round (R6)"
    with pytest.raises(WrongPhase) as info4:
        game.push(PlayCard(card("5D")))
    assert str(info4.value) == "playing a card is not due now: still to pass: Cat (R6)"


def test_R6_partnership_passes_go_to_the_partner():
    game = new_game("Ann Bob Cat Dan", variants=["partnership"], dealer="Dan")
    hands = tuple(cards(" ".join(f"{r}{s}" for r in range(1, 11))) for s in "DHSC")
    game.push(Deal(hands))
    game.push(ChoosePassCount(1))
    events = []
    for seat in range(4):
        events += game.push(PassCards(seat, hands[seat][:1]))
    # Partners sit opposite: Ann <-> Cat, Bob <-> Dan.
    assert [(e.giver, e.receiver) for e in of_type(events, CardsPassed)] == [
        (ANN, CAT), (BOB, DAN), (CAT, ANN), (DAN, BOB)]
    assert card("1S") in game.state.hands[ANN] and card("1D") in game.state.hands[CAT]
    assert card("1C") in game.state.hands[BOB] and card("1H") in game.state.hands[DAN]


def test_R6_six_player_partnership_passes_across_the_table():
    config = configure("Ann Bob Cat Dan Eve Fay".split(), variants=["partnership"])
    assert [config.pass_target(seat) for seat in range(6)] == [DAN, EVE, FAY, ANN, BOB, CAT]


def test_R6_two_players_pass_to_the_opponent():
    game = new_game("Ann Bob", dealer="Ann")
    game.push(Deal(PASS_DEAL[:2]))
    game.push(ChoosePassCount(3))
    events = game.push(PassCards(BOB, cards("1H 2H 3H"))) + game.push(PassCards(ANN, cards("1D 2D 3D")))
    assert [(e.giver, e.receiver) for e in of_type(events, CardsPassed)] == [(BOB, ANN), (ANN, BOB)]
    assert game.state.hands[ANN] == frozenset(cards("4D 5D 6D 7D 8D 9D 10D 1H 2H 3H"))


# --------------------------------------------------------------------------- R7 leaders


@pytest.mark.parametrize("rules", ["1e", "2e", "bga"])
@pytest.mark.parametrize("dealer", [ANN, BOB, CAT])
def test_R7_first_trick_leader(rules, dealer):
    game = new_game(rules=rules, dealer=dealer)
    start_round(game, R1_HANDS)
    # 1e and 2e: the dealer's left neighbour; bga: the dealer.
    expected = dealer if rules == "bga" else (dealer + 1) % 3
    assert game.state.leader == expected
    assert game.state.to_move == expected


def test_R7_R10_later_tricks_are_led_by_the_previous_winner():
    game = new_game(dealer="Bob")  # Cat leads
    start_round(game, R1_HANDS)
    play(game, "5D 1D 6D")  # Bob's 6D beats 5D and 1D
    assert (game.state.trick_no, game.state.leader, game.state.to_move) == (2, BOB, BOB)
    play(game, "4H 7H 1H")  # Bob leads 4H, Cat 7H, Ann 1H: Cat wins
    assert (game.state.trick_no, game.state.leader, game.state.to_move) == (3, CAT, CAT)


# --------------------------------------------------------------------------- R8 play

R8_HANDS = ["5H 1D 2D 4D 5D 6D 1S 2S 3S 4S",
            "9H 12H 3D 7D 8D 9D 5S 6S 7S 8S",
            "1C 2C 3C 4C 5C 6C 7C 8C 9C 10C"]


def r8_game():
    game = new_game(dealer="Cat")  # Ann leads
    start_round(game, R8_HANDS)
    return game


def test_R8_must_follow_the_led_suit_when_holding_it():
    game = r8_game()
    play(game, "5H")
    assert game.legal_moves() == (PlayCard(card("9H")), PlayCard(card("12H")))
    before = game.state
    with pytest.raises(errors.MustFollowSuit) as info:
        play(game, "3D")
    assert str(info.value) == "Bob must follow Hearts (holds 9H 12H) (R8)"
    assert info.value.rule == "R8"
    assert game.state is before


def test_R8_a_player_without_the_led_suit_may_play_any_card():
    game = r8_game()
    play(game, "5H 12H")
    assert {m.card for m in game.legal_moves()} == set(cards(R8_HANDS[CAT]))


def test_R8_card_not_held():
    game = r8_game()
    with pytest.raises(errors.CardNotHeld) as info:
        play(game, "1C")
    assert str(info.value) == "Ann does not hold 1C (Cat holds it) (R8)"
    with pytest.raises(errors.CardNotHeld) as info:
        play(game, "15H")
    assert str(info.value) == "Ann does not hold 15H (nobody holds it) (R8)"
    assert info.value.rule == "R8"


# 2 players, 2e, Bob deals: Ann leads. Ann's only Diamond is 4D.
TWO_HANDS = ["4D 10H 1H 2H 3H 1S 2S 3S 1C 2C",
             "3D 8D 9D 4H 5H 6H 4S 5S 3C 4C"]


def test_R8_R9_R10_two_players_four_plays_with_an_off_suit_second_play_by_the_leader():
    game = new_game("Ann Bob", dealer="Bob")
    start_round(game, TWO_HANDS)
    assert game.config.plays_per_trick == 4 and game.state.thief is None
    order, events = [], []
    for text in "4D 3D 10H 8D".split():
        order.append(game.state.to_move)
        events += play(game, text)
    assert order == [ANN, BOB, ANN, BOB]  # leader, opponent, leader, opponent
    played = of_type(events, CardPlayed)
    assert [(p.seat, p.leads, p.followed) for p in played] == [
        (ANN, True, True), (BOB, False, True), (ANN, False, False), (BOB, False, True)]
    # Ann's 10H is off-suit: Hearts action at once (showroom 4). Bob's 8D is the best Diamond: he
    # wins the four cards and takes the Diamonds action (vault 1), then leads.
    assert actions(events) == [SuitAction(ANN, ANN, H, OFF, SUPPLY, showroom(ANN), 1),
                               SuitAction(BOB, BOB, D, WON, SUPPLY, vault(BOB), 1)]
    assert tricks(events) == [TrickWon(1, BOB, card("8D"), D, cards("4D 3D 10H 8D"))]
    state = game.state
    assert (state.showroom, state.vault, state.supply) == ((4, 3), (0, 1), 227)
    assert state.taken == ((0, 0, 0, 0), (3, 1, 0, 0))
    assert (state.leader, state.to_move, state.trick_no) == (BOB, BOB, 2)


def test_R11_R14_two_player_round_has_five_tricks_and_clubs_robs_the_opponent():
    game = new_game("Ann Bob", dealer="Bob")
    start_round(game, TWO_HANDS)
    events = play(game, "4D 3D 10H 8D  4H 1H 5H 2H  6H 3H 9D 1C >-  4S 1S 5S 2S  3C 2C 4C 3S >- >-")
    # By hand (start 3/3, Supply 229):
    # T1 Ann H off-suit (Ann s4), Bob wins D (Bob v1).  T2 Bob wins H (Bob s4).
    # T3 Bob 9D off-suit (v2); Ann 1C off-suit, no victim named: the one opponent, Bob s3, Ann s5;
    #    Bob wins H (s4).  T4 Bob wins S (s3, v3).
    # T5 Ann 3S off-suit (Ann s4, v1); Bob wins C: robs Ann (Ann s3, Bob s4).
    # End: Bob took everything: D4 H7 S5 C4. Awards: D (v4), H (s5), S (s4, v5), C robs Ann (2, Bob 5).
    # Ann won no trick: two Diamonds (v3). Supply 229 - 2 (T1) - 1 - 1 - 1 - 2 (D, H awards) - 2 = 220.
    assert len(tricks(events)) == 5 and game.config.tricks_per_round == 5
    ended = of_type(events, RoundEnded)[0]
    assert ended.taken == ((0, 0, 0, 0), (4, 7, 5, 4)) and ended.tricks_won == (0, 5)
    off_clubs = [a for a in actions(events) if a.suit is C]
    assert off_clubs == [clubs(ANN, ANN, OFF, BOB, 1, BOB), clubs(BOB, BOB, WON, ANN, 1, ANN),
                         clubs(BOB, BOB, MAJ, ANN, 1, ANN)]
    state = game.state
    assert (state.showroom, state.vault, state.supply) == ((2, 5), (3, 5), 220)
    # R4: Ann deals round 2, Bob (her left neighbour) leads.
    assert (state.round_no, state.dealer, state.leader) == (2, ANN, BOB)


# --------------------------------------------------------------------------- R9 off-suit actions


@pytest.mark.parametrize("lead", ["5D", "5H", "5S", "5C"])
def test_R9_leading_never_earns_an_action(lead):
    game = new_game(dealer="Cat")  # Ann leads
    start_round(game, ["5D 5H 5S 5C 1D 1H 1S 1C 2D 2H",
                       "6D 6H 6S 6C 3D 3H 3S 3C 4D 4H",
                       "7D 7H 7S 7C 8D 8H 8S 8C 9D 9H"])
    before = game.state
    events = play(game, lead)
    assert events == [CardPlayed(ANN, card(lead), 1, card(lead).suit, True, True)]
    assert (game.state.showroom, game.state.vault, game.state.supply) == (
        before.showroom, before.vault, before.supply)


def test_R9_following_earns_nothing_and_off_suit_acts_before_the_next_play():
    game = new_game(dealer="Cat")  # Ann leads
    start_round(game, R8_HANDS)
    assert actions(play(game, "5H 9H")) == []  # Bob follows: no action
    events = play(game, "4C")  # Cat has no Hearts
    # The Clubs action comes with Cat's own play: it robs Ann, who holds the Thief (R15: the
    # dealer Cat's left neighbour), and the Thief moves on to Bob.
    assert events[0] == CardPlayed(CAT, card("4C"), 1, H, False, False)
    assert events[1] == clubs(CAT, CAT, OFF, ANN, 1, ANN, before=ANN, after=BOB)
    assert isinstance(events[2], TrickWon)  # only then is the trick (the next step) taken


# --------------------------------------------------------------------------- R10 winning a trick


def test_R10_highest_card_of_the_led_suit_wins_and_takes_the_led_suit_action():
    game = new_game(dealer="Cat")  # Ann leads
    start_round(game, ["5H 1D 2D 4D 5D 6D 1S 2S 3S 4S",
                       "9H 12H 3D 7D 8D 9D 5S 6S 7S 8S",
                       "15D 1C 2C 3C 4C 5C 6C 7C 8C 9C"])
    events = play(game, "5H 9H 15D")
    # Cat's 15D is off-suit: it earns Cat a Diamonds action but cannot win. Bob's 9H is the best Heart:
    # his Hearts action comes after Cat's, then he leads trick 2.
    assert [type(e).__name__ for e in events] == ["CardPlayed", "CardPlayed", "CardPlayed", "SuitAction",
                                                  "TrickWon", "SuitAction"]
    assert tricks(events) == [TrickWon(1, BOB, card("9H"), H, cards("5H 9H 15D"))]
    assert actions(events) == [SuitAction(CAT, CAT, D, OFF, SUPPLY, vault(CAT), 1),
                               SuitAction(BOB, BOB, H, WON, SUPPLY, showroom(BOB), 1)]
    state = game.state
    assert state.taken == ((0, 0, 0, 0), (1, 2, 0, 0), (0, 0, 0, 0))  # all three cards to Bob
    assert state.tricks_won == (0, 1, 0)
    assert (state.leader, state.to_move, state.trick_no, state.trick) == (BOB, BOB, 2, ())


# --------------------------------------------------------------------------- R11 tricks per round


@pytest.mark.parametrize("players, variants, tricks_per_round", [
    ("Ann Bob", (), 5), ("Ann Bob Cat", (), 10), ("Ann Bob Cat Dan Eve Fay", (), 10),
    ("Ann Bob", ("perfect",), 8), ("Ann Bob Cat", ("perfect",), 12), ("Ann Bob Cat Dan", ("perfect",), 13),
    ("Ann Bob Cat Dan Eve", ("perfect",), 12), ("Ann Bob Cat Dan", ("partnership",), 10),
])
def test_R11_tricks_per_round(players, variants, tricks_per_round):
    assert new_game(players, variants=variants).config.tricks_per_round == tricks_per_round


# --------------------------------------------------------------------------- R12 suit actions


def r12_game():
    # 4 players, Dan deals: Ann leads and holds the Thief. Each other player is void in Clubs.
    game = new_game("Ann Bob Cat Dan", dealer="Dan")
    start_round(game, ["1C 2C 3C 4C 5C 6C 7C 8C 9C 10C", "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D",
                       "1H 2H 3H 4H 5H 6H 7H 8H 9H 10H", "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S"])
    return game


def test_R12_diamonds_hearts_spades_actions():
    game = r12_game()
    events = play(game, "1C 1D 1H 1S")
    # Bob: Diamonds, Supply -> his Vault. Cat: Hearts, Supply -> her Showroom. Dan: Spades, his
    # Showroom -> his Vault. Ann wins Clubs while holding the Thief: nothing, Thief -> Bob (R13).
    assert actions(events) == [
        SuitAction(BOB, BOB, D, OFF, SUPPLY, vault(BOB), 1),
        SuitAction(CAT, CAT, H, OFF, SUPPLY, showroom(CAT), 1),
        SuitAction(DAN, DAN, S, OFF, showroom(DAN), vault(DAN), 1),
        clubs(ANN, ANN, WON, ANN, 0, ANN, before=ANN, after=BOB),
    ]
    state = game.state
    assert state.showroom == (3, 3, 4, 2)
    assert state.vault == (0, 1, 0, 1)
    assert state.supply == 235 - 12 - 2


def test_R12_spades_with_an_empty_showroom_moves_nothing():
    game = r12_game()
    state = replace(game.state, showroom=(3, 3, 3, 0), supply=game.state.supply + 3)
    state, events = run(state, "1C 1D 1H 1S")
    assert actions(events)[2] == SuitAction(DAN, DAN, S, OFF, showroom(DAN), vault(DAN), 0)
    assert (state.showroom[DAN], state.vault[DAN]) == (0, 0)


# --------------------------------------------------------------------------- R13 the Thief

# 3 players, 2e, Ann deals: Bob leads and holds the Thief. Cat has no Hearts.
R13_HANDS = ["9H 1D 2D 3D 4D 1S 2S 3S 4S 5S",
             "5H 6D 7D 8D 9D 6S 7S 8S 9S 10S",
             "7C 1C 2C 3C 4C 5C 6C 8C 9C 10C"]


def test_R13_thief_moves_left_after_offsuit_clubs():
    game = new_game(dealer="Ann")
    start_round(game, R13_HANDS)
    assert game.state.thief == BOB
    events = play(game, "5H 7C")
    # Cat robs the Thief's holder, Bob (3 -> 2, Cat 4); the Thief moves to Bob's left, Cat.
    assert actions(events) == [clubs(CAT, CAT, OFF, BOB, 1, BOB, before=BOB, after=CAT)]
    assert (game.state.thief, game.state.showroom) == (CAT, (3, 2, 4))
    events = play(game, "9H")  # Ann wins the Hearts trick; no Clubs action, the Thief stays
    assert actions(events) == [SuitAction(ANN, ANN, H, WON, SUPPLY, showroom(ANN), 1)]
    assert game.state.thief == CAT


def test_R13_thief_moves_left_after_a_clubs_trick_win_even_when_the_winner_holds_it():
    game = new_game(dealer="Ann")  # Bob leads, Bob holds the Thief
    start_round(game, ["2C 1C 1D 2D 3D 4D 5D 1H 2H 3H",
                       "5C 4C 6D 7D 8D 9D 10D 4H 5H 6H",
                       "9C 10C 11D 12D 13D 14D 15D 7H 8H 9H"])
    events = play(game, "5C 9C 2C")
    # Cat wins the Clubs trick: robs Bob (3 -> 2, Cat 4), Thief Bob -> Cat.
    assert actions(events) == [clubs(CAT, CAT, WON, BOB, 1, BOB, before=BOB, after=CAT)]
    events = play(game, "10C 1C 4C")
    # Cat wins again but holds the Thief: nothing is taken, the Thief still moves, to Ann.
    [action] = actions(events)
    assert (action.actor, action.suit, action.reason, action.points) == (CAT, C, WON, 0)
    assert (action.thief_before, action.thief_after) == (CAT, ANN)
    assert (game.state.thief, game.state.showroom) == (ANN, (3, 2, 4))


def test_R13_holder_with_an_empty_showroom_gives_nothing_but_the_thief_moves():
    game = new_game(dealer="Ann")
    start_round(game, R13_HANDS)
    state = replace(game.state, showroom=(3, 0, 3), supply=game.state.supply + 3)  # Bob has nothing
    state, events = run(state, "5H 7C")
    assert actions(events) == [clubs(CAT, CAT, OFF, BOB, 0, BOB, before=BOB, after=CAT)]
    assert (state.thief, state.showroom) == (CAT, (3, 0, 3))


@pytest.mark.parametrize("players, rules, variants", [
    ("Ann Bob", "2e", ()), ("Ann Bob", "bga", ()), ("Ann Bob Cat", "1e", ()),
    ("Ann Bob Cat Dan", "2e", ("partnership",)), ("Ann Bob Cat Dan Eve Fay", "bga", ("partnership",)),
])
def test_R13_R14_no_thief_with_two_players_partnership_or_1e(players, rules, variants):
    game = new_game(players, rules=rules, variants=variants)
    assert game.config.uses_thief is False
    assert game.state.thief is None


# --------------------------------------------------------------------------- R14 choosing a victim


def test_R14_1e_offsuit_clubs_victim_choice():
    game = new_game(rules="1e", dealer="Ann")  # Bob leads
    start_round(game, R13_HANDS)
    play(game, "5H 7C")
    state = game.state
    # Cat must choose: Ann and Bob both have 3 points, so the victim is required.
    assert (state.phase, state.to_move) == (Phase.CHOOSE_VICTIM, CAT)
    assert state.pending.candidates == (ANN, BOB) and state.pending.required
    assert game.legal_moves() == (ChooseVictim(ANN), ChooseVictim(BOB))
    with pytest.raises(errors.VictimRequired) as info:
        play(game, ">-")
    assert str(info.value) == ("Cat must name whose Showroom the Clubs action takes from: "
                               "Ann (3), Bob (3) (R14)")
    with pytest.raises(errors.VictimNotAllowed) as info2:
        play(game, ">Cat")
    assert str(info2.value) == "Cat cannot take from themselves with Clubs (R14)"
    with pytest.raises(WrongPhase) as info3:
        play(game, "9H")
    assert info3.value.rule == "R14"
    assert game.state is state
    events = play(game, ">Ann")
    assert actions(events) == [clubs(CAT, CAT, OFF, ANN, 1, ANN)]
    assert (game.state.showroom, game.state.phase, game.state.to_move) == ((2, 3, 4), Phase.PLAY, ANN)


def test_R14_victim_required_when_one_of_two_candidates_has_a_point_even_to_name_the_empty_one():
    game = new_game(rules="1e", dealer="Ann")
    start_round(game, R13_HANDS)
    state = replace(game.state, showroom=(0, 1, 3), supply=game.state.supply + 5)
    state, _ = run(state, "5H 7C")
    assert state.pending.required  # Bob has a point
    with pytest.raises(errors.VictimRequired):
        run(state, ">-")
    # Naming Ann, who has nothing, is a legal choice that takes nothing.
    after, events = run(state, ">Ann")
    assert actions(events) == [clubs(CAT, CAT, OFF, ANN, 0, ANN)]
    assert after.showroom == (0, 1, 3)


def test_R14_victim_may_be_left_out_when_no_candidate_has_a_point_and_may_still_be_named():
    game = new_game(rules="1e", dealer="Ann")
    start_round(game, R13_HANDS)
    state = replace(game.state, showroom=(0, 0, 3), supply=game.state.supply + 6)
    state, _ = run(state, "5H 7C")
    assert not state.pending.required
    assert set(legal_moves(state)) == {ChooseVictim(None), ChooseVictim(ANN), ChooseVictim(BOB)}
    unnamed, events = run(state, ">-")
    assert actions(events) == [SuitAction(CAT, CAT, C, OFF, showroom(None), showroom(CAT), 0)]
    named, events = run(state, ">Bob")
    assert actions(events) == [clubs(CAT, CAT, OFF, BOB, 0, BOB)]
    assert unnamed.showroom == named.showroom == (0, 0, 3)


@pytest.mark.parametrize("ann_plays, required", [("1H", True), ("1D", False)])
def test_R14_trick_winners_victim_is_judged_after_the_tricks_off_suit_actions(ann_plays, required):
    # 1e, Bob deals: Cat leads 5C. Ann and Bob start with empty Showrooms. Ann has no Clubs:
    # with 1H she takes a Hearts point into her Showroom before Cat wins the trick, so Cat's
    # victim becomes required; with 1D the point goes to her Vault and no candidate has one.
    game = new_game(rules="1e", dealer="Bob")
    start_round(game, ["1H 1D 2D 3D 4D 5D 6D 7D 8D 9D",
                       "2C 3C 4C 10D 11D 12D 13D 14D 15D 2H",
                       "5C 6C 7C 8C 9C 3H 4H 5H 6H 7H"])
    state = replace(game.state, showroom=(0, 0, 9))
    state, events = run(state, f"5C {ann_plays} 2C")
    assert tricks(events)[0].winner == CAT
    assert state.phase is Phase.CHOOSE_VICTIM and state.pending.reason is WON
    assert state.pending.required is required
    if required:
        with pytest.raises(errors.VictimRequired):
            run(state, ">-")
        state, events = run(state, ">Ann")
        assert actions(events) == [clubs(CAT, CAT, WON, ANN, 1, ANN)]
        assert state.showroom == (0, 0, 10)
    else:
        state, events = run(state, ">-")
        assert actions(events)[0].points == 0
    assert (state.phase, state.leader, state.trick_no) == (Phase.PLAY, CAT, 2)


@pytest.mark.parametrize("bob_hearts, required", [(5, True), (2, False)])
def test_R14_end_of_round_clubs_victim_is_judged_after_the_other_awards(bob_hearts, required):
    # 1e, last trick: Ann leads 1S, Bob 2S, Cat 3S, Cat wins. Ann and Bob have empty Showrooms.
    # Taken after the trick: D 2-2-2 (tie), S Ann 3 / Cat 3 (tie), C Cat 5 (Cat's award), H Bob 5
    # (Bob's award: a point into his Showroom, before Clubs) or 2-2-2 (tie, no award).
    config = configure(["Ann", "Bob", "Cat"], rules="1e")
    state = last_trick(config, ["1S", "2S", "3S"], leader=ANN,
                       taken=[(2, 2, 3, 2), (2, bob_hearts, 0, 2), (2, 2, 0, 5)], tricks_won=[3, 3, 3],
                       showroom=(0, 0, 5))
    state, events = run(state, "1S 2S 3S")
    assert of_type(events, RoundEnded)[0].majority == (None, BOB if required else None, None, CAT)
    assert state.phase is Phase.CHOOSE_VICTIM and state.to_move == CAT
    assert state.pending.reason is MAJ and state.pending.required is required
    if required:
        with pytest.raises(errors.VictimRequired):
            run(state, ">-")
        state, events = run(state, ">Bob")
        assert actions(events) == [clubs(CAT, CAT, MAJ, BOB, 1, BOB)]
    else:
        state, events = run(state, ">-")
        assert actions(events)[0].points == 0
    assert (state.phase, state.round_no) == (Phase.DEAL, 2)


def test_R14_partnership_victim_names_another_team_never_oneself_or_the_partner():
    # 4 players in partnership (Ann+Cat against Bob+Dan), Dan deals: Ann leads 1H; Bob has no Hearts.
    game = new_game("Ann Bob Cat Dan", variants=["partnership"], dealer="Dan")
    start_round(game, ["1H 2H 3H 4H 5H 6H 7H 8H 9H 10H", "1C 2C 3C 4C 5C 6C 7C 8C 9C 10C",
                       "11H 12H 13H 14H 15H 11C 12C 13C 14C 15C", "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D"])
    play(game, "1H 1C")
    # One candidate team: the victim need not be named; any member names the team.
    assert game.state.pending.candidates == (0,) and not game.state.pending.required
    assert game.legal_moves() == (ChooseVictim(None), ChooseVictim(ANN), ChooseVictim(CAT))
    with pytest.raises(errors.VictimNotAllowed) as info:
        play(game, ">Dan")
    assert str(info.value) == "Bob cannot take from their own side (Bob+Dan) with Clubs (R14)"
    with pytest.raises(errors.VictimNotAllowed) as info:
        play(game, ">Bob")
    assert str(info.value) == "Bob cannot take from themselves with Clubs (R14)"
    events = play(game, ">Cat")
    assert actions(events) == [clubs(BOB, 1, OFF, 0, 1, 0)]
    assert game.state.showroom == (5, 7)
    game.pop()
    events = play(game, ">-")  # not named: the only other team
    assert actions(events) == [clubs(BOB, 1, OFF, 0, 1, 0)]


SIX_HANDS = ["1H 2H 3H 4H 5H 6H 7H 8H 9H 10H", "1C 2C 3C 4C 5C 6C 7C 8C 9C 10C",
             "11H 12H 13H 14H 15H 11C 12C 13C 14C 15C", "1D 2D 3D 4D 5D 6D 7D 8D 9D 10D",
             "11D 12D 13D 14D 15D 1S 2S 3S 4S 5S", "6S 7S 8S 9S 10S 11S 12S 13S 14S 15S"]


@pytest.mark.parametrize("rules", ["1e", "2e", "bga"])
def test_R14_six_player_partnership_victim_required_between_two_other_teams(rules):
    # Teams: Ann+Dan (0), Bob+Eve (1), Cat+Fay (2). Ann leads 1H (R7: Fay deals; with bga Ann deals),
    # Bob has no Hearts. No Thief in partnership, whatever the rule set.
    dealer = "Ann" if rules == "bga" else "Fay"
    game = new_game("Ann Bob Cat Dan Eve Fay", rules=rules, variants=["partnership"], dealer=dealer)
    start_round(game, SIX_HANDS)
    play(game, "1H 1C")
    pending = game.state.pending
    assert (pending.side, pending.candidates, pending.required) == (1, (0, 2), True)
    with pytest.raises(errors.VictimRequired) as info:
        play(game, ">-")
    assert str(info.value) == ("Bob must name whose Showroom the Clubs action takes from: "
                               "Ann+Dan (6), Cat+Fay (6) (R14)")
    with pytest.raises(errors.VictimNotAllowed):
        play(game, ">Eve")
    events = play(game, ">Fay")  # names team Cat+Fay
    assert actions(events) == [clubs(BOB, 1, OFF, 2, 1, 2)]
    assert game.state.showroom == (6, 7, 5)


# --------------------------------------------------------------------------- R15 Thief placement


@pytest.mark.parametrize("rules", ["2e", "bga"])
@pytest.mark.parametrize("dealer", [ANN, BOB, CAT])
def test_R15_thief_starts_with_the_dealers_left_neighbour(rules, dealer):
    game = new_game(rules=rules, dealer=dealer)
    assert game.state.thief == (dealer + 1) % 3
    events = start_round(game, R1_HANDS)
    assert events[0] == RoundStarted(1, dealer, (dealer + 1) % 3)


def test_R15_R7_bga_dealer_leads_and_thief_is_reset_every_round():
    # bga, Ann deals and leads; the Thief starts with Bob. Ann holds the top cards and wins all.
    game = new_game(rules="bga", dealer="Ann")
    start_round(game, [BOB_WINS_ALL[BOB], BOB_WINS_ALL[ANN], BOB_WINS_ALL[CAT]])
    assert (game.state.leader, game.state.to_move, game.state.thief) == (ANN, ANN, BOB)
    events = play(game, "13D 1D 4D  14D 2D 5D  15D 3D 6D  13H 1H 4H  14H 2H 5H  15H 3H 6H  "
                        "14S 1S 3S  15S 2S 4S  14C 1C 3C  15C 2C 4C")
    # Trick 9 robs Bob (Thief -> Cat), trick 10 robs Cat (-> Ann), the Clubs award finds Ann holding
    # it (-> Bob).
    thief_path = [(a.thief_before, a.thief_after) for a in actions(events) if a.suit is C]
    assert thief_path == [(BOB, CAT), (CAT, ANN), (ANN, BOB)]
    # Round 2: Bob deals, so the Thief is put back with Bob's left neighbour, Cat; Bob leads.
    state = game.state
    assert (state.round_no, state.dealer, state.thief, state.leader) == (2, BOB, CAT, BOB)
    events = start_round(game, R1_HANDS)
    assert events[0] == RoundStarted(2, BOB, CAT)
    assert game.state.to_move == BOB


# --------------------------------------------------------------------------- R16 majorities


def test_R16_awards_go_in_order_hearts_before_spades():
    # Last trick: Ann leads 1D, Bob 2D, Cat 3D: Cat wins (Diamonds to her Vault). Bob starts with an
    # empty Showroom and holds the Hearts (5) and Spades (4) majorities: Hearts gives him a point,
    # which Spades then moves to his Vault. (Spades before Hearts would move nothing.)
    config = configure(["Ann", "Bob", "Cat"])
    state = last_trick(config, ["1D", "2D", "3D"], leader=ANN, showroom=(3, 0, 3),
                       taken=[(3, 2, 2, 2), (0, 5, 4, 0), (3, 2, 2, 2)], tricks_won=[3, 3, 3])
    state, events = run(state, "1D 2D 3D")
    # Taken: D Ann 3 / Cat 6 -> Cat; H Bob; S Bob; C 2-0-2 tie.
    assert of_type(events, RoundEnded)[0].majority == (CAT, BOB, BOB, None)
    assert [a for a in actions(events) if a.reason is MAJ] == [
        SuitAction(CAT, CAT, D, MAJ, SUPPLY, vault(CAT), 1),
        SuitAction(BOB, BOB, H, MAJ, SUPPLY, showroom(BOB), 1),
        SuitAction(BOB, BOB, S, MAJ, showroom(BOB), vault(BOB), 1),
    ]
    assert (state.showroom, state.vault) == ((3, 0, 3), (0, 1, 2))


def test_R16_awards_go_in_order_diamonds_before_hearts():
    # One point left in the Supply. Last trick: a Spades trick Cat wins (no Supply needed).
    # Cat's Diamonds majority takes the last point; Bob's Hearts majority then finds none.
    config = configure(["Ann", "Bob", "Cat"])
    state = last_trick(config, ["1S", "2S", "3S"], leader=ANN, supply=1, vault=(75, 75, 75),
                       taken=[(2, 2, 3, 2), (0, 6, 1, 2), (4, 1, 2, 2)], tricks_won=[3, 3, 3])
    state, events = run(state, "1S 2S 3S")
    # Taken: D 2/0/4 -> Cat; H 2/6/1 -> Bob; S 3/1/5 -> Cat; C 2/2/2 -> tie.
    assert of_type(events, RoundEnded)[0].majority == (CAT, BOB, CAT, None)
    assert [a for a in actions(events) if a.reason is MAJ] == [
        SuitAction(CAT, CAT, D, MAJ, SUPPLY, vault(CAT), 1),
        SuitAction(BOB, BOB, H, MAJ, SUPPLY, showroom(BOB), 0),
        SuitAction(CAT, CAT, S, MAJ, showroom(CAT), vault(CAT), 1),
    ]


def test_R16_a_tie_for_the_most_gives_nobody_the_action_but_a_lower_tie_does_not_matter():
    config = configure(["Ann", "Bob", "Cat", "Dan"])
    # Last trick: Ann leads 1H, all follow, Dan wins with 4H.
    state = last_trick(config, ["1H", "2H", "3H", "4H"], leader=ANN, thief=CAT,
                       taken=[(5, 0, 3, 4), (5, 2, 1, 1), (1, 0, 1, 1), (0, 6, 0, 0)],
                       tricks_won=[3, 2, 1, 3])
    state, events = run(state, "1H 2H 3H 4H")
    # D 5/5/1/0: tie for the most -> nobody. H 0/2/0/10 -> Dan. S 3/1/1/0 -> Ann (1-1 below is no
    # matter). C 4/1/1/0 -> Ann, robbing the Thief's holder Cat.
    assert of_type(events, RoundEnded)[0].majority == (None, DAN, ANN, ANN)
    awards = [a for a in actions(events) if a.reason is MAJ]
    assert [(a.actor, a.suit) for a in awards] == [(DAN, H), (ANN, S), (ANN, C)]
    assert awards[-1] == clubs(ANN, ANN, MAJ, CAT, 1, CAT, before=CAT, after=DAN)


# Partnership, 4 players, 2e, Dan deals: Ann leads. Teams: Ann+Cat (0), Bob+Dan (1).
# Each player holds D3 H3 S2 C2; every trick is followed. Winners, trick by trick:
# Ann D, Bob D, Bob D, Bob H, Bob S, Cat H, Cat C, Ann H, Ann S, Ann C. Dan wins nothing.
PARTNER_HANDS = ["15D 4D 9D 3H 6H 13H 3S 14S 2C 14C",
                 "1D 14D 13D 15H 4H 9H 15S 4S 3C 4C",
                 "2D 5D 7D 1H 14H 7H 1S 5S 15C 5C",
                 "3D 6D 8D 2H 5H 8H 2S 6S 1C 6C"]
PARTNER_PLAYS = ("15D 1D 2D 3D  4D 14D 5D 6D  13D 7D 8D 9D  15H 1H 2H 3H  15S 1S 2S 3S  "
                 "4H 14H 5H 6H  15C 1C 2C 3C >-  7H 8H 13H 9H  14S 4S 5S 6S  14C 4C 5C 6C >-")


def test_R2_R10_R16_R17_partnership_round():
    game = new_game("Ann Bob Cat Dan", variants=["partnership"], dealer="Dan")
    start_round(game, PARTNER_HANDS)
    events = play(game, PARTNER_PLAYS)
    # Trick actions by hand (team Showroom/Vault, start 6/0 each, Supply 223):
    # A: D v1; B: D v2; B: H s7; B: S s6 v3; A: H s7; A: C robs B (A s8, B s5); A: H s9; A: S s8 v2;
    # A: C robs B (A s9, B s4).  Supply 223 - 6 = 217.
    ended = of_type(events, RoundEnded)[0]
    # R10/R16: the partners' cards together: A took D4 H8 S4 C8, B took D8 H4 S4 C0.
    assert ended.taken == ((4, 8, 4, 8), (8, 4, 4, 0))
    assert ended.tricks_won == (4, 4, 2, 0)
    # Hearts: Ann, Bob and Cat took 4 each (no single player has the most), but team A has 8.
    # Spades: 4-4 between the teams, a tie.
    assert ended.majority == (1, 0, None, 0)
    assert game.state.phase is Phase.CHOOSE_VICTIM  # the team's Clubs award waits for a victim
    assert game.state.to_move == ANN and game.state.pending.actor is None
    events += play(game, ">-")
    awards = [a for a in actions(events) if a.reason is MAJ]
    assert awards == [SuitAction(None, 1, D, MAJ, SUPPLY, vault(1), 1),
                      SuitAction(None, 0, H, MAJ, SUPPLY, showroom(0), 1),
                      clubs(None, 0, MAJ, 1, 1, 1)]
    # R17: Dan won no trick: two Diamonds, into his team's Vault although Bob won four tricks.
    assert [a for a in actions(events) if a.reason is NONE] == [
        SuitAction(DAN, 1, D, NONE, SUPPLY, vault(1), 1)] * 2
    state = game.state
    assert state.showroom == (11, 3)  # A 9 +1 (H) +1 (C); B 4 -1 (C)
    assert state.vault == (2, 6)      # B 3 +1 (D) +2 (Dan)
    assert state.supply == 213        # 217 - 1 (D) - 1 (H) - 2 (Dan)
    assert (state.round_no, state.dealer) == (2, ANN)


# --------------------------------------------------------------------------- R17 no-trick bonus


def test_R17_bonus_order_starts_at_the_dealers_left_not_at_the_first_seat():
    # 4 players, Bob deals. Ann and Cat won no trick: from Bob's left the order is Cat, Dan, Ann.
    config = configure(["Ann", "Bob", "Cat", "Dan"], dealer="Bob")
    state = last_trick(config, ["1H", "2H", "3H", "4H"], leader=ANN, dealer=BOB, thief=CAT,
                       taken=[(0, 0, 0, 0), (9, 5, 0, 4), (0, 0, 0, 0), (9, 5, 0, 4)],
                       tricks_won=[0, 5, 0, 4])
    state, events = run(state, "1H 2H 3H 4H")  # Dan wins: H 5/9 -> Dan; D, C tied; S none
    bonus = [a.actor for a in actions(events) if a.reason is NONE]
    assert bonus == [CAT, CAT, ANN, ANN]


# --------------------------------------------------------------------------- R18 end of game


def _config(n=3, variants=()):
    return configure(["Ann", "Bob", "Cat", "Dan"][:n], variants=variants)


def test_R18_highest_score_wins():
    # Scores 2*5+1 = 11, 2*3+6 = 12, 2*0+10 = 10: Bob.
    res = results_of(_config(), (1, 6, 10), (5, 3, 0))
    assert res == (FitzgeraldResult(ANN, 11, False, vault=5, showroom=1), FitzgeraldResult(BOB, 12, True, vault=3, showroom=6),
                   FitzgeraldResult(CAT, 10, False, vault=0, showroom=10))


def test_R18_tie_on_score_broken_by_vault():
    # Scores 2*5+2 = 12, 2*4+4 = 12, 2*0+12 = 12: all tied, Ann has the most in her Vault.
    res = results_of(_config(), (2, 4, 12), (5, 4, 0))
    assert [r.score for r in res] == [12, 12, 12]
    assert [r.winner for r in res] == [True, False, False]


def test_R18_vault_only_breaks_ties_among_the_top_scores():
    # Cat has the biggest Vault but a lower score (2*9+0 = 18 < 20): Ann (2*6+8) and Bob (2*7+6)
    # tie on 20; Bob's Vault is bigger.
    res = results_of(_config(), (8, 6, 0), (6, 7, 9))
    assert [r.winner for r in res] == [False, True, False]


def test_R18_still_tied_shares_the_win():
    # 2*4+3 = 11 for Ann and Bob, both Vault 4; Cat 2*3+5 = 11 but Vault 3.
    res = results_of(_config(), (3, 3, 5), (4, 4, 3))
    assert [r.winner for r in res] == [True, True, False]
    assert GameEnded(res).winners == (ANN, BOB)


def test_R18_partnership_scores_per_team():
    res = results_of(_config(4, ["partnership"]), (11, 3), (2, 6))
    # 2*2+11 = 15 and 2*6+3 = 15: tied, team Bob+Dan has the bigger Vault.
    assert [(r.side, r.score, r.winner) for r in res] == [(0, 15, False), (1, 15, True)]


def test_R18_game_ended_event_at_the_end_of_a_whole_game():
    game = new_game("Ann Bob", dealer="Ann")
    rng = random.Random(11)
    events = []
    while not game.state.is_over:
        events += play_whole_round(game, _shuffled_hands(game.config, rng))
    [ended] = of_type(events, GameEnded)
    assert events[-1] is ended
    state = game.state
    for r in ended.results:
        assert (r.vault, r.showroom) == (state.vault[r.side], state.showroom[r.side])
        assert r.score == 2 * r.vault + r.showroom
    best = max((r.score, r.vault) for r in ended.results)
    assert ended.winners == tuple(r.side for r in ended.results if (r.score, r.vault) == best)
    assert results(state) == ended.results


# --------------------------------------------------------------------------- errors


def _passing(count: int, *moves) -> Callable[[], None]:
    """Cat deals PASS_DEAL and chooses to pass `count` cards; then the moves are made."""
    def trigger() -> None:
        game = new_game(dealer="Cat")
        game.push(Deal(PASS_DEAL))
        game.push(ChoosePassCount(count))
        for move in moves:
            game.push(move)
    return trigger


def _r13(plays: str, *moves) -> Callable[[], None]:
    """A 1e round of R13_HANDS (Ann deals): the plays, then the moves."""
    def trigger() -> None:
        game = new_game(rules="1e", dealer="Ann")
        start_round(game, R13_HANDS)
        if plays:
            play(game, plays)
        for move in moves:
            game.push(move)
    return trigger


def _bad_deal() -> None:
    game = new_game()
    game.push(Deal((PASS_DEAL[0], PASS_DEAL[1][:9], PASS_DEAL[2])))


ERROR_CASES = [
    pytest.param(_passing(5), errors.WrongPassCount, "R6", "Cat", id="pass_count"),
    pytest.param(_passing(2, PassCards(BOB, cards("1H"))), errors.WrongPassCount, "R6", "Bob", id="pass_size"),
    pytest.param(_passing(1, PassCards(BOB, cards("1H")), PassCards(BOB, cards("2H"))), errors.OutOfTurn, "R6", "Bob",
                 id="pass_twice"),
    pytest.param(_passing(2, PassCards(ANN, cards("1D 1D"))), errors.InvalidPass, "R6", "Ann", id="pass_same_card"),
    pytest.param(_passing(1, PlayCard(card("1D"))), WrongPhase, "R6", "Ann", id="play_while_passing"),
    pytest.param(lambda: play(r8_game(), "1C"), errors.CardNotHeld, "R8", "Ann", id="not_held"),
    pytest.param(lambda: play(r8_game(), "5H 3D"), errors.MustFollowSuit, "R8", "Bob", id="must_follow"),
    pytest.param(_bad_deal, errors.InvalidDeal, "R5", "Bob", id="bad_deal"),
    pytest.param(_r13("5H 7C >-"), errors.VictimRequired, "R14", "Cat", id="victim_required"),
    pytest.param(_r13("5H 7C >Cat"), errors.VictimNotAllowed, "R14", "Cat", id="victim_self"),
    pytest.param(_r13("", PlayCard(card("5H")), PlayCard(card("7C")), ChooseVictim(7)), errors.VictimNotAllowed, "R14", "Cat",
                 id="victim_off_table"),
]


@pytest.mark.parametrize("trigger, error, rule, player", ERROR_CASES)
def test_errors_carry_their_ruling_and_name_the_player(trigger, error, rule, player):
    with pytest.raises(error) as info:
        trigger()
    assert info.value.rule == rule
    message = str(info.value)
    assert message.endswith(f" ({rule})")
    assert player in message
    assert info.value.reason == message.removesuffix(f" ({rule})")
    assert isinstance(info.value, ValueError)
