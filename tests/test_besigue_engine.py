"""The Bésigue search engine (solver/_besigue.pyx) against a slow minimax written here
straight from RULES.md, on hand-checked positions and small random ones."""

from __future__ import annotations

import itertools
import random
import threading
import time

import pytest

from solver._besigue import BESIGUE, DOUBLE_BESIGUE, FOUR, MARRIAGE, SEQUENCE, SEVEN, BesigueEngine

INF = 30000
MELD_BITS = MARRIAGE | BESIGUE | DOUBLE_BESIGUE | FOUR | SEQUENCE
C, S, H, D = range(4)
RANKS = "ATKQJ987"


def card(token: str) -> int:
    """'SQ' -> spades*8 + rank index."""
    return "CSHD".index(token[0]) * 8 + RANKS.index(token[1])


def cards(text: str) -> list[tuple[int, int]]:
    return [(card(t), 0) for t in text.split()]


# --- a slow reference, straight from the rules ------------------------------------------


def brisque(c: int) -> int:
    return 10 if c % 8 <= 1 else 0


def meld_kind(copies: list[tuple[int, int]], trump: int) -> tuple[int, int] | None:
    """(mark bit, value) of the meld these copies form, if any."""
    cs = sorted(c for c, _ in copies)
    n = len(cs)
    sq, dj = card("SQ"), card("DJ")
    if n == 2 and cs[0] // 8 == cs[1] // 8 and {cs[0] % 8, cs[1] % 8} == {2, 3}:
        return MARRIAGE, 40 if cs[0] // 8 == trump else 20
    if n == 2 and cs == sorted([sq, dj]):
        return BESIGUE, 40
    if n == 4 and cs == sorted([sq, sq, dj, dj]):
        return DOUBLE_BESIGUE, 500
    if n == 4 and len({c % 8 for c in cs}) == 1 and cs[0] % 8 in (0, 2, 3, 4):
        return FOUR, {0: 100, 2: 80, 3: 60, 4: 40}[cs[0] % 8]
    if n == 5 and cs == [trump * 8 + r for r in range(5)]:
        return SEQUENCE, 250
    return None


def meld_ok(copies: list[tuple[int, int]], bit: int, trump: int) -> bool:
    if all(m & MELD_BITS for _, m in copies):
        return False
    if any(m & bit for _, m in copies):
        return False
    if bit == MARRIAGE and copies[0][0] // 8 == trump and any(m & SEQUENCE for _, m in copies):
        return False
    return True


class Ref:
    def __init__(self, trump: int, standard: bool) -> None:
        self.trump = trump
        self.standard = standard
        self.t7 = trump * 8 + 7
        self.memo: dict = {}

    def value(self, st: dict) -> int:
        hands = tuple(tuple(sorted(h)) for h in st["hands"])
        if not st["talon"] and st.get("to_declare", -1) < 0:
            hands = tuple(tuple(sorted((c, 0) for c, _ in h)) for h in hands)
        return self.v(hands, tuple(st["talon"]), bool(st.get("exchanged")), tuple(st.get("trick", [])),
                      st.get("leader", 0), st.get("to_declare", -1))

    def v(self, hands, talon, exchanged, trick, leader, to_declare) -> int:
        key = (hands, talon, exchanged, trick, leader, to_declare)
        if key in self.memo:
            return self.memo[key]
        if to_declare >= 0:
            seat = to_declare
            options = self.declarations(hands, talon, exchanged, leader, seat)
        else:
            seat = leader if not trick else 1 - leader
            options = self.plays(hands, talon, exchanged, trick, leader, seat)
        if not options:
            assert not hands[0] and not hands[1]
            r = 0
        else:
            vals = [(g if w == 0 else -g) + self.v(*child) for g, w, child in options]
            r = max(vals) if seat == 0 else min(vals)
        self.memo[key] = r
        return r

    def draws(self, hands, talon, exchanged, winner):
        hs = [list(hands[0]), list(hands[1])]
        hs[winner].append((talon[0], 0))
        hs[1 - winner].append((talon[1], SEVEN if len(talon) == 2 and talon[1] == self.t7 else 0))
        talon = talon[2:]
        if not talon:
            hs = [[(c, 0) for c, _ in h] for h in hs]
        return (tuple(sorted(hs[0])), tuple(sorted(hs[1]))), talon, exchanged, (), winner, -1

    def declarations(self, hands, talon, exchanged, leader, seat):
        out = []
        hand = list(hands[seat])

        def with_hand(new):
            hs = list(hands)
            hs[seat] = tuple(sorted(new))
            return tuple(hs)

        if (self.t7, 0) in hand:
            new = list(hand)
            new.remove((self.t7, 0))
            new.append((self.t7, SEVEN))
            out.append((10, seat, (with_hand(new), talon, exchanged, (), leader, seat)))
            if not exchanged and talon[-1] % 8 != 7:
                new = list(hand)
                new.remove((self.t7, 0))
                new.append((talon[-1], 0))
                out.append((10, seat, (with_hand(new), talon[:-1] + (self.t7,), True, (), leader, seat)))
        seen = set()
        for n in (2, 4, 5):
            for idx in itertools.combinations(range(len(hand)), n):
                chosen = [hand[i] for i in idx]
                kind = meld_kind(chosen, self.trump)
                if kind is None or not meld_ok(chosen, kind[0], self.trump):
                    continue
                new = list(hand)
                for i in idx:
                    new[i] = (hand[i][0], hand[i][1] | kind[0])
                hs = with_hand(new)
                if hs in seen:
                    continue
                seen.add(hs)
                out.append((kind[1], seat, self.draws(hs, talon, exchanged, seat)))
        out.append((0, seat, self.draws(hands, talon, exchanged, seat)))
        return out

    def plays(self, hands, talon, exchanged, trick, leader, seat):
        hand = hands[seat]
        phase2 = not talon
        if phase2:
            candidates = sorted({(c, 0) for c, _ in hand})
            if trick:
                led = trick[0]
                follow = [x for x in candidates if x[0] // 8 == led // 8]
                higher = [x for x in follow if x[0] % 8 < led % 8]
                trumps = [x for x in candidates if x[0] // 8 == self.trump]
                candidates = higher or follow or trumps or candidates
        else:
            candidates = sorted(set(hand))
        out = []
        for x in candidates:
            new = list(hand)
            new.remove(x)
            hs = list(hands)
            hs[seat] = tuple(new)
            hs = tuple(hs)
            if not trick:
                out.append((0, seat, (hs, talon, exchanged, (x[0],), leader, -1)))
                continue
            a, b = trick[0], x[0]
            ta, tb = a // 8 == self.trump, b // 8 == self.trump
            if phase2 or self.standard:
                follower = (a // 8 == b // 8 and b % 8 < a % 8) or (tb and not ta)
            else:
                follower = tb if ta != tb else b % 8 < a % 8
            winner = 1 - leader if follower else leader
            gain = brisque(a) + brisque(b)
            if phase2:
                if not hs[0] and not hs[1]:
                    gain += 10
                out.append((gain, winner, (hs, talon, exchanged, (), winner, -1)))
            else:
                out.append((gain, winner, (hs, talon, exchanged, (), winner, winner)))
        return out


def reference(state: dict) -> int:
    return Ref(state["trump"], state.get("standard", False)).value(state)


# --- random small positions ---------------------------------------------------------------

MELDY = ["A", "K", "Q", "J", "7", "T"]


def relevant(c: int, trump: int) -> int:
    s, r = divmod(c, 8)
    bits = 0
    if r == 0:
        bits = FOUR
    elif r in (2, 3):
        bits = MARRIAGE | FOUR
    elif r == 4:
        bits = FOUR
    if s == trump and r <= 4:
        bits |= SEQUENCE
    if c in (card("SQ"), card("DJ")):
        bits |= BESIGUE | DOUBLE_BESIGUE
    if s == trump and r == 7:
        bits = SEVEN
    return bits


def random_state(rng: random.Random, hand_size: int, talon_len: int, meldy: bool = True) -> dict:
    trump = rng.randrange(4)
    if meldy:
        pool = [s * 8 + RANKS.index(r) for s in range(4) for r in MELDY] * 2
        pool += [rng.randrange(32) for _ in range(6)]
    else:
        pool = list(range(32)) * 2
    while True:
        rng.shuffle(pool)
        deal = pool[: 2 * hand_size + talon_len + 1]
        if all(deal.count(c) <= 2 for c in deal):
            break
    trick_kind = rng.choice(["none", "led", "declare"]) if talon_len else rng.choice(["none", "led"])
    h0 = deal[:hand_size]
    h1 = deal[hand_size : 2 * hand_size]
    talon = deal[2 * hand_size : 2 * hand_size + talon_len]
    spare = deal[-1]
    leader = rng.randrange(2)
    trick = []
    if trick_kind == "led":
        trick = [spare]
        (h0 if leader == 0 else h1).pop()
    exchanged = False
    if talon and rng.random() < 0.3 and talon.count(trump * 8 + 7) + h0.count(trump * 8 + 7) + h1.count(trump * 8 + 7) < 2:
        talon[-1] = trump * 8 + 7
        exchanged = True

    def marked(h):
        out = []
        for c in h:
            m = 0
            if talon or trick_kind == "declare":
                for bit in (MARRIAGE, BESIGUE, DOUBLE_BESIGUE, FOUR, SEQUENCE, SEVEN):
                    if relevant(c, trump) & bit and rng.random() < 0.2:
                        m |= bit
            out.append((c, m))
        # at most two copies of a card in a hand
        return out

    state = {
        "trump": trump,
        "standard": rng.random() < 0.3,
        "hands": [marked(h0), marked(h1)],
        "talon": talon,
        "exchanged": exchanged,
        "trick": trick,
        "leader": leader,
        "to_declare": leader if trick_kind == "declare" else -1,
    }
    return state


def solve(state: dict, engine: BesigueEngine | None = None, alpha: int = -INF, beta: int = INF) -> int:
    r = (engine or BesigueEngine(tt_megabytes=2)).search(state, alpha, beta)
    assert r["stopped"] is None
    return r["value"]


# --- hand-checked positions -----------------------------------------------------------------


def test_phase2_last_trick() -> None:
    # one card each, seat 0 leads HA, seat 1 must follow with H7: 10 + last trick 10
    state = {"trump": C, "hands": [cards("HA"), cards("H7")], "talon": [], "leader": 0}
    assert solve(state) == 20
    # seat 1 trumps a lead of another suit
    state = {"trump": C, "hands": [cards("HA"), cards("C7")], "talon": [], "leader": 0}
    assert solve(state) == -20


def test_phase2_must_win_and_must_trump() -> None:
    # seat 1 holds HT and H9 after the lead HK: it must beat it with HT (no choice)
    state = {"trump": C, "hands": [cards("HK SA"), cards("HT H9")], "talon": [], "leader": 0}
    # leading HK loses 30 (HT forced, then H9 beats SA as the suit led); leading SA,
    # seat 1 (void, no trump) keeps HT and throws H9: +10, then HK is beaten by HT: -20
    assert solve(state) == reference(state) == -10
    # void in hearts with a trump: must trump even a worthless lead
    state = {"trump": C, "hands": [cards("H7 SA"), cards("C7 ST")], "talon": [], "leader": 0}
    # H7 C7 (forced trump) seat 1 wins 0; seat 1 leads ST, seat 0 SA wins 20 + last 10
    assert solve(state) == 30


def test_identical_card_first_played_wins() -> None:
    state = {"trump": D, "hands": [cards("HA"), cards("HA")], "talon": [], "leader": 1}
    assert solve(state) == -30
    state = {"trump": D, "hands": [cards("SA"), cards("SA")], "talon": [], "leader": 0, "trick": []}
    assert solve(state) == 30


def test_meld_must_be_declared() -> None:
    # seat 0 has just won a trick and declares; talon of two: it holds the trump
    # marriage (40) and nothing else happens that scores except the last trick
    trump = H
    state = {
        "trump": trump,
        "hands": [cards("HK HQ"), cards("C8 C9")],
        "talon": [card("S8"), card("S9")],
        "leader": 0,
        "to_declare": 0,
    }
    ref = reference(state)
    assert solve(state) == ref
    # declaring (40) beats passing. Seat 0 draws S8, seat 1 S9; in phase 2 seat 0 leads
    # S8 (seat 1 must win it with S9), ruffs the club led back and takes the last
    # trick: 40 + 10, and no brisque anywhere
    assert ref == 50


def test_seed_trick_rule_and_standard() -> None:
    # phase 1, seat 0 led CA; seat 1 holds SK D8, neither above an Ace: seat 0 takes
    # the CA (10) under both rules; seat 1 then takes the last trick (10), whatever is
    # led: its S8 or SK beats the S7 seat 0 draws, and seat 0's C8 is no trump
    base = {"trump": H, "hands": [cards("C8"), cards("SK D8")], "talon": [card("S7"), card("S8")], "leader": 0,
            "trick": [card("CA")]}
    assert solve(dict(base, standard=False)) == reference(dict(base, standard=False)) == 0
    assert solve(dict(base, standard=True)) == reference(dict(base, standard=True)) == 0
    # seat 0 led C8; seat 1 holds SA ST
    st = {"trump": H, "hands": [cards("D7"), cards("SA ST")], "talon": [card("S7"), card("S8")], "leader": 0,
          "trick": [card("C8")]}
    # seed: the Ace, a higher rank, takes the C8 (10); seat 1 draws S7, leads the Ten
    # (10) which seat 0's S8 cannot beat, then S7 takes the last trick (10): -30
    assert solve(dict(st, standard=False)) == reference(dict(st, standard=False)) == -30
    # standard: another suit and no trump, so seat 0's C8 takes the trick and the
    # brisque seat 1 had to give (10); seat 1's other brisque then takes its S7 or
    # the last trick (10 + 10): 10 - 20
    assert solve(dict(st, standard=True)) == reference(dict(st, standard=True)) == -10


def test_seven_scores_and_exchange() -> None:
    trump = S
    s7 = card("S7")
    # seat 1 declares with an unscored trump 7; the retourne is SA: exchanging it
    # brings the Ace into the hand
    state = {
        "trump": trump,
        "hands": [cards("C8 C9"), [(s7, 0), (card("D8"), 0)]],
        "talon": [card("H8"), card("SA")],
        "leader": 1,
        "to_declare": 1,
    }
    v = solve(state)
    assert v == reference(state)
    # the exchange (10) brings the SA into seat 1's hand, with D8 and then H8; seat 0
    # draws the scored 7. Seat 1 takes the SA's 10 and the last trick (10), whatever
    # seat 0 ruffs with its 7: 10 + 10 + 10 for seat 1, the most there is
    assert v == -30
    # once exchanged (the retourne is then the other trump 7), a seven is just 10: seat 1
    # shows it, draws H8 and leads in phase 2 with S7 D8 H8 against C8 C9 S7.  Whatever it
    # leads, it takes the last trick (10): H8 led last, or seat 0 trumps a D8 with S7 and
    # leads a club into seat 1's trump.  10 + 10 for seat 1: -20
    state2 = dict(state, exchanged=True, talon=[card("H8"), s7], hands=[cards("C8 C9"), [(s7, 0), (card("D8"), 0)]])
    assert solve(state2) == reference(state2) == -20
    # without the 7 in hand, only the last trick: seat 0 draws the S7 and trumps whatever
    # seat 1 (D7 D8 H8, no trump) leads, then its clubs take the rest: +10
    state2["hands"] = [cards("C8 C9"), [(card("D7"), 0), (card("D8"), 0)]]
    assert solve(state2) == reference(state2) == 10


def test_marked_seven_scores_nothing() -> None:
    s7 = card("S7")
    state = {
        "trump": S,
        "hands": [cards("C8 C9"), [(s7, SEVEN), (card("D8"), 0)]],
        "talon": [card("H8"), card("SA")],
        "leader": 1,
        "to_declare": 1,
    }
    assert solve(state) == reference(state)


def test_double_besigue_and_reuse() -> None:
    hand = [(card("SQ"), 0), (card("SQ"), 0), (card("DJ"), 0), (card("DJ"), 0)]
    state = {"trump": C, "hands": [hand, cards("C8 C9 H8 H9")], "talon": [card("D8"), card("D9")], "leader": 0,
             "to_declare": 0}
    v = solve(state)
    assert v == reference(state)
    # 500, and no brisque in play; seat 1 (two trumps, two hearts, D9) takes the lead
    # as soon as seat 0 runs out of Jacks to lead, and keeps it to the last trick (10)
    assert v == 490
    # two bésigues declared apart never make a double bésigue: nothing to declare,
    # and the last trick goes to seat 1 as above
    hand = [(card("SQ"), BESIGUE), (card("SQ"), BESIGUE), (card("DJ"), BESIGUE), (card("DJ"), BESIGUE)]
    state["hands"] = [hand, cards("C8 C9 H8 H9")]
    assert solve(state) == reference(state) == -10


def test_four_kings_with_duplicates() -> None:
    hand = cards("CK CK SK HK")
    state = {"trump": D, "hands": [hand, cards("C8 C9 H8 H9")], "talon": [card("D8"), card("D9")], "leader": 0,
             "to_declare": 0}
    v = solve(state)
    assert v == reference(state)
    # 80; then the Kings of clubs take the clubs, HK the heart led after seat 1 ruffs
    # the SK with D9, and seat 0's D8 the last trick, seat 1 having no diamond left
    assert v == 90


def test_sequence_after_trump_marriage() -> None:
    hand = [(card("HA"), 0), (card("HT"), 0), (card("HK"), MARRIAGE), (card("HQ"), MARRIAGE), (card("HJ"), 0)]
    state = {"trump": H, "hands": [hand, cards("C8 C9 S8 S9 D8")], "talon": [card("D7"), card("D9")], "leader": 0,
             "to_declare": 0}
    v = solve(state)
    # 250 for the sequence (the marriage grows into it); seat 0 leads D7 at once,
    # ruffs what seat 1 leads back and takes every trick after: HA, HT and the last
    assert v == reference(state) == 280
    # a card used in a sequence may not join a trump marriage
    hand = [(card("HK"), SEQUENCE), (card("HQ"), SEQUENCE), (card("C8"), 0)]
    state = {"trump": H, "hands": [hand, cards("C9 S8 S9")], "talon": [card("D7"), card("D9")], "leader": 0,
             "to_declare": 0}
    assert solve(state) == reference(state)


def test_windows_are_fail_soft() -> None:
    rng = random.Random(5)
    for _ in range(30):
        st = random_state(rng, 3, rng.choice([0, 2, 4]))
        v = reference(st)
        eng = BesigueEngine(tt_megabytes=1)
        for _ in range(4):
            a = rng.randrange(-150, 150)
            b = a + rng.choice([1, 2, 11, 60])
            u = solve(st, eng, a, b)
            if a < v < b:
                assert u == v
            elif v <= a:
                assert v <= u <= a
            else:
                assert b <= u <= v


@pytest.mark.parametrize("hand_size,talon_len,seed", [(3, 0, 1), (4, 0, 2), (2, 2, 3), (3, 2, 4), (2, 4, 5), (3, 4, 6),
                                                      (4, 2, 7), (2, 6, 8)])
def test_random_small_positions_against_slow_reference(hand_size: int, talon_len: int, seed: int) -> None:
    rng = random.Random(seed)
    engine = BesigueEngine(tt_megabytes=1)
    for i in range(40):
        st = random_state(rng, hand_size, talon_len, meldy=i % 4 != 3)
        assert solve(st, engine) == reference(st), st


# `leaf` acts only in horizon searches (an estimate's: tests/test_besigue.py holds them to the reference's)
LEVER_DEFAULTS = {"bounds": 1, "probe_follow": 1, "probe_declare": 0, "relative": 1, "last_step": 1, "history": 1, "leaf": 1}


@pytest.mark.parametrize("lever", sorted(LEVER_DEFAULTS))
def test_each_lever_switched_keeps_every_value(lever: str) -> None:
    """Each of the engine's levers away from its default (BesigueEngine.options), on
    random positions against the reference: a lever may change the search, never a
    value.  probe_declare (off by default) is what showed that the marks of both
    copies of a card are part of the key (tests/test_besigue_mutants.py)."""
    assert BesigueEngine(tt_megabytes=1).options == LEVER_DEFAULTS
    rng = random.Random(f"lever-{lever}")
    engine = BesigueEngine(tt_megabytes=1)
    engine.options[lever] = 1 - LEVER_DEFAULTS[lever]
    for hand_size, talon_len in ((3, 2), (2, 4), (4, 0), (2, 6)):
        for i in range(30):
            st = random_state(rng, hand_size, talon_len, meldy=i % 4 != 3)
            assert solve(st, engine) == reference(st), st


def test_phase2_full_hands_against_reference() -> None:
    rng = random.Random(9)
    for _ in range(5):
        st = random_state(rng, 6, 0, meldy=False)
        assert solve(st) == reference(st)


def test_limits_and_cancel() -> None:
    rng = random.Random(3)
    deck = list(range(32)) * 2
    rng.shuffle(deck)
    st = {"trump": deck[-1] // 8, "hands": [[(c, 0) for c in deck[:9]], [(c, 0) for c in deck[9:18]]],
          "talon": deck[18:], "leader": 0}
    eng = BesigueEngine(tt_megabytes=2)
    r = eng.search(st, -INF, INF, node_limit=20000)
    assert r["stopped"] == "nodes"
    r = eng.search(st, -INF, INF, time_limit=0.05)
    assert r["stopped"] == "time"
    result = {}

    def run() -> None:
        result["r"] = eng.search(st, -INF, INF)

    t = threading.Thread(target=run)
    t.start()

    time.sleep(0.05)
    eng.cancel()
    t.join(5)
    assert not t.is_alive()
    assert result["r"]["stopped"] == "cancelled"
    # a cancel before the search starts (the service's): searches stop at once until
    # forget_cancel(); a plain cancel left none behind
    assert eng.search(st, -INF, INF, node_limit=20000)["stopped"] == "nodes"
    eng.cancel(before_start=True)
    stopped = eng.search(st, -INF, INF, node_limit=20000)
    assert stopped["stopped"] == "cancelled" and stopped["nodes"] <= 1  # at once: it was 4096, the first check
    eng.forget_cancel()
    assert eng.search(st, -INF, INF, node_limit=20000)["stopped"] == "nodes"


def test_two_threads_two_engines() -> None:
    rng = random.Random(12)
    states = [random_state(rng, 4, 2) for _ in range(10)]
    expected = [reference(s) for s in states]
    out: dict[int, list[int]] = {0: [], 1: []}

    def work(k: int) -> None:
        eng = BesigueEngine(tt_megabytes=1)
        for s in states:
            out[k].append(solve(s, eng))

    threads = [threading.Thread(target=work, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out[0] == expected and out[1] == expected


def test_changed_options_empty_the_table() -> None:
    """`relative` changes what a phase-2 key means: an entry stored with relative keys
    once answered an absolute key of another position (a helper's audit)."""
    from solver.besigue import BesiguePosition, engine_state

    def position(first: str, second: str) -> dict:
        data = {"game": "besigue", "trump": "H", "hands": [first, second], "talon": [], "leader": 0, "tricks": [30, 0]}
        return engine_state(BesiguePosition.from_dict(data))

    earlier, later = position("C9 S7", "SQ DQ"), position("H7 D8", "S7 H7")
    for first, then in ((1, 0), (0, 1)):
        fresh = BesigueEngine(1)
        fresh.options["relative"] = then
        expected = fresh.search(later)
        kept = BesigueEngine(1)
        kept.options["relative"] = first
        kept.search(earlier)
        kept.options["relative"] = then
        assert kept.search(later)["value"] == expected["value"]


def test_an_engine_keeps_its_table_through_a_deal() -> None:
    """The positions of one deal, later ones holding the end of an earlier talon, share
    the table: nothing is discarded along the way (the count of current entries never
    falls), estimates share it too, and every value equals a fresh engine's."""
    from solver.besigue import engine_state
    from tests.besigue_random import random_move, random_position

    rng = random.Random(46)
    for _ in range(3):
        position = random_position(rng, 6)
        kept = BesigueEngine(2)
        entries = 0
        while not position.is_over:
            state = engine_state(position)
            horizon = rng.choice([0, 0, 2]) if len(position.talon) > 2 else 0
            fresh = BesigueEngine(2).search(state, horizon=horizon)
            assert kept.search(state, horizon=horizon)["value"] == fresh["value"], position.to_dict()
            now = kept.stats()["table_entries"]
            assert now >= entries, position.to_dict()
            entries = now
            position = position.play(random_move(rng, position))
        assert entries > 1000


def _another_talon(rng: random.Random, state: dict) -> tuple[dict, str]:
    """`state` with a talon that is not the end of its own (one card changed, maybe
    the retourne, maybe then exchanged), or the end of it (`"end"`)."""
    talon = list(state["talon"])
    trump7 = state["trump"] * 8 + 7
    kind = rng.choice(["card", "end"] if state["exchanged"] else ["card", "retourne", "exchanged", "end"])
    changed = dict(state)
    if kind == "end" and len(talon) > 2:
        changed["talon"] = talon[2:]
        return changed, kind
    at = len(talon) - 1 if kind in ("retourne", "exchanged") else rng.randrange(len(talon) - 1)
    choices = [c for c in range(32) if c // 8 == state["trump"] and c != talon[at]] if at == len(talon) - 1 \
        else [c for c in range(32) if c != talon[at]]
    talon[at] = rng.choice(choices)
    if kind == "exchanged" and not state["exchanged"]:
        talon[-1] = trump7
        changed["exchanged"] = True
    changed["talon"] = talon
    return changed, kind


def test_a_talon_not_the_end_of_the_deals_starts_afresh() -> None:
    """A root whose talon is not the end of the deal's talon seen so far (another card
    deeper down, another retourne) is another deal: its search must not read the
    first's entries, whose keys say only how many talon cards are left."""
    rng = random.Random(4601)
    differ = 0
    for _ in range(120):
        state = random_state(rng, rng.randrange(2, 5), rng.choice([2, 4]))
        other, kind = _another_talon(rng, state)
        kept = BesigueEngine(1)
        first = kept.search(state)["value"]
        second = kept.search(other)["value"]
        assert second == BesigueEngine(1).search(other)["value"], (state, other)
        assert kept.search(state)["value"] == first, (state, other)
        differ += kind != "end" and second != first
    assert differ > 20  # a table kept across them would have answered these wrongly


def test_an_engine_takes_up_the_deals_it_left() -> None:
    """Deals searched in turn on one engine (a worker serving several games): each keeps
    its entries while parked and finds them again; every value equals a fresh engine's."""
    from solver.besigue import engine_state
    from tests.besigue_random import random_move, random_position

    rng = random.Random(4602)
    kept = BesigueEngine(16)
    deals = [random_position(rng, 4) for _ in range(3)]
    entries = [0] * len(deals)
    while any(not p.is_over for p in deals):
        for i, position in enumerate(deals):
            if position.is_over:
                continue
            state = engine_state(position)
            assert kept.search(state)["value"] == BesigueEngine(1).search(state)["value"], position.to_dict()
            now = kept.stats()["table_entries"]
            assert now >= 0.9 * entries[i], position.to_dict()  # little lost while the others searched
            entries[i] = now
            deals[i] = position.play(random_move(rng, position))
    assert min(entries) > 100


def test_a_parked_deal_outlives_no_wrap_of_the_generations() -> None:
    """A deal taken up again after every other search keeps its generation's number,
    while new deals count the generations on past their wrap: neither may take up
    the other's entries (their keys are alike: the same hands, other talons) by a
    generation's number given out twice."""
    rng = random.Random(4603)
    for _ in range(3):
        state = random_state(rng, 3, 4)
        expected = BesigueEngine(1).search(state)["value"]
        kept = BesigueEngine(1)
        for _ in range(800):  # past the wrap, as most of them are new deals
            other, kind = _another_talon(rng, state)
            if kind == "end":
                continue
            assert kept.search(other)["value"] == BesigueEngine(1).search(other)["value"], (state, other)
            assert kept.search(state)["value"] == expected, (state, other)


def test_stats_and_clear() -> None:
    rng = random.Random(4)
    st = random_state(rng, 4, 2)
    eng = BesigueEngine(tt_megabytes=1)
    solve(st, eng)
    s = eng.stats()
    assert s["nodes"] > 0 and s["table_entries"] > 0
    eng.clear()
    assert eng.stats()["table_entries"] == 0


def test_invalid_states() -> None:
    eng = BesigueEngine(tt_megabytes=1)
    # each refused for its own fault (without the copy check, three CA failed on the sizes)
    with pytest.raises(ValueError, match="seat 0 holds card 0 three times"):
        eng.search({"trump": 0, "hands": [cards("CA CA CA"), cards("C7 C8 C9")], "talon": [], "leader": 0})
    with pytest.raises(ValueError, match="card 5 cannot carry the marks"):  # C9 in no four of a kind
        eng.search({"trump": 0, "hands": [[(card("C9"), FOUR)], cards("C7")], "talon": [card("H8"), card("H9")],
                    "leader": 0})
    with pytest.raises(ValueError, match="sizes 2 and 1"):
        eng.search({"trump": 0, "hands": [cards("C9 C8"), cards("C7")], "talon": [], "leader": 0})


# --- against the reference search of solver/besigue.py (the rules module's reading) ---------


def _reference_cases() -> list:
    from solver.besigue import engine_state, reference_future

    from .besigue_random import random_position, small_position

    rng = random.Random(2024)
    cases = []
    for i in range(240):
        talon = (0, 2, 4)[i % 3]
        hand = rng.choice((2, 3, 4)) if talon else rng.choice((3, 4, 5))
        pos = small_position(rng, hand, talon)
        if i % 4 == 1 and not pos.trick and pos.to_declare is None:
            moves = pos.legal_moves()
            pos = pos.play(rng.choice(moves))  # a trick in progress, or a declaration pending
        cases.append(pos)
    for i in range(60):
        stop = ("lead", "trick")[i % 2]
        cases.append(random_position(rng, 0, tricks_left=rng.choice((3, 4, 5)), stop=stop))
    return [(engine_state(p), reference_future, p) for p in cases]


def test_engine_equals_reference_future_on_random_positions() -> None:
    engine = BesigueEngine(tt_megabytes=2)
    mismatches = []
    for state, reference_future, pos in _reference_cases():
        got = solve(state, engine)
        want = reference_future(pos)
        if got != want:
            mismatches.append((state, got, want))
    assert not mismatches, mismatches[:3]
