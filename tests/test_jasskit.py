"""Schieber rules against jass-kit (PyPI `jass-kit`, import `jass`): legal cards, trick winner, points.

jass-kit forbids only trumps below the *lowest* trump on a plain-suit trick, we forbid
those below the *highest* (RULES.md, "Jass"); the two differ only when two trumps
already lie on the trick.  Every disagreement on legal cards must be of that kind.
"""

from __future__ import annotations

import random

import pytest

from solver.cards import Card

from .helpers import make_rules

np = pytest.importorskip("numpy")
pytest.importorskip("jass")
from jass.game.const import card_ids  # noqa: E402
from jass.game.rule_schieber import RuleSchieber  # noqa: E402

TRUMP_CODES = {"D": 0, "H": 1, "S": 2, "C": 3, "obenabe": 4, "undeufe": 5}
KIT = RuleSchieber()


def kit_id(card: Card) -> int:
    return int(card_ids[card.suit + ("10" if card.rank == "T" else card.rank)])


def kit_legal(hand: list[Card], trick: list[Card], trump: str) -> set[Card]:
    onehot = np.zeros(36, np.int32)
    for card in hand:
        onehot[kit_id(card)] = 1
    current = [kit_id(c) for c in trick] + [-1] * (4 - len(trick))
    valid = KIT.get_valid_cards(onehot, current, len(trick), TRUMP_CODES[trump])
    return {card for card in hand if valid[kit_id(card)]}


def kit_winner(trick: list[Card], trump: str) -> int:
    # jass-kit seats play counter-clockwise: the winner is (first_player - index) mod 4
    return -KIT.calc_winner(np.array([kit_id(c) for c in trick]), 0, TRUMP_CODES[trump]) % 4


def kit_points(trick: list[Card], last: bool, trump: str) -> int:
    return KIT.calc_points(np.array([kit_id(c) for c in trick]), last, TRUMP_CODES[trump])


def documented_difference(rules, hand: list[Card], trick: list[Card], ours: set[Card], theirs: set[Card]) -> bool:
    """Two trumps lie on a plain-suit trick, and jass-kit also allows some trumps below the highest."""
    trump_group = rules.trump_group
    if trump_group is None or rules.group(trick[0]) == trump_group:
        return False
    on_trick = [c for c in trick if rules.is_trump(c)]
    if len(on_trick) < 2 or all(rules.is_trump(c) for c in hand):
        return False
    highest = max(rules.strength(c) for c in on_trick)
    extra = theirs - ours
    return ours < theirs and all(rules.is_trump(c) and rules.strength(c) < highest for c in extra)


def compare(rules, trump: str, hand: list[Card], trick: list[Card], tally: dict[str, int]) -> None:
    ours = set(rules.legal(hand, trick, 0))
    theirs = kit_legal(hand, trick, trump)
    if ours == theirs:
        tally["agree"] += 1
    else:
        assert documented_difference(rules, hand, trick, ours, theirs), (trump, hand, trick, ours, theirs)
        tally["documented"] += 1


def play_random_deal(rules, trump: str, rng: random.Random, tally: dict[str, int]) -> None:
    """A whole deal of random legal play (trumps favoured), checked card by card and trick by trick."""
    pack = list(rules.deck)
    rng.shuffle(pack)
    hands = [pack[i * 9 : (i + 1) * 9] for i in range(4)]
    leader = 0
    for trick_no in range(9):
        trick: list[Card] = []
        for k in range(4):
            seat = (leader + k) % 4
            compare(rules, trump, hands[seat], trick, tally)
            legal = rules.legal(hands[seat], trick, leader)
            trumps = [c for c in legal if rules.is_trump(c)]
            card = rng.choice(trumps if trumps and rng.random() < 0.5 else legal)
            hands[seat].remove(card)
            trick.append(card)
        won = rules.trick_winner(trick)
        assert won == kit_winner(trick, trump), (trump, trick)
        last = trick_no == 8
        assert rules.trick_value(trick, last) == kit_points(trick, last, trump), (trump, trick)
        tally["tricks"] += 1
        leader = (leader + won) % 4


def random_situation(rules, trump: str, rng: random.Random, tally: dict[str, int]) -> None:
    """Any hand of 1 to 9 cards facing any 0 to 3 cards; and any 4-card trick."""
    pack = list(rules.deck)
    rng.shuffle(pack)
    trick = pack[: rng.randint(0, 3)]
    hand = pack[4 : 4 + rng.randint(1, 9)]
    compare(rules, trump, hand, trick, tally)
    full = pack[:4]
    assert rules.trick_winner(full) == kit_winner(full, trump), (trump, full)
    last = rng.random() < 0.5
    assert rules.trick_value(full, last) == kit_points(full, last, trump), (trump, full)


@pytest.mark.parametrize("trump", list(TRUMP_CODES))
def test_against_jass_kit(trump):
    rules = make_rules("jass", trump)  # buur_exception on, as in jass-kit
    rng = random.Random(f"jasskit-{trump}")
    tally = {"agree": 0, "documented": 0, "tricks": 0}
    for _ in range(40):
        play_random_deal(rules, trump, rng, tally)
    for _ in range(1500):
        random_situation(rules, trump, rng, tally)
    assert tally["agree"] > 2500 and tally["tricks"] == 360
    if trump in ("obenabe", "undeufe"):
        assert tally["documented"] == 0  # no trumps, no difference
    else:
        assert tally["documented"] > 0, tally  # the difference was met, and only it


def test_the_documented_difference_itself():
    # SA led, H6 and HK trumped: jass-kit allows HQ (above the lowest, H6); we do not (below HK)
    rules = make_rules("jass", "H")
    hand = [Card.parse("HQ"), Card.parse("C9")]
    trick = [Card.parse(t) for t in ("SA", "H6", "HK")]
    assert kit_legal(hand, trick, "H") == {Card.parse("HQ"), Card.parse("C9")}
    assert set(rules.legal(hand, trick, 0)) == {Card.parse("C9")}
