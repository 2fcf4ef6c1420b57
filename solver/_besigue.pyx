# cython: language_level=3
"""Bésigue, solved exactly double dummy (all hands and the talon order known).

The search runs without the GIL and touches only its own `BesigueEngine` (its
table and a per-call context).  Values are the points seat 0 still scores minus
the points seat 1 still scores; seat 0 maximises.

Representation.  A hand is a uint64: card (suit s, rank r, 0 = Ace) has the two
bits  b = s*16 + (7-r)*2 + k,  k = 0 for a first copy, 1 for a second one, so the
cards of a suit are contiguous, a higher bit is a stronger card, and the bit of
k = 1 is set only with that of k = 0.  Identical copies are one card here; in
phase 1 the marks of the copies a seat holds sit beside the hand, sorted
(mk[seat][card][0] <= mk[seat][card][1]), only the bits that can still matter
for that card (RELEVANT below), so copies that differ in nothing that matters
are one move.  Phase 2 drops the marks and has its own, leaner search.

Transposition table.  The key is the exact state: both hands (two words, which
hold every copy), the marks of the held copies packed in a third word (at most
18 copies in hands and at most 5 relevant bits for any card: 48 bits at worst),
and a fourth word with the trick card, the leader, the seat to declare, the
talon length, the exchanged flag and an estimate's horizon.  The talon's contents are a function of its
length and the exchanged flag within one deal (the talon only shrinks from the
top), so the table is kept across the roots of one deal; another trump, trick
rule or options, or a root talon that is not the end of the deal's talon seen so
far, is another deal, under a generation of its own (parked when left).  Estimates and exact
values share the table, told apart by the horizon in their keys.  Values stored are
future points, so they do not depend on the path.
"""

from libc.stdint cimport int8_t, int16_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memcpy, memset

from solver._minimax cimport fold_child, sort_by_key
from solver.errors import check_flag, table_megabytes


# the compiler's and the system's (gcc, clang or MSVC): solver/native.h
cdef extern from "native.h":
    int popcount "plis_popcount"(uint64_t x) nogil
    int lowest_bit "plis_ctz"(uint64_t x) nogil  # x not 0
    double now "plis_now"() nogil  # seconds, monotonic
    void* table_memory(size_t size) nogil  # zeroed, in huge pages where possible
    void table_free(void* mem, size_t size) nogil  # the size it was made with


MARRIAGE = 1
BESIGUE = 2
DOUBLE_BESIGUE = 4
FOUR = 8
SEQUENCE = 16
SEVEN = 32
PARKED_DEALS = 32  # the deals left that an engine can take up again, as the card games'

cdef enum:
    M_MARRIAGE = 1
    M_BESIGUE = 2
    M_DOUBLE = 4
    M_FOUR = 8
    M_SEQUENCE = 16
    M_SEVEN = 32
    M_MELD = 31                  # a copy with any of these lies face up

    INF = 30000
    LIMIT_NONE = 0
    LIMIT_NODES = 1
    LIMIT_TIME = 2
    LIMIT_CANCELLED = 3
    CHECK_EVERY = 4095
    BUCKET = 2
    NO_MOVE = 255
    MAX_DECL = 254

    D_PASS = 0
    D_SEVEN = 1
    D_EXCHANGE = 2
    D_MELD = 3

    SPADES = 1
    DIAMONDS = 3
    R_ACE = 0
    R_TEN = 1
    R_KING = 2
    R_QUEEN = 3
    R_JACK = 4
    R_SEVEN = 7

cdef uint64_t EVEN = 0x5555555555555555ULL      # first copies: one bit per card held
cdef uint64_t BRISQUES = 0xF000F000F000F000ULL  # both copies of every Ace and Ten


cdef struct Pos:
    uint64_t hand[2]
    uint8_t mk[2][32][2]         # marks of the copies held (phase 1), sorted, unused slots 0
    int8_t talon_len
    int8_t exchanged
    int8_t trick                 # card on the table (phase 1 or 2), -1 if none
    int8_t leader
    int8_t to_declare            # -1 if no declaration is pending


cdef struct Entry:
    uint64_t k0
    uint64_t k1
    uint64_t k2
    uint64_t k3
    int16_t lower
    int16_t upper
    uint8_t move
    uint8_t generation
    uint8_t depth
    uint8_t pad


cdef struct Key:
    uint64_t k0
    uint64_t k1
    uint64_t k2
    uint64_t k3


cdef struct DMove:
    int8_t kind                  # D_PASS, D_SEVEN, D_EXCHANGE, D_MELD
    int8_t n                     # copies in the meld
    int8_t bit                   # the mark the meld gives
    int16_t value
    int8_t cards[5]
    int8_t ks[5]                 # which of the seat's copies of that card


cdef struct Ctx:
    Entry* table
    uint64_t table_mask
    uint8_t generation
    int trump
    int standard
    int trump7                   # the trump 7 (card index)
    int talon[64]                # the root's talon, drawing order
    int root_len
    int root_exchanged
    int horizon                  # > 0: stop at trick starts with this many talon cards or fewer
    int talon_brisques[65]       # brisques among the root talon's last n cards
    uint8_t relevant[32]         # mark bits that can matter for each card
    uint8_t code[32][64]         # relevant marks packed into nbits[card] bits
    uint8_t nbits[32]
    int64_t nodes
    int64_t node_limit
    double deadline
    int aborted
    volatile int* cancel
    int64_t probes
    int64_t hits
    int64_t cuts
    int64_t bound_cuts
    int64_t passes
    int64_t stores
    int64_t nodes2                # of which phase 2
    int64_t roots2                # phase-2 searches entered from phase 1 (trick starts)
    int opt_bounds               # cut-offs from the points still available
    int opt_probe_follow         # table probes before the second card of a phase-1 trick
    int opt_probe_declare        # table probes at declaration steps
    int opt_relative             # phase-2 keys by relative ranks and sorted plain suits
    int opt_last_step            # the last declaration step keeps only the lines that can differ
    int opt_history              # phase-1 cards ordered by the cut-offs they caused
    int opt_leaf                 # a horizon search's leaf: the hands' brisques, trumps, aces and the lead
    int history[2][33][32]       # per seat, card led (+1, 0: leading), card played


# --- cards --------------------------------------------------------------------------

cdef inline int card_bit(int card) noexcept nogil:
    """The bit of the first copy of `card`."""
    return (card >> 3) * 16 + (7 - (card & 7)) * 2


cdef inline int bit_card(int b) noexcept nogil:
    return (b >> 4) * 8 + 7 - ((b >> 1) & 7)


cdef inline int copies(uint64_t hand, int card) noexcept nogil:
    cdef int b = card_bit(card)
    return <int>((hand >> b) & 1) + <int>((hand >> (b + 1)) & 1)


cdef inline int brisque(int card) noexcept nogil:
    return 10 if (card & 7) <= R_TEN else 0


cdef inline uint64_t suit_mask(int suit) noexcept nogil:
    return <uint64_t>0xFFFF << (16 * suit)


cdef inline uint64_t stronger(int b) noexcept nogil:
    """Bits of the cards of b's suit strictly stronger than b's card."""
    cdef int top = (b | 1) + 1
    if (top & 15) == 0:
        return 0
    return suit_mask(b >> 4) & ~((<uint64_t>1 << top) - 1)


# --- phase 1 hands with marks -------------------------------------------------------

cdef inline void add_copy(Pos* p, int s, int card, int m) noexcept nogil:
    cdef int b = card_bit(card)
    cdef int m0
    if (p.hand[s] >> b) & 1:
        p.hand[s] |= <uint64_t>1 << (b + 1)
        m0 = p.mk[s][card][0]
        if m < m0:
            p.mk[s][card][1] = <uint8_t>m0
            p.mk[s][card][0] = <uint8_t>m
        else:
            p.mk[s][card][1] = <uint8_t>m
    else:
        p.hand[s] |= <uint64_t>1 << b
        p.mk[s][card][0] = <uint8_t>m


cdef inline void remove_copy(Pos* p, int s, int card, int k) noexcept nogil:
    cdef int b = card_bit(card)
    if (p.hand[s] >> (b + 1)) & 1:
        p.hand[s] &= ~(<uint64_t>1 << (b + 1))
        if k == 0:
            p.mk[s][card][0] = p.mk[s][card][1]
        p.mk[s][card][1] = 0
    else:
        p.hand[s] &= ~(<uint64_t>1 << b)
        p.mk[s][card][0] = 0


cdef inline void sort_marks(Pos* p, int s, int card) noexcept nogil:
    cdef uint8_t t
    if copies(p.hand[s], card) == 2 and p.mk[s][card][0] > p.mk[s][card][1]:
        t = p.mk[s][card][0]
        p.mk[s][card][0] = p.mk[s][card][1]
        p.mk[s][card][1] = t


cdef inline int talon_card(Ctx* c, Pos* p, int i) noexcept nogil:
    """The i-th card still to draw (0 = next)."""
    cdef int at = c.root_len - p.talon_len + i
    if at == c.root_len - 1 and p.exchanged and not c.root_exchanged:
        return c.trump7
    return c.talon[at]


cdef inline bint phase1_follower_wins(Ctx* c, int a, int b) noexcept nogil:
    cdef bint ta = (a >> 3) == c.trump
    cdef bint tb = (b >> 3) == c.trump
    if c.standard:
        return ((a >> 3) == (b >> 3) and (b & 7) < (a & 7)) or (tb and not ta)
    if ta != tb:
        return tb
    return (b & 7) < (a & 7)


cdef inline void do_draws(Ctx* c, Pos* p) noexcept nogil:
    """End of a declaration step: the winner draws, then the loser."""
    cdef int w = p.to_declare
    cdef int c1 = talon_card(c, p, 0)
    cdef int c2 = talon_card(c, p, 1)
    add_copy(p, w, c1, 0)
    add_copy(p, 1 - w, c2, M_SEVEN if (p.talon_len == 2 and c2 == c.trump7) else 0)
    p.talon_len -= 2
    p.to_declare = -1
    if p.talon_len == 0:
        memset(p.mk, 0, sizeof(p.mk))  # phase 2: marks no longer matter


# --- transposition table --------------------------------------------------------------

cdef inline void make_key(Ctx* c, Pos* p, Key* k) noexcept nogil:
    cdef uint64_t marks = 0, held
    cdef int s, card, b, n
    k.k0 = p.hand[0]
    k.k1 = p.hand[1]
    if p.talon_len > 0 or p.to_declare >= 0:
        for s in range(2):
            held = p.hand[s] & EVEN
            while held:
                b = lowest_bit(held)
                held &= held - 1
                card = bit_card(b)
                n = c.nbits[card]
                if n:
                    marks = (marks << n) | c.code[card][p.mk[s][card][0]]
                    if (p.hand[s] >> (b + 1)) & 1:
                        marks = (marks << n) | c.code[card][p.mk[s][card][1]]
    k.k2 = marks
    k.k3 = (<uint64_t>(p.trick + 1)) | (<uint64_t>p.leader << 6) | (<uint64_t>(p.to_declare + 1) << 7) \
        | (<uint64_t>p.talon_len << 9) | (<uint64_t>p.exchanged << 16) | (<uint64_t>c.horizon << 24)


cdef inline uint64_t mix(Key* k) noexcept nogil:
    cdef uint64_t z = k.k0 ^ (k.k1 * <uint64_t>0x9E3779B97F4A7C15) ^ (k.k2 * <uint64_t>0xC2B2AE3D27D4EB4F) \
        ^ (k.k3 * <uint64_t>0x165667B19E3779F9)
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline bint same_key(Entry* e, Key* k) noexcept nogil:
    return e.k0 == k.k0 and e.k1 == k.k1 and e.k2 == k.k2 and e.k3 == k.k3


cdef inline Entry* probe(Ctx* c, Key* k) noexcept nogil:
    cdef uint64_t i = mix(k) & c.table_mask & ~(<uint64_t>BUCKET - 1)
    cdef int j
    cdef Entry* e
    c.probes += 1
    for j in range(BUCKET):
        e = &c.table[i + j]
        if e.generation == c.generation and same_key(e, k):
            c.hits += 1
            return e
    return NULL


cdef inline int16_t clamp16(int v) noexcept nogil:
    if v >= INF:
        return INF
    if v <= -INF:
        return -INF
    return <int16_t>v


cdef void store(Ctx* c, Key* k, int depth, int v, int alpha, int beta, int move) noexcept nogil:
    """Keep what a fail-soft search with window (alpha, beta) learnt: outside the
    window its result is only a bound.  The same key merges its bounds; otherwise
    the bucket's first slot keeps the deeper entry and the second takes the rest."""
    cdef int lower = -INF, upper = INF, lo, hi, j
    cdef uint64_t i = mix(k) & c.table_mask & ~(<uint64_t>BUCKET - 1)
    cdef Entry* e
    cdef Entry* victim
    if v <= alpha:
        upper = v
    elif v >= beta:
        lower = v
    else:
        lower = v
        upper = v
    c.stores += 1
    for j in range(BUCKET):
        e = &c.table[i + j]
        if e.generation == c.generation and same_key(e, k):
            lo = e.lower
            hi = e.upper
            if lower > lo:
                lo = lower
            if upper < hi:
                hi = upper
            e.lower = clamp16(lo)
            e.upper = clamp16(hi)
            e.move = <uint8_t>move
            return
    e = &c.table[i]
    victim = &c.table[i + BUCKET - 1]
    if e.generation != c.generation or depth >= e.depth:
        if e.generation == c.generation:
            victim[0] = e[0]
        victim = e
    victim.k0 = k.k0
    victim.k1 = k.k1
    victim.k2 = k.k2
    victim.k3 = k.k3
    victim.lower = clamp16(lower)
    victim.upper = clamp16(upper)
    victim.move = <uint8_t>move
    victim.generation = c.generation
    victim.depth = <uint8_t>depth


cdef inline bint check_limits(Ctx* c) noexcept nogil:
    c.nodes += 1
    if (c.nodes & CHECK_EVERY) == 0:
        if c.node_limit and c.nodes >= c.node_limit:
            c.aborted = LIMIT_NODES
        elif c.deadline and now() >= c.deadline:
            c.aborted = LIMIT_TIME
        elif c.cancel[0]:
            c.aborted = LIMIT_CANCELLED
    return c.aborted != 0


# --- phase 2 ----------------------------------------------------------------------------

cdef inline uint64_t legal2(Ctx* c, uint64_t hand, int led_bit) noexcept nogil:
    """Phase 2: the cards (first-copy bits) the seat may play."""
    cdef uint64_t cards = hand & EVEN, follow, higher, trumps
    if led_bit < 0:
        return cards
    follow = cards & suit_mask(led_bit >> 4)
    if follow:
        higher = follow & stronger(led_bit)
        return higher if higher else follow
    trumps = cards & suit_mask(c.trump)
    return trumps if trumps else cards


cdef inline bint follower_wins2(Ctx* c, int a, int b) noexcept nogil:
    """Phase 2 (and the standard phase-1 rule): bits a led, b followed."""
    if (a >> 4) == (b >> 4):
        return (b >> 1) > (a >> 1)
    return (b >> 4) == c.trump


cdef inline int bit_points(int b) noexcept nogil:
    return 10 if ((b >> 1) & 7) >= 6 else 0


cdef inline int take(uint64_t* hand, int b) noexcept nogil:
    """Remove one copy of the card whose first-copy bit is b; return the bit removed."""
    if (hand[0] >> (b + 1)) & 1:
        hand[0] &= ~(<uint64_t>1 << (b + 1))
        return b + 1
    hand[0] &= ~(<uint64_t>1 << b)
    return b


cdef int order2(Ctx* c, uint64_t* h, int mover, int led, uint64_t legal, int tt_move, int* moves) noexcept nogil:
    """Phase-2 moves to try, best guess first, one card per run of equivalent cards:
    two cards of one hand, equal in points, with no card of the other hand (or on
    the table) between them or equal to either in rank, win and lose the same tricks."""
    cdef uint64_t mine = h[mover] & EVEN, theirs = h[1 - mover] & EVEN
    cdef uint64_t in_play = mine | theirs, rest = legal, up
    cdef int n = 0, b, nxt, key
    cdef int keys[32]
    cdef bint wins, good
    if led >= 0:
        in_play |= <uint64_t>1 << (led & ~1)
    while rest:
        b = lowest_bit(rest)
        rest &= rest - 1
        up = in_play & stronger(b)
        if up and not (theirs >> b) & 1 and (led & ~1) != b:
            nxt = lowest_bit(up)
            if (mine >> nxt) & 1 and not (theirs >> nxt) & 1 and bit_points(nxt) == bit_points(b):
                continue  # nxt stands for b
        if b == tt_move:
            key = 1000000
        elif led < 0:
            key = 1000 + (b & 15) * 4 + ((b >> 4) == c.trump) * 2
        else:
            wins = follower_wins2(c, led, b)
            good = wins  # the mover takes the trick
            if good:
                key = 30000 + bit_points(b) * 64 - (b & 15) - ((b >> 4) == c.trump) * 16
            else:
                key = 10000 - bit_points(b) * 64 - (b & 15)
        moves[n] = b
        keys[n] = key
        n += 1
    sort_by_key(moves, keys, n)
    return n


cdef inline uint64_t pack_suit(uint64_t a, uint64_t b) noexcept nogil:
    """One suit of both hands (16 bits each) with its cards keyed by relative rank:
    the zero-point cards still held (K Q J 9 8 7) moved down to the lowest places of
    their run, the brisques (A T) likewise within theirs, each keeping its copies in
    each hand.  Order within the suit and points are kept, so positions that differ
    only in which cards of a run were played have the same future."""
    cdef uint64_t pa = 0, pb = 0, occ
    cdef int st, slot = 0
    occ = (a | b | ((a | b) >> 1)) & 0x5555
    while occ & 0x0FFF:
        st = lowest_bit(occ)
        occ &= occ - 1
        pa |= ((a >> st) & 3) << slot
        pb |= ((b >> st) & 3) << slot
        slot += 2
    slot = 12
    while occ:
        st = lowest_bit(occ)
        occ &= occ - 1
        pa |= ((a >> st) & 3) << slot
        pb |= ((b >> st) & 3) << slot
        slot += 2
    return pa | (pb << 16)


cdef inline void key2(Ctx* c, uint64_t h0, uint64_t h1, int leader, Key* k) noexcept nogil:
    """Phase-2 key at a trick start: each suit by relative ranks (pack_suit), the
    trump suit first and the three plain suits sorted (they are interchangeable in
    phase 2), and the leader.  Two positions with one key have one value."""
    cdef uint64_t p[3]
    cdef uint64_t t, x
    cdef int suit, n = 0
    for suit in range(4):
        x = pack_suit((h0 >> (16 * suit)) & 0xFFFF, (h1 >> (16 * suit)) & 0xFFFF)
        if suit == c.trump:
            t = x
        else:
            p[n] = x
            n += 1
    if p[0] < p[1]:
        x = p[0]; p[0] = p[1]; p[1] = x
    if p[1] < p[2]:
        x = p[1]; p[1] = p[2]; p[2] = x
    if p[0] < p[1]:
        x = p[0]; p[0] = p[1]; p[1] = x
    k.k0 = t | (p[0] << 32)
    k.k1 = p[1] | (p[2] << 32)
    k.k2 = 0
    k.k3 = (<uint64_t>leader << 6) | (<uint64_t>1 << 20)


cdef int search2(Ctx* c, uint64_t h0, uint64_t h1, int led, int leader, int alpha, int beta) noexcept nogil:
    """Phase 2, fail-soft alpha-beta.  `led`: the bit of the card led (-1: none)."""
    cdef uint64_t h[2]
    cdef uint64_t saved
    cdef int mover, n, i, b, v, best, best_move = NO_MOVE, tt_move = NO_MOVE, a0 = alpha, b0 = beta
    cdef int avail, winner, gain, la, lb
    cdef int moves[32]
    cdef bint maximising, use_table
    cdef Key key
    cdef Entry* e
    if check_limits(c):
        return 0
    c.nodes2 += 1
    h[0] = h0
    h[1] = h1
    if led < 0:
        if (h0 | h1) == 0:
            return 0
        if popcount(h0) == 1 and popcount(h1) == 1:
            la = lowest_bit(h[leader])
            lb = lowest_bit(h[1 - leader])
            winner = 1 - leader if follower_wins2(c, la, lb) else leader
            gain = bit_points(la) + bit_points(lb) + 10
            return gain if winner == 0 else -gain
    use_table = led < 0
    if use_table:
        if c.opt_relative:
            key2(c, h0, h1, leader, &key)
        else:
            key.k0 = h0
            key.k1 = h1
            key.k2 = 0
            key.k3 = (<uint64_t>leader << 6) | (<uint64_t>1 << 20)
        e = probe(c, &key)
        if e != NULL:
            if e.lower >= beta or e.lower == e.upper:
                c.cuts += 1
                return e.lower
            if e.upper <= alpha:
                c.cuts += 1
                return e.upper
            if e.lower > alpha:
                alpha = e.lower
            if e.upper < beta:
                beta = e.upper
            tt_move = e.move
    if c.opt_bounds:
        avail = 10 * (popcount(h0 & BRISQUES) + popcount(h1 & BRISQUES)) + 10 + (bit_points(led) if led >= 0 else 0)
        if avail <= alpha:
            c.bound_cuts += 1
            return avail
        if -avail >= beta:
            c.bound_cuts += 1
            return -avail
    mover = leader if led < 0 else 1 - leader
    maximising = mover == 0
    n = order2(c, h, mover, led, legal2(c, h[mover], led), tt_move, moves)
    best = -INF if maximising else INF
    for i in range(n):
        saved = h[mover]
        b = take(&h[mover], moves[i])
        if led < 0:
            v = search2(c, h[0], h[1], b, leader, alpha, beta)
        else:
            winner = 1 - leader if follower_wins2(c, led, b) else leader
            gain = bit_points(led) + bit_points(b)
            if (h[0] | h[1]) == 0:
                gain += 10
            if winner == 1:
                gain = -gain
            if (h[0] | h[1]) == 0:
                v = gain
            else:
                v = gain + search2(c, h[0], h[1], -1, winner, alpha - gain, beta - gain)
        h[mover] = saved
        if c.aborted:
            return 0
        if fold_child(v, maximising, &best, &alpha, &beta):
            best_move = moves[i]
        if alpha >= beta:
            break
    if use_table:
        store(c, &key, popcount(h0) + popcount(h1), best, a0, b0, best_move)
    return best


# --- phase 1 ------------------------------------------------------------------------------

cdef inline int decl_add(DMove* out, int n, int kind, int value, int bit) noexcept nogil:
    if n >= MAX_DECL:
        return n
    out[n].kind = <int8_t>kind
    out[n].value = <int16_t>value
    out[n].bit = <int8_t>bit
    out[n].n = 0
    return n + 1


cdef inline void decl_copy(DMove* m, int card, int k) noexcept nogil:
    m.cards[m.n] = <int8_t>card
    m.ks[m.n] = <int8_t>k
    m.n += 1


cdef inline int variants(Pos* p, int s, int card, int forbid, int* ks) noexcept nogil:
    """The distinct copies of `card` in seat s's hand without the bits `forbid`."""
    cdef int n = 0, cnt = copies(p.hand[s], card)
    if cnt >= 1 and not (p.mk[s][card][0] & forbid):
        ks[n] = 0
        n += 1
    if cnt == 2 and not (p.mk[s][card][1] & forbid) and (n == 0 or p.mk[s][card][1] != p.mk[s][card][0]):
        ks[n] = 1
        n += 1
    return n


cdef int gen_fours(Pos* p, int s, int rank, int value, DMove* out, int n) noexcept nogil:
    """Every distinct choice of four copies of `rank` (any suits) without FOUR, at
    least one of them fresh."""
    cdef int suit, i, a, b0, b1, b2, b3, nv, card, j, total = 0
    cdef int elig[4][2]         # eligible copy indices per suit
    cdef int avail[4]
    cdef int choice[4]          # taking one of two eligible copies that differ
    cdef int take_[4]
    cdef bint fresh
    for suit in range(4):
        card = suit * 8 + rank
        avail[suit] = 0
        for i in range(copies(p.hand[s], card)):
            if not (p.mk[s][card][i] & M_FOUR):
                elig[suit][avail[suit]] = i
                avail[suit] += 1
        total += avail[suit]
    if total < 4:
        return n
    for b0 in range(avail[0] + 1):
        for b1 in range(avail[1] + 1):
            for b2 in range(avail[2] + 1):
                b3 = 4 - b0 - b1 - b2
                if b3 < 0 or b3 > avail[3]:
                    continue
                take_[0] = b0
                take_[1] = b1
                take_[2] = b2
                take_[3] = b3
                nv = 1
                for suit in range(4):
                    card = suit * 8 + rank
                    choice[suit] = take_[suit] == 1 and avail[suit] == 2 \
                        and p.mk[s][card][elig[suit][0]] != p.mk[s][card][elig[suit][1]]
                    if choice[suit]:
                        nv *= 2
                for a in range(nv):
                    if n >= MAX_DECL:
                        return n
                    j = a
                    n = decl_add(out, n, D_MELD, value, M_FOUR)
                    fresh = False
                    for suit in range(4):
                        card = suit * 8 + rank
                        if take_[suit] == 2:
                            decl_copy(&out[n - 1], card, elig[suit][0])
                            decl_copy(&out[n - 1], card, elig[suit][1])
                        elif take_[suit] == 1:
                            if choice[suit]:
                                decl_copy(&out[n - 1], card, elig[suit][j & 1])
                                j >>= 1
                            else:
                                decl_copy(&out[n - 1], card, elig[suit][0])
                    for i in range(4):
                        if not (p.mk[s][out[n - 1].cards[i]][out[n - 1].ks[i]] & M_MELD):
                            fresh = True
                    if not fresh:
                        n -= 1
    return n


cdef int gen_declarations(Ctx* c, Pos* p, DMove* out) noexcept nogil:
    """The declaration moves of seat p.to_declare: seven, exchange7, melds, pass."""
    cdef int s = p.to_declare, n = 0, suit, i, j, q, card, kc, value, x
    cdef int kk[2]
    cdef int kq[2]
    cdef int seqk[5][2]
    cdef int seqn[5]
    cdef int idx[5]
    cdef bint fresh
    cdef int t7 = c.trump7
    cdef int last
    cdef int n7 = copies(p.hand[s], t7)
    cdef bint unmarked7 = n7 >= 1 and not (p.mk[s][t7][0] & M_SEVEN)
    if unmarked7:
        n = decl_add(out, n, D_SEVEN, 10, M_SEVEN)
        last = talon_card(c, p, p.talon_len - 1)
        if not p.exchanged and (last & 7) != R_SEVEN:
            n = decl_add(out, n, D_EXCHANGE, 10, M_SEVEN)
    # double bésigue
    if copies(p.hand[s], SPADES * 8 + R_QUEEN) == 2 and copies(p.hand[s], DIAMONDS * 8 + R_JACK) == 2:
        fresh = False
        x = 0
        for i in range(2):
            x |= p.mk[s][SPADES * 8 + R_QUEEN][i] | p.mk[s][DIAMONDS * 8 + R_JACK][i]
            if not (p.mk[s][SPADES * 8 + R_QUEEN][i] & M_MELD) or not (p.mk[s][DIAMONDS * 8 + R_JACK][i] & M_MELD):
                fresh = True
        if fresh and not (x & M_DOUBLE):
            n = decl_add(out, n, D_MELD, 500, M_DOUBLE)
            decl_copy(&out[n - 1], SPADES * 8 + R_QUEEN, 0)
            decl_copy(&out[n - 1], SPADES * 8 + R_QUEEN, 1)
            decl_copy(&out[n - 1], DIAMONDS * 8 + R_JACK, 0)
            decl_copy(&out[n - 1], DIAMONDS * 8 + R_JACK, 1)
    # trump sequence
    for i in range(5):
        seqn[i] = variants(p, s, c.trump * 8 + i, M_SEQUENCE, seqk[i])
    if seqn[0] and seqn[1] and seqn[2] and seqn[3] and seqn[4]:
        for idx[0] in range(seqn[0]):
            for idx[1] in range(seqn[1]):
                for idx[2] in range(seqn[2]):
                    for idx[3] in range(seqn[3]):
                        for idx[4] in range(seqn[4]):
                            fresh = False
                            for i in range(5):
                                if not (p.mk[s][c.trump * 8 + i][seqk[i][idx[i]]] & M_MELD):
                                    fresh = True
                            if fresh:
                                n = decl_add(out, n, D_MELD, 250, M_SEQUENCE)
                                for i in range(5):
                                    decl_copy(&out[n - 1], c.trump * 8 + i, seqk[i][idx[i]])
    # four of a kind
    n = gen_fours(p, s, R_ACE, 100, out, n)
    n = gen_fours(p, s, R_KING, 80, out, n)
    n = gen_fours(p, s, R_QUEEN, 60, out, n)
    # marriages, bésigue
    for suit in range(4):
        value = 40 if suit == c.trump else 20
        kc = variants(p, s, suit * 8 + R_KING, M_MARRIAGE | (M_SEQUENCE if suit == c.trump else 0), kk)
        q = variants(p, s, suit * 8 + R_QUEEN, M_MARRIAGE | (M_SEQUENCE if suit == c.trump else 0), kq)
        for i in range(kc):
            for j in range(q):
                if (p.mk[s][suit * 8 + R_KING][kk[i]] & M_MELD) and (p.mk[s][suit * 8 + R_QUEEN][kq[j]] & M_MELD):
                    continue
                n = decl_add(out, n, D_MELD, value, M_MARRIAGE)
                decl_copy(&out[n - 1], suit * 8 + R_KING, kk[i])
                decl_copy(&out[n - 1], suit * 8 + R_QUEEN, kq[j])
    kc = variants(p, s, SPADES * 8 + R_QUEEN, M_BESIGUE, kk)
    q = variants(p, s, DIAMONDS * 8 + R_JACK, M_BESIGUE, kq)
    for i in range(kc):
        for j in range(q):
            if (p.mk[s][SPADES * 8 + R_QUEEN][kk[i]] & M_MELD) and (p.mk[s][DIAMONDS * 8 + R_JACK][kq[j]] & M_MELD):
                continue
            n = decl_add(out, n, D_MELD, 40, M_BESIGUE)
            decl_copy(&out[n - 1], SPADES * 8 + R_QUEEN, kk[i])
            decl_copy(&out[n - 1], DIAMONDS * 8 + R_JACK, kq[j])
    n = gen_fours(p, s, R_JACK, 40, out, n)
    n = decl_add(out, n, D_PASS, 0, 0)
    return n


cdef inline void apply_declaration(Ctx* c, Pos* p, DMove* m) noexcept nogil:
    cdef int s = p.to_declare, i, last
    if m.kind == D_SEVEN:
        p.mk[s][c.trump7][0] |= M_SEVEN  # sorted: an unmarked copy comes first
        sort_marks(p, s, c.trump7)
        return
    if m.kind == D_EXCHANGE:
        last = talon_card(c, p, p.talon_len - 1)
        remove_copy(p, s, c.trump7, 0)
        add_copy(p, s, last, 0)
        p.exchanged = 1
        return
    if m.kind == D_MELD:
        for i in range(m.n):
            p.mk[s][m.cards[i]][m.ks[i]] |= <uint8_t>m.bit
        for i in range(m.n):
            sort_marks(p, s, m.cards[i])
    do_draws(c, p)


cdef inline int meld_cost(Ctx* c, Pos* p, int s, int card, int k) noexcept nogil:
    """How much a seat minds giving up a copy (phase 1 ordering)."""
    cdef int r = card & 7, cost = (7 - r)
    cdef int relevant = c.relevant[card] & M_MELD
    if r <= R_TEN:
        cost += 20
    if (card >> 3) == c.trump:
        cost += 12
    if relevant and (p.mk[s][card][k] & relevant) != relevant:
        cost += 6
    return cost


cdef int gen_plays(Ctx* c, Pos* p, int mover, int* cards, int* ks) noexcept nogil:
    """Phase 1: one move per distinct copy the mover holds."""
    cdef uint64_t held = p.hand[mover] & EVEN
    cdef int n = 0, b, card
    while held:
        b = lowest_bit(held)
        held &= held - 1
        card = bit_card(b)
        cards[n] = card
        ks[n] = 0
        n += 1
        if (p.hand[mover] >> (b + 1)) & 1 and p.mk[mover][card][1] != p.mk[mover][card][0]:
            cards[n] = card
            ks[n] = 1
            n += 1
    return n


cdef int declaration_bound(Ctx* c, Pos* p) noexcept nogil:
    """An upper bound on the declaration points still to come (sevens included)."""
    cdef int steps = p.talon_len // 2, best = 0, r, suit, card, i, s
    cdef uint64_t unplayed = 0
    cdef int k
    if steps == 0:
        return 0
    # cards not yet played: hands and talon (card level)
    unplayed = p.hand[0] | p.hand[1] | ((p.hand[0] & p.hand[1] & EVEN) << 1)  # both hands' copies
    for i in range(p.talon_len):
        card = talon_card(c, p, i)
        k = card_bit(card)
        if (unplayed >> k) & 1:
            unplayed |= <uint64_t>1 << (k + 1)
        else:
            unplayed |= <uint64_t>1 << k
    # the largest meld the unplayed cards could still make
    if popcount(unplayed & ((<uint64_t>3 << card_bit(SPADES * 8 + R_QUEEN)) | (<uint64_t>3 << card_bit(DIAMONDS * 8 + R_JACK)))) == 4:
        best = 500
        for s in range(2):
            for i in range(2):
                if (p.mk[s][SPADES * 8 + R_QUEEN][i] | p.mk[s][DIAMONDS * 8 + R_JACK][i]) & M_DOUBLE:
                    best = 0
    if best < 250:
        best = 250 if all_present(unplayed, c.trump) else best
    if best < 100:
        for r in range(5):
            if rank_count(unplayed, r) >= 4:
                if r == R_ACE:
                    best = 100 if best < 100 else best
                elif r == R_KING:
                    best = 80 if best < 80 else best
                elif r == R_QUEEN:
                    best = 60 if best < 60 else best
                elif r == R_JACK:
                    best = 40 if best < 40 else best
        if best < 40:
            for suit in range(4):
                if (unplayed >> card_bit(suit * 8 + R_KING)) & 1 and (unplayed >> card_bit(suit * 8 + R_QUEEN)) & 1:
                    best = 40 if suit == c.trump else (20 if best < 20 else best)
            if (unplayed >> card_bit(SPADES * 8 + R_QUEEN)) & 1 and (unplayed >> card_bit(DIAMONDS * 8 + R_JACK)) & 1:
                best = 40
    card = popcount(unplayed & (<uint64_t>3 << card_bit(c.trump7)))
    return steps * best + 10 * card


cdef inline bint all_present(uint64_t cards, int trump) noexcept nogil:
    cdef int r
    for r in range(5):
        if not (cards >> card_bit(trump * 8 + r)) & 1:
            return False
    return True


cdef inline int rank_count(uint64_t cards, int r) noexcept nogil:
    cdef int suit, n = 0
    for suit in range(4):
        n += copies(cards, suit * 8 + r)
    return n


cdef inline bint tt_lookup(Ctx* c, Key* key, int* alpha, int* beta, int* tt_move, int* result) noexcept nogil:
    """Probe the table; True with `result` set when the entry settles the node."""
    cdef Entry* e = probe(c, key)
    if e == NULL:
        return False
    if e.lower >= beta[0] or e.lower == e.upper:
        c.cuts += 1
        result[0] = e.lower
        return True
    if e.upper <= alpha[0]:
        c.cuts += 1
        result[0] = e.upper
        return True
    if e.lower > alpha[0]:
        alpha[0] = e.lower
    if e.upper < beta[0]:
        beta[0] = e.upper
    tt_move[0] = e.move
    return False


cdef inline int card_points_to_come(Ctx* c, Pos* p) noexcept nogil:
    """The brisques in the hands and the talon, and the last trick."""
    return 10 * (popcount(p.hand[0] & BRISQUES) + popcount(p.hand[1] & BRISQUES)) + c.talon_brisques[p.talon_len] + 10


cdef inline bint bound_cut(Ctx* c, Pos* p, int alpha, int beta, int* result) noexcept nogil:
    """Cut-off from the points still available to either seat: brisques in hands,
    talon and trick, the last trick, and a bound on the declarations to come."""
    cdef int avail
    if not c.opt_bounds:
        return False
    avail = card_points_to_come(c, p) + (brisque(p.trick) if p.trick >= 0 else 0) + declaration_bound(c, p)
    if avail <= alpha:
        c.bound_cuts += 1
        result[0] = avail
        return True
    if -avail >= beta:
        c.bound_cuts += 1
        result[0] = -avail
        return True
    return False


cdef int last_step_choices(Ctx* c, Pos* p, DMove* decl, int n) noexcept nogil:
    """The last declaration step (talon of 2): the draws that follow start phase 2,
    where marks no longer matter, so declaring every unscored seven and the
    highest meld is at least as good as any other line that keeps the hand as it
    is; only an exchange (which changes the hand) is a real alternative."""
    cdef int i, m = 0, best = -1, sevens = 0, s = p.to_declare
    cdef DMove top
    for i in range(copies(p.hand[s], c.trump7)):
        if not (p.mk[s][c.trump7][i] & M_SEVEN):
            sevens += 10
    for i in range(n):
        if decl[i].kind == D_PASS or decl[i].kind == D_MELD:
            if best < 0 or decl[i].value > decl[best].value:
                best = i
    top = decl[best]
    for i in range(n):
        if decl[i].kind == D_EXCHANGE:
            decl[m] = decl[i]
            m += 1
    decl[m] = top
    decl[m].value = <int16_t>(decl[m].value + sevens)
    return m + 1


cdef uint64_t ACES = 0xC000C000C000C000ULL  # both copies of every Ace


cdef inline int hand_worth(Ctx* c, uint64_t hand) noexcept nogil:
    """Tenths of a point: what a hand at a trick start is worth for the rest of the deal
    (the leaf's weights: solver/besigue.py, `horizon_guess`)."""
    cdef uint64_t trumps = hand & suit_mask(c.trump)
    return 65 * popcount(hand & BRISQUES) + 80 * popcount(trumps) + 40 * popcount(trumps & BRISQUES) \
        + 50 * popcount(hand & ACES)


cdef inline int horizon_leaf(Ctx* c, Pos* p) noexcept nogil:
    """A horizon search's value of what comes after a trick start: even, or (opt_leaf) a
    guess from the hands, as `horizon_guess` in solver/besigue.py makes it."""
    cdef int tenths, v, avail
    if not c.opt_leaf:
        return 0
    tenths = hand_worth(c, p.hand[0]) - hand_worth(c, p.hand[1]) + (-55 if p.leader == 0 else 55)
    # to the nearest multiple of 10 points, halves away from 0 (no division of a negative number)
    v = 10 * ((tenths + 50) // 100) if tenths >= 0 else -10 * ((50 - tenths) // 100)
    avail = card_points_to_come(c, p)
    return max(-avail, min(avail, v))


cdef int search(Ctx* c, Pos* p, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta over any state."""
    if c.horizon > 0 and p.trick < 0 and p.to_declare < 0 and p.talon_len <= c.horizon:
        return horizon_leaf(c, p)  # a horizon search: an estimate of what comes after, not a value
    if p.talon_len == 0 and p.to_declare < 0:
        c.roots2 += 1
        return search2(c, p.hand[0], p.hand[1], card_bit(p.trick) if p.trick >= 0 else -1, p.leader, alpha, beta)
    if check_limits(c):
        return 0
    if p.to_declare >= 0:
        return search_declare(c, p, alpha, beta)
    return search_play(c, p, alpha, beta)


cdef int search_play(Ctx* c, Pos* p, int alpha, int beta) noexcept nogil:
    """Phase 1, a card to play: one move per distinct copy."""
    cdef Pos child
    cdef Key key
    cdef int mover, n, i, j, v, gain, best, best_move = NO_MOVE, tt_move = NO_MOVE, a0 = alpha, b0 = beta
    cdef int winner, depth, card, result
    cdef int order[20]
    cdef int keys[20]
    cdef int cards[20]
    cdef int ks[20]
    cdef bint use_table = p.trick < 0 or c.opt_probe_follow
    if use_table:
        make_key(c, p, &key)
        if tt_lookup(c, &key, &alpha, &beta, &tt_move, &result):
            return result
    if bound_cut(c, p, alpha, beta, &result):
        return result
    mover = p.leader if p.trick < 0 else 1 - p.leader
    n = gen_plays(c, p, mover, cards, ks)
    for i in range(n):
        order[i] = i
        card = cards[i]
        if i == tt_move:
            keys[i] = 1 << 30
        else:
            keys[i] = 100 - meld_cost(c, p, mover, card, ks[i])
            if c.opt_history:
                keys[i] += c.history[mover][p.trick + 1][card] << 7
            if p.trick >= 0 and phase1_follower_wins(c, p.trick, card):
                keys[i] += 1 << 28
    sort_by_key(order, keys, n)
    best = -INF if mover == 0 else INF
    for j in range(n):
        i = order[j]
        memcpy(&child, p, sizeof(Pos))
        remove_copy(&child, mover, cards[i], ks[i])
        if p.trick < 0:
            child.trick = <int8_t>cards[i]
            v = search(c, &child, alpha, beta)
        else:
            winner = 1 - p.leader if phase1_follower_wins(c, p.trick, cards[i]) else p.leader
            gain = brisque(p.trick) + brisque(cards[i])
            if winner == 1:
                gain = -gain
            child.trick = -1
            child.leader = <int8_t>winner
            child.to_declare = <int8_t>winner
            v = gain + search(c, &child, alpha - gain, beta - gain)
        if c.aborted:
            return 0
        if fold_child(v, mover == 0, &best, &alpha, &beta):
            best_move = i
        if alpha >= beta:
            if c.opt_history and c.history[mover][p.trick + 1][cards[i]] < (1 << 20):
                c.history[mover][p.trick + 1][cards[i]] += p.talon_len * p.talon_len
            break
    if use_table:
        depth = 64 + p.talon_len * 2 + popcount(p.hand[0]) + popcount(p.hand[1])
        store(c, &key, depth if depth < 255 else 255, best, a0, b0, best_move)
    return best


cdef int search_declare(Ctx* c, Pos* p, int alpha, int beta) noexcept nogil:
    """Phase 1, the trick's winner declares: seven, exchange7, a meld or pass."""
    cdef Pos child
    cdef Key key
    cdef int s = p.to_declare, n, i, j, v, gain, best, best_move = NO_MOVE, tt_move = NO_MOVE, a0 = alpha, b0 = beta
    cdef int depth, result
    cdef int order[256]
    cdef int keys[256]
    cdef DMove decl[256]
    cdef bint use_table = c.opt_probe_declare
    # sevens that can never be exchanged any more: declaring them at once is as good
    # as any other line (their mark has no other use), so that is the only line kept
    if copies(p.hand[s], c.trump7) and not (p.mk[s][c.trump7][0] & M_SEVEN) \
            and (p.exchanged or (talon_card(c, p, p.talon_len - 1) & 7) == R_SEVEN):
        memcpy(&child, p, sizeof(Pos))
        gain = 0
        for i in range(copies(p.hand[s], c.trump7)):
            if not (child.mk[s][c.trump7][i] & M_SEVEN):
                child.mk[s][c.trump7][i] |= M_SEVEN
                gain += 10
        if s == 1:
            gain = -gain
        return gain + search(c, &child, alpha - gain, beta - gain)
    if use_table:
        make_key(c, p, &key)
        if tt_lookup(c, &key, &alpha, &beta, &tt_move, &result):
            return result
    if bound_cut(c, p, alpha, beta, &result):
        return result
    n = gen_declarations(c, p, decl)
    if p.talon_len == 2 and c.opt_last_step:
        n = last_step_choices(c, p, decl, n)
    for i in range(n):
        order[i] = i
        if i == tt_move:
            keys[i] = 1 << 30
        elif decl[i].kind == D_SEVEN or decl[i].kind == D_EXCHANGE:
            keys[i] = 2000 - decl[i].kind
        else:
            keys[i] = decl[i].value
    sort_by_key(order, keys, n)
    best = -INF if s == 0 else INF
    for j in range(n):
        i = order[j]
        memcpy(&child, p, sizeof(Pos))
        apply_declaration(c, &child, &decl[i])
        gain = decl[i].value if s == 0 else -decl[i].value
        v = gain + search(c, &child, alpha - gain, beta - gain)
        if c.aborted:
            return 0
        if fold_child(v, s == 0, &best, &alpha, &beta):
            best_move = i
        if alpha >= beta:
            break
    if use_table:
        depth = 64 + p.talon_len * 2 + popcount(p.hand[0]) + popcount(p.hand[1])
        store(c, &key, depth if depth < 255 else 255, best, a0, b0, best_move)
    return best


cdef int windowed(Ctx* c, Pos* p, int alpha, int beta) noexcept nogil:
    """Fail-soft value for the window (alpha, beta) by null-window tests (MTD(f)):
    each test steps from the last bound by a stride that doubles while the tests
    fail the same way, and bisects once the value is bracketed.  The table keeps
    what each test learns."""
    cdef int lower = -INF, upper = INF, g, gamma, stride = 10, lo_w, hi_w
    if beta - alpha <= 1:
        c.passes += 1
        return search(c, p, alpha, beta)
    gamma = 0
    while lower < upper:
        if upper <= alpha:
            return upper
        if lower >= beta:
            return lower
        lo_w = lower + 1 if lower + 1 > alpha + 1 else alpha + 1
        hi_w = upper if upper < beta else beta
        if gamma < lo_w:
            gamma = lo_w
        if gamma > hi_w:
            gamma = hi_w
        c.passes += 1
        g = search(c, p, gamma - 1, gamma)
        if c.aborted:
            return 0
        if g < gamma:
            upper = g
        else:
            lower = g
        if lower == -INF:
            gamma = upper - stride + 1
            stride *= 2
        elif upper == INF:
            gamma = lower + stride
            stride *= 2
        else:
            # every value is a multiple of 10: bisect on those
            gamma = lower + 10 * (((upper - lower) // 10 + 1) // 2)
            if gamma <= lower:
                gamma = lower + 1
    return lower


# --- Python interface -----------------------------------------------------------------------

cdef uint8_t relevant_bits(int card, int trump):
    cdef int suit = card >> 3, r = card & 7, bits = 0
    if r == R_ACE:
        bits = M_FOUR
    elif r == R_KING or r == R_QUEEN:
        bits = M_MARRIAGE | M_FOUR
    elif r == R_JACK:
        bits = M_FOUR
    if suit == trump and r <= R_JACK:
        bits |= M_SEQUENCE
    if card == SPADES * 8 + R_QUEEN or card == DIAMONDS * 8 + R_JACK:
        bits |= M_BESIGUE | M_DOUBLE
    if suit == trump and r == R_SEVEN:
        bits = M_SEVEN
    return <uint8_t>bits


def _one_ends_the_other(tuple a, tuple b):
    """Whether the shorter of two talons is the end of the longer one."""
    if len(a) > len(b):
        a, b = b, a
    return not a or b[len(b) - len(a):] == a


def _deal_talons(tuple talons, tuple talon, bint exchanged, int trump7):
    """The talons a deal's table assumes, once a root with `talon` joins it; None if
    the root is of another deal.  A key holds the talon's length and the exchanged
    flag, not its cards: within one deal the talon only shrinks from the top, so a
    later root's talon is the end of an earlier one's, and one table serves every
    position of a deal (hints through it, the children of a declaration, a line of
    best play).  `talons` are the longest seen with the retourne and with the trump 7
    exchanged for it (a root not yet exchanged reaches both); ((), ()) for none."""
    plain, swapped_seen = talons
    if not talon:
        return talons  # phase 2: the key reads no talon card
    if not exchanged and not _one_ends_the_other(talon, plain):
        return None
    swapped = talon if exchanged else talon[: len(talon) - 1] + (trump7,)
    if not _one_ends_the_other(swapped, swapped_seen):
        return None
    if not exchanged and len(talon) > len(plain):
        plain = talon
    if len(swapped) > len(swapped_seen):
        swapped_seen = swapped
    return plain, swapped_seen


cdef class BesigueEngine:
    """Exact double-dummy search for Bésigue with its own bounded transposition table.

    One engine serves one thread at a time; give each thread its own.  The table is
    kept between calls while they search one deal (the same trump, trick rule and
    options; talons that are the ends of one another), so repeated searches of one
    position, and the later positions of its deal, reuse it; a deal left for another
    is parked, and taken up again when one of its positions comes back.
    `BesigueEngine()` has 8 MB, as the library's own when no `engine=` is given."""

    cdef Entry* table
    cdef uint64_t table_mask
    cdef uint8_t generation  # of the deal the table serves now
    cdef uint8_t newest_generation  # the last one given out (a deal taken up keeps its own)
    cdef readonly int tt_megabytes
    cdef readonly long long tt_entries
    cdef object signature  # what the table's entries assume but for the talon
    cdef tuple talons  # what they assume of the talon: see _deal_talons
    cdef list parked  # (signature, talons, generation) of the deals left, latest last
    cdef bint busy
    cdef volatile int cancel_requested
    cdef readonly long long cancels  # cancel() calls so far: analyses of many searches stop at a change
    cdef volatile int cancel_pending  # cancel(before_start=True) until forget_cancel()
    cdef Ctx ctx
    cdef public dict options

    def __cinit__(self, object tt_megabytes=8):
        tt_megabytes = table_megabytes(tt_megabytes)  # an OptionError names a bad size
        cdef long long entries = 1024
        while entries * 2 * sizeof(Entry) <= <long long>tt_megabytes * 1024 * 1024:
            entries *= 2
        self.tt_entries = entries  # before the table: __dealloc__ frees it by this size
        with nogil:  # zeroing the table: other threads go on meanwhile
            self.table = <Entry*>table_memory(entries * sizeof(Entry))
        if self.table == NULL:
            raise MemoryError(f"tt_megabytes: cannot allocate {tt_megabytes} MB")
        self.tt_megabytes = tt_megabytes
        self.table_mask = entries - 1
        self.generation = 1
        self.newest_generation = 1
        self.signature = None
        self.talons = ((), ())
        self.parked = []
        memset(&self.ctx, 0, sizeof(Ctx))
        self.options = {"bounds": 1, "probe_follow": 1, "probe_declare": 0, "relative": 1, "last_step": 1, "history": 1, "leaf": 1}

    def __dealloc__(self):
        table_free(self.table, self.tt_entries * sizeof(Entry))

    @property
    def tt_bytes(self):
        return self.tt_entries * sizeof(Entry)

    def clear(self):
        """Forget everything the table holds (refused while another thread solves: it
        would empty the table under that search)."""
        if self.busy:
            raise RuntimeError("this BesigueEngine is solving in another thread; clear it once that search is done")
        self._new_generation()
        self.signature = None
        self.parked = []

    def cancel(self, before_start=False):
        """Stop the search running in another thread soon (within a few thousand
        nodes); its result then says stopped="cancelled".  With `before_start`, as
        `Engine.cancel`: searches that start from now on stop at once, until
        `forget_cancel()`."""
        check_flag("before_start", before_start)  # "no" would be true
        if before_start:
            self.cancel_pending = 1
        self.cancel_requested = 1
        self.cancels += 1

    def forget_cancel(self):
        """End a `cancel(before_start=True)`: the next search starts afresh."""
        self.cancel_pending = 0

    cdef void _new_generation(self):
        self.newest_generation += 1
        if self.newest_generation == 0:
            memset(self.table, 0, (self.table_mask + 1) * sizeof(Entry))
            self.newest_generation = 1
            self.parked = []  # their entries are gone, and their numbers come again
        self.generation = self.newest_generation

    cdef object _take_up(self, object signature, tuple talon, bint exchanged, int trump7):
        """Leave the table's deal for the one a root with `talon` belongs to: park it
        (its generation, what its entries assume), and take up the latest parked deal
        the root fits, or start a new one.  Parked entries are the first a search
        replaces, so a deal never loses anything to them.  Returns the talons."""
        if self.signature is not None:
            self.parked.append((self.signature, self.talons, self.generation))
            del self.parked[:-PARKED_DEALS]
        for i in range(len(self.parked) - 1, -1, -1):
            parked_signature, parked_talons, generation = self.parked[i]
            if parked_signature == signature:
                talons = _deal_talons(parked_talons, talon, exchanged, trump7)
                if talons is not None:
                    del self.parked[i]
                    self.generation = generation
                    self.signature = signature
                    return talons
        self._new_generation()
        self.signature = signature
        return _deal_talons(((), ()), talon, exchanged, trump7)

    def stats(self):
        """The last search's counters and how many table entries are current."""
        cdef long long used = 0, i
        for i in range(self.table_mask + 1):
            if self.table[i].generation == self.generation:
                used += 1
        c = &self.ctx
        return {
            "nodes": c.nodes, "phase2_nodes": c.nodes2, "phase2_roots": c.roots2, "probes": c.probes, "hits": c.hits, "cuts": c.cuts,
            "bound_cuts": c.bound_cuts, "passes": c.passes, "stores": c.stores,
            "table_entries": used, "table_capacity": self.tt_entries,
        }

    def search(self, dict state, int alpha=-INF, int beta=INF, long long node_limit=0, double time_limit=0.0,
               int horizon=0):
        """The value of `state` (see the module docstring and solver/besigue.py) for
        the window (alpha, beta), fail soft.  Returns {"value", "stopped", "nodes"}.
        With `horizon` > 0 the search stops at the trick starts with at most that many
        talon cards and counts what follows as even: an estimate (the points of best
        play until then), not the value."""
        if self.busy:
            raise RuntimeError("this BesigueEngine is already searching in another thread; give each thread its own")
        self.busy = True
        try:
            return self._search(state, alpha, beta, node_limit, time_limit, horizon)
        finally:
            self.busy = False

    cdef object _search(self, dict state, int alpha, int beta, long long node_limit, double time_limit, int horizon):
        cdef Pos root
        cdef Ctx* c = &self.ctx
        cdef int v
        if alpha < -INF:
            alpha = -INF
        if beta > INF:
            beta = INF
        if alpha >= beta:
            raise ValueError("alpha must be below beta")
        self._load(state, &root, horizon)
        c.table = self.table
        c.table_mask = self.table_mask
        c.generation = self.generation
        c.nodes = 0
        c.probes = 0
        c.hits = 0
        c.cuts = 0
        c.bound_cuts = 0
        c.passes = 0
        c.stores = 0
        c.nodes2 = 0
        c.roots2 = 0
        self.cancel_requested = self.cancel_pending
        # a cancel before the start stops the search at its first node, not its first check
        c.aborted = LIMIT_CANCELLED if self.cancel_requested else 0
        c.cancel = &self.cancel_requested
        c.node_limit = node_limit
        c.deadline = now() + time_limit if time_limit > 0 else 0.0
        c.opt_bounds = self.options.get("bounds", 1)
        c.opt_probe_follow = self.options.get("probe_follow", 1)
        c.opt_probe_declare = self.options.get("probe_declare", 0)
        c.opt_relative = self.options.get("relative", 1)
        c.opt_last_step = self.options.get("last_step", 1)
        c.opt_history = self.options.get("history", 1)
        c.opt_leaf = self.options.get("leaf", 1)
        memset(c.history, 0, sizeof(c.history))
        with nogil:
            if c.horizon > 0 and root.trick < 0 and root.to_declare < 0 and root.talon_len <= c.horizon:
                v = horizon_leaf(c, &root)  # already at the horizon
            else:
                v = windowed(c, &root, alpha, beta)
        stopped = {LIMIT_NONE: None, LIMIT_NODES: "nodes", LIMIT_TIME: "time", LIMIT_CANCELLED: "cancelled"}[c.aborted]
        return {"value": v if not c.aborted else 0, "stopped": stopped, "nodes": c.nodes}

    cdef void _load(self, dict state, Pos* p, int horizon) except *:
        cdef Ctx* c = &self.ctx
        cdef int trump, card, m, seat, i, k, code, nb
        trump = int(state["trump"])
        if not 0 <= trump < 4:
            raise ValueError("trump: a suit index 0..3")
        standard = bool(state.get("standard", False))
        talon = [int(x) for x in state.get("talon", [])]
        exchanged = bool(state.get("exchanged", False))
        if len(talon) % 2:
            raise ValueError("talon: an even number of cards")
        for card in talon:
            if not 0 <= card < 32:
                raise ValueError(f"talon: {card} is not a card (0..31)")
        # the options too: `relative` changes what a phase-2 key means
        signature = (trump, standard, tuple(sorted(self.options.items())))
        talons = _deal_talons(self.talons, tuple(talon), exchanged, trump * 8 + R_SEVEN) \
            if signature == self.signature else None
        if talons is None:
            talons = self._take_up(signature, tuple(talon), exchanged, trump * 8 + R_SEVEN)
        self.talons = talons
        c.trump = trump
        c.standard = standard
        c.trump7 = trump * 8 + R_SEVEN
        c.root_len = len(talon)
        c.horizon = max(horizon, 0)
        c.root_exchanged = exchanged
        for i in range(len(talon)):
            c.talon[i] = talon[i]
        c.talon_brisques[0] = 0
        for i in range(1, len(talon) + 1):
            c.talon_brisques[i] = c.talon_brisques[i - 1] + brisque(talon[len(talon) - i])
        for card in range(32):
            c.relevant[card] = relevant_bits(card, trump)
            nb = 0
            for i in range(6):
                if (c.relevant[card] >> i) & 1:
                    nb += 1
            c.nbits[card] = nb
            for m in range(64):
                code = 0
                k = 0
                for i in range(6):
                    if (c.relevant[card] >> i) & 1:
                        if (m >> i) & 1:
                            code |= 1 << k
                        k += 1
                c.code[card][m] = code
        memset(p, 0, sizeof(Pos))
        hands = state["hands"]
        if len(hands) != 2:
            raise ValueError("hands: two seats")
        talon_len = len(talon)
        to_declare = int(state.get("to_declare", -1))
        for seat in range(2):
            for item in hands[seat]:
                card, m = int(item[0]), int(item[1])
                if not 0 <= card < 32:
                    raise ValueError(f"hands: {card} is not a card (0..31)")
                if m & ~63:
                    raise ValueError(f"hands: marks {m} of card {card}")
                if m & ~c.relevant[card]:
                    raise ValueError(f"hands: card {card} cannot carry the marks {m & ~c.relevant[card]}")
                if copies(p.hand[seat], card) == 2:
                    raise ValueError(f"hands: seat {seat} holds card {card} three times")
                if talon_len == 0 and to_declare < 0:
                    m = 0
                add_copy(p, seat, card, m)
        trick = list(state.get("trick", []))
        if len(trick) > 1:
            raise ValueError("trick: at most one card")
        p.trick = int(trick[0]) if trick else -1
        p.leader = int(state.get("leader", 0))
        p.to_declare = to_declare
        p.talon_len = talon_len
        p.exchanged = exchanged
        if p.leader not in (0, 1):
            raise ValueError("leader: 0 or 1")
        if p.to_declare not in (-1, 0, 1):
            raise ValueError("to_declare: -1, 0 or 1")
        if p.to_declare >= 0 and (p.trick >= 0 or talon_len == 0):
            raise ValueError("to_declare: a declaration needs an empty trick and a talon")
        if p.trick >= 0 and not 0 <= p.trick < 32:
            raise ValueError("trick: not a card")
        sizes = [popcount(p.hand[0]), popcount(p.hand[1])]
        if max(sizes) > 9:
            raise ValueError("hands: at most 9 cards each")
        if p.trick >= 0:
            sizes[p.leader] += 1
        if sizes[0] != sizes[1]:
            raise ValueError(f"hands: sizes {sizes[0]} and {sizes[1]} (trick card counted) do not fit")
        if talon_len and sizes[0] == 0:
            raise ValueError("hands: empty while the talon is not")
        if exchanged and talon_len and talon[talon_len - 1] != c.trump7:
            raise ValueError("exchanged: the talon's last card must then be the trump 7")
