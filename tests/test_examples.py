"""The files in examples/: each is answered by the command README.md gives it, and the
puzzles' claims are the hand-checked values below."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from solver import GAMES, Position, analyse, hint, verify_puzzle

from .helpers import ROOT
from .test_cli import comparable
from .test_cli import run as run_cli

EXAMPLES = ROOT / "examples"


def lines(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (EXAMPLES / name).read_text().splitlines() if line.strip()]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, Any]]]:
    """test_cli's run, with each output line read as JSON."""
    status, out, _ = run_cli(capsys, *argv)
    return status, [json.loads(line) for line in out]


def test_readme_names_only_example_files_that_exist() -> None:
    named = set(re.findall(r"examples/[\w.-]+\.jsonl", (ROOT / "README.md").read_text()))
    assert named >= {"examples/deals.jsonl", "examples/played.jsonl", "examples/puzzles.jsonl", "examples/to-bid.jsonl"}
    assert all((ROOT / name).is_file() for name in named)


def test_readmes_table_of_games_gives_every_objective_option_and_value() -> None:
    """The README's table, row by row, against solver.GAMES: the objectives in order
    (the default first), each option's values with its default first (Jass's
    match_bonus: a range and its default)."""
    text = (ROOT / "README.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|$", text, re.MULTILINE)
    assert {game for game, _, _ in rows} == set(GAMES)

    def shown(value: object) -> str:
        return json.dumps(value)

    for game, objectives, options in rows:
        rules = GAMES[game]
        assert re.findall(r"`(\w+)`", objectives) == list(rules.OBJECTIVES), game
        expected = []
        for option in rules.OPTIONS:
            if option.values is None:
                values = f"an integer from 0 to {option.limit}, {option.default}"
            else:
                ordered = [option.default, *(v for v in option.values if v != option.default)]
                values = ", ".join(f"`{shown(v)}`".replace('"', "") for v in ordered)
            expected.append(f"`{option.name}`: {values}")
        assert options.strip() == ("; ".join(expected) or "none"), game


def test_deals_cover_every_game_but_besigue() -> None:
    # Bésigue has examples/besigue.jsonl: a complete Bésigue deal is beyond exact search
    assert {deal["game"] for deal in lines("deals.jsonl")} == set(GAMES) - {"besigue"}


def test_every_complete_deal_is_analysed(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "analyse", str(EXAMPLES / "deals.jsonl"))
    deals = lines("deals.jsonl")
    assert status == 0 and len(out) == len(deals)
    for deal, answer in zip(deals, out):
        assert answer["exact"] and len(answer["moves"]) == len(Position.from_dict(deal).hands[0])
        assert answer["best"] == [m["move"] for m in answer["moves"] if m["value"] == answer["value"]]
        assert comparable(answer) == comparable(analyse(deal).to_dict())
        # the value alone comes from another search (no value for every card)
        assert hint(deal).value == answer["value"]


def test_played_deals_are_replayed_card_by_card(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "play-analysis", str(EXAMPLES / "played.jsonl"))
    played = lines("played.jsonl")
    assert status == 0 and len(out) == len(played)
    for deal, answer in zip(played, out):
        cards = answer["cards"]
        assert [c["card"] for c in cards] == deal["played"]
        for card in cards:
            assert (card["lost"] == 0) == (card["card"] in card["best"])
        assert any(card["lost"] > 0 for card in cards)  # each line has a slip to find


def test_puzzles_hold(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "verify", str(EXAMPLES / "puzzles.jsonl"))
    assert status == 0
    summary = {"puzzles": 2, "hold": 2, "fail": 0, "undecided": 0, "unique": 2, "unique_play": 2,
               "unique_unknown": 0, "errors": 0}
    assert out[-1] == {"summary": summary}


# Worked by hand.  Belote, hearts trump, seat 0 to lead; 56 card points and 10 for the
# last trick still to take, 50 to 46 scored.
# - HJ first: H9 must follow, seat 2 throws, seat 3 has no heart; then SA takes the
#   last trick (seat 3 must follow with S7, or gives DA at once): all 66 to side 0,
#   116 to 46, +70.
# - SA first: seat 1 has no spade and must trump (H9), 25 to side 1; its C7 lead then
#   costs the last trick to HJ (20 + DA 11 + 10): 91 to 71, +20.
# Jass, spades trump: seat 1 holds the Buur (SJ) alone in trumps and need not play it on
# a trump lead.  Remaining 49 card points and 5 for the last trick, 60 to 43 scored.
# - S9 first: seat 1 keeps SJ (HK on it, 18 to side 0) and trumps HA in the last trick
#   (36 to side 1): 78 to 79, -1.  Played on S9, SJ would give only 34 to 20.
# - HA first: seat 1 gives HK (15 to side 0) and SJ takes S9 in the last trick (39):
#   75 to 82, -7.  Trumping HA with SJ would leave S9 the last trick: 83 to 74.
HAND_CHECKED = [
    ("belote", {"HJ": 70, "SA": 20}),
    ("jass", {"S9": -1, "HA": -7}),
]


@pytest.mark.parametrize(("index", "expected"), list(enumerate(HAND_CHECKED)))
def test_puzzle_values_are_the_hand_checked_ones(index: int, expected: tuple[str, dict[str, int]]) -> None:
    puzzle = lines("puzzles.jsonl")[index]
    game, values = expected
    assert puzzle["position"]["game"] == game
    result = analyse(puzzle["position"])
    assert {m.move: m.value for m in result.moves} == values
    verdict = verify_puzzle(puzzle["position"], puzzle["claim"])
    assert verdict.holds and verdict.unique


def test_a_wrong_claim_on_an_example_puzzle_fails(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    puzzle = lines("puzzles.jsonl")[0]
    wrong = {"position": puzzle["position"], "claim": {"best": ["SA"], "value": 20}}
    path = tmp_path / "wrong.jsonl"
    path.write_text(json.dumps(wrong) + "\n")
    status, out = run(capsys, "verify", str(path))
    assert status == 1 and out[0]["holds"] is False and out[0]["wrong"] == ["SA"]


def test_a_puzzle_given_to_analyse_is_told_where_it_belongs(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "analyse", str(EXAMPLES / "puzzles.jsonl"))
    assert status == 1
    assert out[0]["error"]["field"] == "game" and "plis verify" in out[0]["error"]["message"]


def test_trumps_of_deals_before_bidding(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "trumps", str(EXAMPLES / "to-bid.jsonl"))
    deals = lines("to-bid.jsonl")
    assert status == 0 and len(out) == len(deals)
    for deal, answer in zip(deals, out):
        game = GAMES[deal["game"]]
        contract = game.CONTRACT_FIELD
        sides = (0, 1) if contract else (None,)
        entries = answer["table"]
        assert [(e["trump"], e.get("declaring_side")) for e in entries] == [(t, s) for t in game.TRUMPS for s in sides]
        # one entry against the deal analysed with that trump (and seat 1 declaring),
        # given as a deal so that its bonuses (belote, sequences) are counted alike
        entry = entries[-1]
        position = {k: v for k, v in deal.items() if k != "hands"} | {"deal": deal["hands"], "played": []}
        position |= {"trump": entry["trump"], **({contract: 1} if contract else {})}
        assert entry["value"] == analyse(position).value
