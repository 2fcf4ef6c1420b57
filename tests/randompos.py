"""Seeded random positions of every game and option, for the engine-vs-reference tests."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from solver.cards import format_cards
from solver.games import get_game
from solver.position import Position

# every option's values, trumps and objectives each game is tested with
CONFIGS: dict[str, dict[str, list[Any]]] = {
    "bassadewitz": {"jacks": ["trumps", "plain"], "scoring": ["standard", "old"], "objective": ["points", "all_tricks"]},
    "jass": {
        "trump": ["C", "S", "H", "D", "obenabe", "undeufe"],
        "buur_exception": [True, False],
        "match_bonus": [100, 0, 37],
        "objective": ["score", "raw"],
    },
    "putz": {
        "players": [3, 5],
        "buur_exception": [True, False],
        "trump": ["C", "S", "H", "D"],
        "objective": ["points", "pomme"],
    },
    "klaverjas": {
        "rules": ["rotterdam", "amsterdam", "seed"],
        "roem_order": ["natural", "rank"],
        "nat_on_tie": [False, True],
        "objective": ["score", "raw"],
    },
    "klaberjass": {
        "players": [2, 4],
        "rules": ["seed", "pagat"],
        "half_bate": ["own", "seed"],
        "objective": ["score", "raw"],
    },
    "belote": {"trump": ["C", "S", "H", "D"], "objective": ["score", "raw"]},
}
NOT_OPTIONS = ("trump", "objective")


def balanced(rng: random.Random, values: list[Any], count: int) -> list[Any]:
    """`count` values with every value at least count // len(values) times, shuffled."""
    pool = list(itertools.islice(itertools.cycle(values), count))
    rng.shuffle(pool)
    return pool


def position_count(game: str, per_value: int) -> int:
    """How many positions random_positions yields: enough for every value of the
    option (or trump, objective) with the most values to come `per_value` times."""
    return per_value * max(len(values) for values in CONFIGS[game].values())


def largest_hand(game: str) -> int:
    """The most tricks a position of `game` can have left, over its CONFIGS options."""
    cls = get_game(game)
    options = {name: values for name, values in CONFIGS[game].items() if name not in NOT_OPTIONS}
    trump = cls.TRUMPS[0] if cls.TRUMPS else None
    return max(
        cls(cls.check_options(dict(zip(options, chosen))), trump, None).hand_size
        for chosen in itertools.product(*options.values())
    )


def random_positions(
    game: str, per_value: int, seed: int | str, max_tricks: int = 4, min_tricks: int = 1
) -> Iterator[Position]:
    """Enough positions that each option value, trump and objective gets `per_value`,
    with `min_tricks` to `max_tricks` tricks left (at most a full hand)."""
    rng = random.Random(f"{game}-{seed}")
    config = CONFIGS[game]
    count = position_count(game, per_value)
    columns = {name: balanced(rng, values, count) for name, values in config.items()}
    for i in range(count):
        chosen = {name: column[i] for name, column in columns.items()}
        yield random_position(rng, game, chosen, rng.randint(min_tricks, max_tricks))


def random_position(rng: random.Random, game: str, chosen: dict[str, Any], tricks_left: int) -> Position:
    cls = get_game(game)
    options = {k: v for k, v in chosen.items() if k not in NOT_OPTIONS}
    trump = chosen.get("trump")
    if cls.TRUMPS and trump is None:
        trump = rng.choice(cls.TRUMPS)
    rules = cls(cls.check_options(options), trump, None)
    deck = list(rules.deck)
    rng.shuffle(deck)
    n, k = rules.n_players, min(tricks_left, rules.hand_size)
    played = rules.hand_size - k
    tricks = [0] * rules.n_sides
    if rng.random() < 0.3:  # one side took every trick so far: sweeps are in play
        tricks[rng.randrange(rules.n_sides)] = played
    else:
        for _ in range(played):
            tricks[rng.randrange(rules.n_sides)] += 1
    data: dict[str, Any] = {
        "game": game,
        "options": options,
        "hands": [format_cards(deck[i * k : (i + 1) * k]) for i in range(n)],
        "leader": rng.randrange(n),
        "tricks": tricks,
        "scored": [rng.randint(0, 90) for _ in range(rules.n_sides)] if played else [0] * rules.n_sides,
        "objective": chosen["objective"],
    }
    if trump is not None:
        data["trump"] = trump
    if cls.CONTRACT_FIELD is not None:
        data[cls.CONTRACT_FIELD] = rng.randrange(n)
    position = Position.from_dict(data)
    for _ in range(rng.randrange(n)):  # part of the current trick already played
        position = position.play(rng.choice(position.legal_moves()))
    return position
