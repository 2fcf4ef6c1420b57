"""Input errors (FORMAT.md): every rejection is a ValueError that names the field at fault."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from solver.cards import Card
from solver.errors import (
    CardError,
    DuplicateCardError,
    IllegalMoveError,
    OptionError,
    PlisError,
    PositionError,
    UnknownGameError,
)
from solver.position import Position, load_position

from .test_features import deal_of

# one suit a seat: a valid Klaverjas deal
SUITED = ["SA SK SQ SJ ST S9 S8 S7", "HA HK HQ HJ HT H9 H8 H7", "CA CK CQ CJ CT C9 C8 C7", "DA DK DQ DJ DT D9 D8 D7"]
MIXED = [
    "SA SK SQ SJ HK HQ CA CK",
    "ST S9 HA HT CQ CJ DA DK",
    "S8 S7 H9 H8 CT C9 DQ DJ",
    "HJ H7 C8 C7 DT D9 D8 D7",
]


def klaverjas(**changes):
    data = {"game": "klaverjas", "trump": "H", "declarer": 0, "hands": list(SUITED)}
    data.update(changes)
    return data


def rejects(data, error, field):
    """`data` is rejected with `error` (a ValueError) naming `field`; returns the exception."""
    with pytest.raises(error) as info:
        Position.from_dict(data)
    assert isinstance(info.value, ValueError) and isinstance(info.value, PlisError)
    assert info.value.field == field, info.value
    return info.value


def test_the_base_positions_are_valid():
    # so that every rejection below is caused by the one change it makes
    assert Position.from_dict(klaverjas()).legal_moves()
    assert Position.from_dict(klaverjas(hands=list(MIXED))).legal_moves()


def test_every_error_is_a_value_error():
    for cls in (CardError, DuplicateCardError, IllegalMoveError, OptionError, PositionError, UnknownGameError):
        assert issubclass(cls, PlisError) and issubclass(cls, ValueError)


# --- cards ------------------------------------------------------------------------------------------------


def test_unknown_card_token():
    hands = list(SUITED)
    hands[1] = "HA HK HQ HJ HT H9 H8 XX"
    rejects(klaverjas(hands=hands), CardError, "hands[1][7]")


def test_unknown_card_token_in_trick():
    rejects(klaverjas(trick=["S1"]), CardError, "trick[0]")


@pytest.mark.parametrize(
    "token, meant",
    [("10H", "HT"), ("H10", None), ("AH", "HA"), ("js", "SJ"), ("♥A", "HA"), ("♠10", "ST"), ("QS", "SQ")],
)
def test_a_card_written_another_way_gets_a_suggestion(token, meant):
    """A card written rank first, with a 10 or a suit symbol: the message says which
    card that likely is ("H10" is read as HT)."""
    hands = list(SUITED)
    hands[1] = f"HA HK HQ HJ {'HT' if meant is None else token} H9 H8 H7"
    if meant is None:
        assert Card.parse(token) == Card.parse("HT")
        return
    error = rejects(klaverjas(hands=hands), CardError, "hands[1][4]")
    assert error.message.startswith(f'"{token}" is not a card (suit CSHD then rank AKQJT9876')
    assert error.message.endswith(f'did you mean "{meant}"?')


def test_cards_run_together_with_commas_are_told_apart():
    hands = list(SUITED)
    hands[1] = "HA,HK,HQ,HJ,HT,H9,H8,H7"
    error = rejects(klaverjas(hands=hands), CardError, "hands[1][0]")
    assert "looks like several cards: one card a token" in error.message
    error = rejects(klaverjas(trick=["SA,ST"]), CardError, "trick[0]")
    assert "looks like several cards" in error.message
    error = rejects(klaverjas(hands=hands[:1] + ["XX HK"] + hands[2:]), CardError, "hands[1][0]")
    assert error.message == '"XX" is not a card (suit CSHD then rank AKQJT9876, e.g. "HJ")'  # no guess made up


def test_card_not_in_the_game():
    hands = list(SUITED)
    hands[0] = "SA SK SQ SJ ST S9 S8 S6"  # no Sixes in Klaverjas
    rejects(klaverjas(hands=hands), CardError, "hands[0]")


def test_six_is_a_card_in_jass():
    hands = [
        "SA SK SQ SJ ST S9 S8 S7 S6",
        "HA HK HQ HJ HT H9 H8 H7 H6",
        "CA CK CQ CJ CT C9 C8 C7 C6",
        "DA DK DQ DJ DT D9 D8 D7 D6",
    ]
    assert Position.from_dict({"game": "jass", "trump": "H", "hands": hands}).to_move == 0


def test_duplicate_card_between_hands():
    hands = list(SUITED)
    hands[1] = "SA HK HQ HJ HT H9 H8 H7"  # SA also in seat 0's hand
    rejects(klaverjas(hands=hands), DuplicateCardError, "hands[1]")


def test_duplicate_card_in_one_hand():
    hands = list(SUITED)
    hands[2] = "CA CA CQ CJ CT C9 C8 C7"
    rejects(klaverjas(hands=hands), DuplicateCardError, "hands[2]")


def test_duplicate_card_between_hand_and_trick():
    hands = list(SUITED)
    hands[0] = "SA SK SQ SJ ST S9 S8"  # 7 cards, as seat 0 has led, but it still holds the SA it led
    rejects(klaverjas(hands=hands, trick=["SA"]), DuplicateCardError, "trick[0]")


# --- seats, hands, tricks -----------------------------------------------------------------------------------


def test_wrong_number_of_hands():
    rejects(klaverjas(hands=SUITED[:3]), PositionError, "hands")
    rejects({"game": "putz", "trump": "H", "options": {"players": 5}, "hands": ["SA", "SK", "SQ"]}, PositionError, "hands")


def test_hands_not_a_list():
    rejects(klaverjas(hands="SA SK"), PositionError, "hands")


def test_wrong_hand_size():
    hands = list(SUITED)
    hands[2] = "CA CK CQ CJ CT C9 C8"  # 7 cards while the others hold 8
    rejects(klaverjas(hands=hands, tricks=[0, 0]), PositionError, "hands[2]")


def test_hand_size_does_not_fit_tricks():
    # the hands agree with each other (no trick played), so `tricks` is what is wrong
    error = rejects(klaverjas(tricks=[1, 0]), PositionError, "tricks")
    assert error.message == "add up to 1 trick played, but the hands (and 0 cards on the trick) hold what is left after 0 tricks"
    hands = list(SUITED)
    hands[3] = "DA DK DQ DJ DT D9 D8"  # one hand a card short: that hand is named
    error = rejects(klaverjas(hands=hands, tricks=[0, 0]), PositionError, "hands[3]")
    assert error.message == "holds 7 cards; with 0 tricks played and 0 cards on the trick it should hold 8"


def test_tricks_required_once_a_trick_was_played():
    hands = [h.rsplit(" ", 1)[0] for h in SUITED]  # 7 cards each
    rejects(klaverjas(hands=hands), PositionError, "tricks")
    assert Position.from_dict(klaverjas(hands=hands, tricks=[1, 0])).tricks_left == 7


def test_one_hand_short_without_tricks_names_that_hand_not_tricks():
    """A hand written a card short (tricks left out, as before any play): the hand that
    differs from the others is named, not `tricks`, which no count would put right."""
    hands = list(SUITED)
    hands[1] = "HA HK HQ HJ HT H9 H8"  # 7 cards, the others 8
    error = rejects(klaverjas(hands=hands), PositionError, "hands[1]")
    assert error.message == "holds 7 cards, but by the other hands it should hold 8: a card left out, or one too many?"
    hands = [h.rsplit(" ", 1)[0] for h in SUITED]  # every hand 7 cards: now tricks are missing
    error = rejects(klaverjas(hands=hands), PositionError, "tricks")
    assert "the 8 a klaverjas deal gives each seat" in error.message
    hands[0] = SUITED[0]  # one hand 8, the others 7 (and no tricks): the odd one out is named
    error = rejects(klaverjas(hands=hands), PositionError, "hands[0]")
    assert "holds 8 cards, but by the other hands it should hold 7" in error.message


def test_a_deal_a_card_short_says_what_the_deal_gives():
    deal = list(SUITED)
    deal[2] = "CA CK CQ CJ CT C9 C8"
    with pytest.raises(PositionError) as info:
        Position.from_dict({"game": "klaverjas", "trump": "H", "declarer": 0, "deal": deal, "played": []})
    assert info.value.field == "deal[2]"
    assert info.value.message == "holds 7 cards; a klaverjas deal gives each seat 8"


def test_the_wrong_number_of_hands_says_how_to_ask_for_that_many_players():
    """Four hands of Klaberjass without options: the game's default is 2 players, and
    the message says which option gives 4."""
    data = {"game": "klaberjass", "trump": "H", "taker": 0, "hands": list(SUITED)}
    error = rejects(data, PositionError, "hands")
    assert error.message == (
        'klaberjass has 2 players (options.players: 2, the default); got 4 hands: for 4 players give "options": {"players": 4}'
    )
    error = rejects(klaverjas(hands=SUITED[:3]), PositionError, "hands")
    assert error.message == "klaverjas has 4 players; got 3 hands"


def test_a_played_card_not_held_says_where_it_is():
    """A card played twice, or a card of another seat's: the error says where it is,
    which points at the slip (a card written twice, two cards swapped)."""
    data = {"game": "belote", "trump": "D", "deal": list(MIXED)}
    with pytest.raises(IllegalMoveError) as info:
        Position.from_dict({**data, "played": ["SA", "ST", "S8", "SA"]})
    assert info.value.field == "played[3]"
    assert info.value.message == "seat 3 does not hold SA (it was played already: played[0])"
    with pytest.raises(IllegalMoveError) as info:
        Position.from_dict({**data, "played": ["SA", "S8"]})
    assert info.value.message == "seat 1 does not hold S8 (seat 2 holds it)"


def test_tricks_add_up_to_too_many():
    rejects(klaverjas(tricks=[5, 4]), PositionError, "tricks")


def test_tricks_and_scored_shape():
    rejects(klaverjas(tricks=[0, 0, 0]), PositionError, "tricks")
    rejects(klaverjas(tricks=[0, -1]), PositionError, "tricks[1]")
    rejects(klaverjas(scored=[0]), PositionError, "scored")
    rejects(klaverjas(scored=["10", 0]), PositionError, "scored[0]")


def test_hand_sizes_follow_the_leader():
    hands = list(SUITED)
    hands[2] = "CK CQ CJ CT C9 C8 C7"  # seat 2 led the CA
    assert Position.from_dict(klaverjas(hands=hands, trick=["CA"], leader=2)).to_move == 3
    error = rejects(klaverjas(hands=hands, trick=["CA"], leader=1, tricks=[0, 0]), PositionError, "leader")
    assert error.message == "is seat 1, but by the hands' sizes seat 2 led the 1 card on the trick"
    hands[1] = "HA HK HQ HJ HT H9"  # no seat's lead would fit: the first hand that does not is named
    rejects(klaverjas(hands=hands, trick=["CA"], leader=1, tricks=[0, 0]), PositionError, "hands[1]")


def test_trick_too_long():
    rejects(klaverjas(trick=["SA", "HA", "CA", "DA"]), PositionError, "trick")


def test_trick_in_progress_when_every_trick_is_played():
    rejects(klaverjas(hands=["", "", "", ""], trick=["SA"], tricks=[4, 4]), PositionError, "trick")


@pytest.mark.parametrize("leader", [4, -1, "1", True, 1.0])
def test_leader_out_of_range(leader):
    rejects(klaverjas(leader=leader), PositionError, "leader")


def test_a_null_leader_is_not_called_required():
    # FORMAT.md: leader defaults to 0, so a null one is a bad seat, not a missing field
    error = rejects(klaverjas(leader=None), PositionError, "leader")
    assert "required" not in error.message and error.message.endswith("got null")


@pytest.mark.parametrize("declarer", [4, -1, None, "0"])
def test_declarer_out_of_range_or_missing(declarer):
    data = klaverjas(declarer=declarer)
    if declarer is None:
        del data["declarer"]
    rejects(data, PositionError, "declarer")


def test_taker_out_of_range():
    hands = ["SA SK SQ SJ ST S9 S8 S7 HA", "HK HQ HJ HT H9 H8 H7 CA CK"]
    data = {"game": "klaberjass", "trump": "H", "taker": 2, "hands": hands}
    rejects(data, PositionError, "taker")  # 2 players: seats 0 and 1
    del data["taker"]
    rejects(data, PositionError, "taker")
    data["taker"] = 1
    assert Position.from_dict(data).rules.contract_seat == 1


def test_contract_field_of_another_game():
    rejects(klaverjas(taker=0), PositionError, "taker")
    rejects({"game": "jass", "trump": "H", "declarer": 0, "hands": list(SUITED)}, PositionError, "declarer")


# --- game, options, trump, objective, fields ---------------------------------------------------------------------


def test_unknown_game():
    rejects(klaverjas(game="skat"), UnknownGameError, "game")
    data = klaverjas()
    del data["game"]
    rejects(data, UnknownGameError, "game")


def test_unknown_field():
    rejects(klaverjas(dealer=1), PositionError, "dealer")


def test_unknown_option():
    rejects(klaverjas(options={"match_bonus": 100}), OptionError, "options.match_bonus")  # a Jass option
    rejects({"game": "bassadewitz", "options": {"rules": "seed"}, "hands": list(SUITED)}, OptionError, "options.rules")


@pytest.mark.parametrize(
    "options, field",
    [
        ({"rules": "utrecht"}, "options.rules"),
        ({"roem_order": "trick"}, "options.roem_order"),
        ({"nat_on_tie": "yes"}, "options.nat_on_tie"),
        ({"nat_on_tie": 1}, "options.nat_on_tie"),  # a boolean option takes true/false only
    ],
)
def test_bad_option_value(options, field):
    rejects(klaverjas(options=options), OptionError, field)


@pytest.mark.parametrize("bonus", [-1, "100", True, 1.5])
def test_bad_match_bonus(bonus):
    hands = ["SA", "SK", "SQ", "SJ"]
    data = {"game": "jass", "trump": "H", "options": {"match_bonus": bonus}, "hands": hands, "tricks": [4, 4]}
    rejects(data, OptionError, "options.match_bonus")


def test_bad_players_option():
    rejects({"game": "putz", "trump": "H", "options": {"players": 4}, "hands": ["SA"] * 4}, OptionError, "options.players")
    rejects(klaverjas(options=[]), OptionError, "options")


def test_missing_or_bad_trump():
    data = klaverjas()
    del data["trump"]
    rejects(data, PositionError, "trump")
    rejects(klaverjas(trump="X"), PositionError, "trump")
    rejects(klaverjas(trump="obenabe"), PositionError, "trump")  # only Jass has obenabe
    rejects({"game": "putz", "trump": "undeufe", "hands": ["SA", "SK", "SQ"]}, PositionError, "trump")
    rejects({"game": "bassadewitz", "trump": "H", "hands": list(SUITED)}, PositionError, "trump")


def test_objective_not_of_the_game():
    rejects(klaverjas(objective="points"), PositionError, "objective")
    rejects({"game": "bassadewitz", "objective": "score", "hands": list(SUITED)}, PositionError, "objective")
    rejects(
        {"game": "putz", "trump": "H", "objective": "all_tricks", "hands": ["SA", "SK", "SQ"]},
        PositionError,
        "objective",
    )
    with pytest.raises(PositionError) as info:
        Position.from_dict(klaverjas()).with_objective("pomme")
    assert info.value.field == "objective"


@pytest.mark.parametrize(
    "change, field, meant",
    [
        ({"game": "Klaverjas"}, "game", '"klaverjas"'),
        ({"game": "bésigue"}, "game", '"besigue"'),
        ({"game": "schieber"}, "game", '"jass"'),
        ({"trump": "hearts"}, "trump", '"H"'),
        ({"trump": "♠"}, "trump", '"S"'),
        ({"trump": "Carreau"}, "trump", '"D"'),
        ({"options": {"rule": "amsterdam"}}, "options.rule", '"rules"'),
        ({"options": {"roem order": "rank"}}, 'options."roem order"', '"roem_order"'),
        ({"options": {"rules": "Amsterdam"}}, "options.rules", '"amsterdam"'),
        ({"options": {"nat_on_tie": "true"}}, "options.nat_on_tie", "true, without quotes"),
        ({"objective": "Score"}, "objective", '"score"'),
    ],
)
def test_a_name_nearly_right_gets_a_suggestion(change, field, meant):
    """A name in another case, with an accent, a typo, or another name of the same
    thing: the message lists what is allowed and says which one was likely meant."""
    error = rejects(klaverjas(**change), PlisError, field)
    assert error.message.endswith(f"; did you mean {meant}?"), error.message


def test_no_suggestion_is_made_up():
    unlike = (({"game": "skat"}, "game"), ({"trump": "X"}, "trump"), ({"options": {"rules": "utrecht"}}, "options.rules"))
    for change, field in unlike:
        assert "did you mean" not in rejects(klaverjas(**change), PlisError, field).message
    error = rejects({"game": "klaberjass", "trump": "H", "taker": 0, "options": {"players": "4"}, "hands": list(SUITED)},
                    OptionError, "options.players")  # fmt: skip
    assert error.message == 'klaberjass option players must be one of 2, 4, got "4"; did you mean 4, without quotes?'
    assert rejects(klaverjas(game=""), UnknownGameError, "game").message.startswith("required")  # a message's unset game


def test_not_an_object_or_not_json():
    with pytest.raises(PositionError) as info:
        Position.from_json("{not json")
    assert info.value.field == "position"
    rejects([1, 2], PositionError, "position")


# --- deal and played -----------------------------------------------------------------------------------------------


def test_played_illegal_card_has_its_index():
    # seat 1 holds ST S9: its HA does not follow the SA
    data = klaverjas(deal=list(MIXED), played=["SA", "HA"])
    del data["hands"]
    err = rejects(data, IllegalMoveError, "played[1]")
    assert err.index == 1


def test_played_illegal_later_card():
    # SA S9 S7, then seat 3 (no spade, holds HJ H7) must trump in Rotterdam: C8 is illegal
    data = klaverjas(deal=list(MIXED), played=["SA", "S9", "S7", "C8"])
    del data["hands"]
    assert rejects(data, IllegalMoveError, "played[3]").index == 3
    data["played"] = ["SA", "S9", "S7", "H7", "DT"]  # trick won by seat 3, which may lead DT
    assert Position.from_dict(data).leader == 3


def test_played_card_not_held():
    data = klaverjas(deal=list(MIXED), played=["ST"])  # ST is seat 1's
    del data["hands"]
    assert rejects(data, IllegalMoveError, "played[0]").index == 0


def test_played_bad_token_and_shape():
    data = klaverjas(deal=list(MIXED), played=["SA", "S9", "ZZ"])
    del data["hands"]
    rejects(data, CardError, "played[2]")
    data["played"] = "SA S9"
    rejects(data, PositionError, "played")


def test_deal_errors():
    data = klaverjas(deal=[h.rsplit(" ", 1)[0] for h in MIXED], played=[])  # 7 cards each
    del data["hands"]
    rejects(data, PositionError, "deal[0]")
    rejects(klaverjas(deal=list(MIXED), played=[]), PositionError, "hands")  # hands and deal together
    data = klaverjas(played=["SA"])
    del data["hands"]
    rejects(data, PositionError, "deal")  # played without deal
    # a card of no 32-card game, in a deal whose bonuses (Klaberjass's sequences) read the cards
    six = ["S6 " + MIXED[0].split(" ", 1)[1], MIXED[1]]
    rejects({"game": "klaberjass", "trump": "H", "taker": 0, "deal": six, "played": []}, CardError, "deal[0]")


def test_play_illegal_move():
    pos = Position.from_dict(klaverjas(hands=list(MIXED))).play("SA")
    with pytest.raises(IllegalMoveError) as info:
        pos.play("HA")  # seat 1 must follow spades
    assert info.value.field == "move" and info.value.index is None
    with pytest.raises(IllegalMoveError):
        pos.play("CA")  # not seat 1's card
    with pytest.raises(CardError):
        pos.play("C1")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000, "nested too deeply"),
        (b'{"game": "\xff"}', "not UTF-8 text (byte 11)"),
        (None, "expected JSON text (str or bytes), got NoneType"),
        ('{"game": ', "not valid JSON"),
        # was a bare ValueError
        ('{"game": "belote", "tricks": [' + "9" * 5000 + "]}", "an integer of 5,000 digits (at most 4,300 are read)"),
        ('{"game": "belote", "tricks": [NaN, 1]}', "NaN is not a JSON number"),  # read as a float, then refused as one
        ('{"game": "belote", "tricks": [-Infinity, 1]}', "-Infinity is not a JSON number"),
    ],
)
def test_text_that_is_not_json_is_a_position_error(text, message):
    with pytest.raises(PositionError, match=re.escape(message)) as info:
        Position.from_json(text)
    assert info.value.field == "position"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('{"game": "belote", "trump": "H", "trump": "S"}', "trump"),  # was the last one, silently
        ('{"game": "jass", "options": {"match_bonus": 0, "match_bonus": 100}}', "options.match_bonus"),
        ('{"game": "jass", "x": [1, [{"a": 1}, {"b": 2, "b": 3}]]}', "x[1][1].b"),
        ('{"game": "jass", "x": ' + '{"a": ' * 50 + '{"b": 1, "b": 2}' + "}" * 51, "x" + ".a" * 50 + ".b"),
    ],
)
def test_a_key_given_twice_is_a_position_error_naming_where_it_stands(text, field):
    with pytest.raises(PositionError, match=re.escape(f"the key {json.dumps(field.rsplit('.', 1)[-1])} appears twice")) as info:
        Position.from_json(text)
    assert info.value.field == field


@pytest.mark.parametrize(
    ("text", "key", "field"),
    [
        ('{"game": "belote", "": 1, "": 2}', "", '""'),  # was an empty field
        ('{"game": "jass", "options": {"": 0, "": 1}}', "", 'options.""'),
        ('{"game": "jass", "a b": {"x": 1, "x": 2}}', "x", '"a b".x'),
    ],
)
def test_a_key_given_twice_that_is_not_one_name_is_named_as_json(text: str, key: str, field: str) -> None:
    with pytest.raises(PositionError, match=re.escape(f"the key {json.dumps(key)} appears twice")) as info:
        Position.from_json(text)
    assert info.value.field == field


def test_an_engine_or_positions_of_the_wrong_kind_are_option_errors() -> None:
    from solver import BesigueEngine, analyse, analyse_many, analyse_play, hint

    position = {"game": "belote", "trump": "H", "hands": ["HJ H9", "HT HK", "HQ H8", "H7 SJ"], "tricks": [3, 3]}
    played = {"game": "belote", "trump": "H", "deal": deal_of("belote", 1), "played": []}
    for call, given in ((analyse, position), (hint, position), (analyse_play, played)):
        for engine in ("engine", 5, BesigueEngine(1)):
            with pytest.raises(OptionError) as info:
                call(given, engine=engine)  # type: ignore[operator]
            assert info.value.field == "engine"
    for positions in (5, None, position, json.dumps(position)):
        with pytest.raises(OptionError) as info:
            analyse_many(positions)  # type: ignore[arg-type]
        assert info.value.field == "positions"
    # JSON text as bytes, as Position.from_json takes it
    assert analyse(json.dumps(position).encode()).value == analyse(position).value


@pytest.mark.parametrize(
    ("levers", "message"),
    [
        ([("claims", 0)], "must be a mapping of lever names to numbers, got list"),  # was AttributeError
        ({"no_such_lever": 0}, "unknown lever 'no_such_lever'"),  # was a plain ValueError
        ({"claims": "off"}, "claims must be a whole number from 0 to 255, got 'off'"),  # was a plain ValueError
        ({"claims": 1.5}, "claims must be a whole number from 0 to 255, got 1.5"),  # was taken as 1
        ({"endgame_tricks": -1}, "endgame_tricks must be a whole number from 0 to 255, got -1"),
        ({"shape_set": 3}, "shape_set must be 2 or 4, got 3"),  # was the engine's plain ValueError
    ],
)
def test_bad_engine_options_are_option_errors(levers, message) -> None:
    from solver import analyse

    position = {"game": "belote", "trump": "H", "hands": ["HJ H9", "HT HK", "HQ H8", "H7 SJ"], "tricks": [3, 3]}
    with pytest.raises(OptionError, match=re.escape(message)) as info:
        analyse(position, engine_options=levers)
    assert info.value.field == "engine_options"
    assert analyse(position, engine_options={"claims": False}).value == analyse(position).value


def test_a_finished_deal_given_by_its_moves_names_played() -> None:
    from solver import analyse, hint
    from solver.analysis import require_a_move

    deal = deal_of("belote", 3)
    position = Position.from_dict({"game": "belote", "trump": "H", "deal": deal, "played": []})
    moves = []
    while not position.is_over:
        card = position.legal_moves()[0]
        moves.append(str(card))
        position = position.play(card)
    for call in (analyse, hint):
        with pytest.raises(PositionError, match="the deal is over") as info:
            call({"game": "belote", "trump": "H", "deal": deal, "played": moves})
        assert info.value.field == "played"
    with pytest.raises(PositionError) as info:  # the same deal given by its hands
        require_a_move(Position.from_dict(position.to_dict()))
    assert info.value.field == "hands"


def test_keys_that_are_not_strings_are_named_as_text() -> None:
    """A dict built in Python: the error's field was the key itself (a tuple), or a
    TypeError where keys of two kinds could not be sorted."""
    for data, field in (({"game": "belote", ("a",): 1}, "('a',)"), ({"game": "belote", 1: 2, "x": 3}, "1")):
        with pytest.raises(PositionError, match="unknown field") as info:
            Position.from_dict(data)
        assert info.value.field == field


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"": 1}, '""'),
        ({"trump ": "H"}, '"trump "'),
        ({"a.b": 1}, '"a.b"'),
        ({"options": {"": 1}}, 'options.""'),
        ({"options": {"rules ": "amsterdam"}}, 'options."rules "'),
    ],
)
def test_an_unknown_key_that_is_not_one_name_is_named_as_json(data: dict[str, Any], field: str) -> None:
    """An empty key gave an error with an empty field (found by a coverage-guided fuzzer),
    which reads as no field at all; a key with a space or a dot read as another path."""
    with pytest.raises(PlisError, match="unknown field|has no option") as info:
        load_position({"game": "klaverjas", "trump": "H", "declarer": 0, "hands": deal_of("klaverjas", 1, "H"), **data})
    assert info.value.field == field


def test_an_error_does_not_repeat_megabytes_of_input() -> None:
    with pytest.raises(PlisError) as info:
        Position.from_dict({"game": "x" * 5_000_000})
    message = info.value.message  # the name cut short, the games known
    assert len(message) < 300
    assert re.search(r'^unknown game "x{79}\.\.\. \(5,000,\d{3} characters\) \(known: bassadewitz', message)
    with pytest.raises(PlisError) as info:
        Position.from_dict({"game": "belote", "trump": "H", "x" * 1_000_000: 1})
    assert len(info.value.field) < 250 and len(str(info.value)) < 900


@pytest.mark.parametrize(
    ("options", "field", "message"),
    [
        ({"time_limit": 10**400}, "time_limit", "a float can hold"),  # was an OverflowError
        ({"node_limit": 10**5000}, "node_limit", "thousands of digits"),  # was Python's ValueError about digits
        ({"tt_megabytes": 10**5000}, "tt_megabytes", "thousands of digits"),
    ],
)
def test_numbers_too_large_to_use_are_option_errors(options: dict[str, Any], field: str, message: str) -> None:
    from solver import analyse

    position = {"game": "belote", "trump": "H", "hands": ["HJ", "H9", "HA", "HT"], "tricks": [3, 4]}
    with pytest.raises(OptionError, match=message) as info:
        analyse(position, **options)
    assert info.value.field == field


def test_null_tricks_are_left_out_as_null_scored_is() -> None:
    """`tricks: null` was read as zeros given, and the error blamed the hands."""
    position = {"game": "klaverjas", "trump": "H", "declarer": 1, "hands": ["SA S7", "ST D7", "C7 C8", "SK D8"],
                "scored": None, "tricks": None}  # fmt: skip
    with pytest.raises(PositionError, match="required once a trick has been played") as info:
        Position.from_dict(position)
    assert info.value.field == "tricks"
    assert Position.from_dict({**position, "tricks": [3, 3]}).scored == (0, 0)


def test_a_played_token_that_is_no_card_names_its_index() -> None:
    deal = deal_of("belote", 1)
    first = deal[0].split()[0]
    with pytest.raises(CardError) as info:
        Position.from_dict({"game": "belote", "trump": "H", "deal": deal, "played": [first, "XX"]})
    assert (info.value.field, info.value.index) == ("played[1]", 1)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"game": "jass", "trump": "H", "options": {"buur_exception": "yes"}}, "options.buur_exception",
         'jass option buur_exception must be one of true, false, got "yes"'),
        ({"declarer": True}, "declarer", "must be a seat from 0 to 3, got true"),
        ({"options": None}, "options", "must be an object, got null"),
        ({"options": {"rules": "amsterdam", "nat": 1}}, "options.nat", 'klaverjas has no option "nat"'),
        ({"trump": ["H"]}, "trump", 'klaverjas trump must be one of C, S, H, D, got ["H"]'),
        ({"hands": "HJ"}, "hands", "must be a list of 4 hands, got \"HJ\""),
        ({"hands": [None, *SUITED[1:]]}, "hands[0]", "must be a list of cards, got null"),
        ({"hands": [[5], *SUITED[1:]]}, "hands[0][0]", 'a card must be a string like "HJ", got 5'),
    ],
)  # fmt: skip
def test_errors_quote_values_as_json_spells_them(changes: dict[str, Any], field: str, message: str) -> None:
    """Most input is JSON: `got True`, `got NoneType` or `'yes'` read wrongly to a user
    who writes true, null and "yes"."""
    error = rejects(klaverjas(**changes), PlisError, field)
    assert error.message.startswith(message), error.message


def test_a_value_json_cannot_spell_is_quoted_as_python_does() -> None:
    from solver.errors import shown

    loop: list[Any] = []
    loop.append(loop)  # json.dumps raises a ValueError here, as it does for an int too long to write out
    assert (shown(loop), shown({1}), shown(10**5000)) == ("[[...]]", "{1}", "an integer of thousands of digits")
