# cython: language_level=3
"""The generic double-dummy search: alpha-beta over cards as bits, with bounded
transposition tables at trick boundaries (exact positions, and shapes: positions
whose cards are held in the same rank order share bounds within a margin).  No game is named here: everything about a
game comes in `Tables`, filled by solver/compile.py.  The search runs without the GIL
and touches only its own `Engine`.
"""

import math

from libc.stdint cimport int16_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memmove, memset

from solver._minimax cimport fold_child, sort_by_key
from solver.errors import check_flag, table_megabytes

cdef enum:
    LIMIT_NONE = 0
    LIMIT_NODES = 1
    LIMIT_TIME = 2
    LIMIT_CANCELLED = 3
    CHECK_EVERY = 4096       # nodes between clock reads
    BUCKET = 4               # entries probed per key: one cache line
    DEEP_SLOTS = 2           # of which the first two keep the deeper entries
    MOBILITY_STEP = 4096     # Tables.lead_mobility: above any lead_key, so replies order first
    LEAD_KILLER_BONUS = 2000 # Tables.lead_killers: above the other leads' keys (at most 1700 apart), below MOBILITY_STEP's
    MASTER_DUCK_POINTS = 8   # Tables.master_duck; 4 / 6 / 8 / 10: Putz mean nodes -6.1 / -6.4 / -6.9 / -3.1%

cdef struct State:
    uint64_t hands[MAX_SEATS]
    int trick[MAX_SEATS]
    int trick_len
    int leader
    int win_bit                  # the card winning the trick so far
    int win_off                  # its place in the trick
    int top_trump                # highest trump on the trick, -1 if none
    int scores[MAX_SEATS]        # per side, everything scored so far
    int tricks[MAX_SEATS]        # per side
    int tricks_left
    int points_left              # card points still in the hands
    uint64_t in_hands            # every card still in a hand
    uint64_t trick_cards         # the cards on the trick being played
    uint64_t live_roem           # the roem candidates whose cards are all in play (hands, trick)

cdef struct Undo:
    int win_bit
    int win_off
    int top_trump
    int leader
    int completed_side           # -1 if the move did not complete a trick
    int gained
    int replaced                 # the trick slot's card before (a finished trick's)
    uint64_t live_roem           # State.live_roem before the trick was completed

cdef struct Key:
    uint64_t lo                  # Entry.key
    uint16_t hi                  # Entry.key_hi


cdef struct Ctx:
    Tables* t
    State s
    Entry* table
    uint64_t table_mask
    uint8_t generation
    int64_t nodes
    int64_t node_limit           # 0: none
    int64_t next_check           # when to look at the limits again
    double deadline              # 0: none
    int aborted                  # LIMIT_*
    volatile int* cancel         # set from another thread by Engine.cancel()
    int64_t probes               # statistics for benchmarks
    int64_t hits
    int64_t cuts
    int64_t passes               # null-window searches run by MTD(f)
    int64_t claims               # positions settled by camp_claims
    int first_stride             # the next MTD(f)'s first stride (0: 1); read once
    int grid_total               # the next MTD(f)'s: a nat settlement's total with no more roem (0: none); read once
    # the bounds a limit left on the root move it stopped in (-INF, INF: none): what
    # its MTD(f)'s finished tests had proven (mtdf sets them as it stops; reset
    # before each root move)
    int stop_lower
    int stop_upper
    # inside a trick, per leader, tricks left, mover and winning card so far: the
    # card that last cut off there (255: none); see trick_killer_slot
    uint8_t trick_killer[MAX_SEATS * 16 * MAX_SEATS * MAX_BITS]
    ShapeEntry* shapes           # the shape table (see ShapeEntry)
    uint64_t shape_sets          # sets in the shape table (Tables.shape_set entries each)
    int64_t shape_hits           # statistics for benchmarks
    int64_t shape_cuts
    int horizon_stop             # an estimate: trick boundaries with this many tricks left or fewer are leaves (0: none)
    int leaf_model               # an estimate's leaves guess the rest by Tables.leaf_weights (else shared evenly)


# the compiler's and the system's (gcc, clang or MSVC): solver/native.h
cdef extern from "native.h":
    int popcount "plis_popcount"(uint64_t x) nogil
    int lowest_bit "plis_ctz"(uint64_t x) nogil  # x not 0
    int leading_zeros "plis_clz"(uint64_t x) nogil  # x not 0
    void prefetch "plis_prefetch"(const void* p) nogil
    double now "plis_now"() nogil  # seconds, monotonic
    void* table_memory(size_t size) nogil  # zeroed, in huge pages where possible
    void table_free(void* mem, size_t size) nogil  # the size it was made with


cdef inline int highest_bit(uint64_t x) noexcept nogil:
    return 63 - leading_zeros(x)


cdef inline uint64_t above(uint64_t mask, int bit) noexcept nogil:
    """The cards of `mask` stronger than `bit` in its group (all of `mask` if bit < 0)."""
    if bit < 0:
        return mask
    return mask & ~((<uint64_t>2 << bit) - 1)


# --- rules ------------------------------------------------------------------------

cdef inline uint64_t legal_moves(Ctx* c) noexcept nogil:
    cdef Tables* t = c.t
    cdef State* s = &c.s
    cdef int seat = t.seat_at[s.leader + s.trick_len]
    cdef uint64_t hand = s.hands[seat]
    if s.trick_len == 0:
        return hand
    cdef int led = t.group_of[s.trick[0]]
    cdef uint64_t follow = hand & t.group_mask[led]
    cdef uint64_t trumps = 0
    cdef uint64_t higher, lower
    cdef bint trump_led = led == t.trump_group
    cdef bint partner_winning
    if t.trump_group >= 0:
        trumps = hand & t.group_mask[t.trump_group]
    if t.rule == RULE_FREE:
        return follow if follow else hand
    if t.rule == RULE_JASS:
        if trump_led:
            if not trumps or (t.buur_exception and trumps == (<uint64_t>1 << t.buur_bit)):
                return hand
            return trumps
        higher = (follow | trumps) if follow else hand
        if s.top_trump >= 0 and trumps != hand:
            higher &= ~(trumps & ~above(trumps, s.top_trump))  # no undertrumping
        return higher
    if trump_led or (follow and t.rule != RULE_KLAVERJAS_SEED):
        if trump_led and t.rule != RULE_KLAVERJAS_SEED:
            if not trumps:
                return hand
            higher = above(trumps, s.top_trump)
            return higher if higher else trumps
        if t.rule != RULE_KLAVERJAS_SEED:
            return follow
    partner_winning = t.side_of[t.seat_at[s.leader + s.win_off]] == t.side_of[seat]
    if t.rule == RULE_ROTTERDAM:
        if not trumps:
            return hand
        higher = above(trumps, s.top_trump)
        return higher if higher else trumps
    if t.rule == RULE_AMSTERDAM:
        lower = trumps & ~above(trumps, s.top_trump) if s.top_trump >= 0 else 0
        if not partner_winning:
            higher = above(trumps, s.top_trump)
            if higher:
                return higher
        if lower == hand:
            return hand
        return hand & ~lower
    if t.rule == RULE_KLAVERJAS_SEED:
        if follow:
            if t.group_of[s.trick[s.trick_len - 1]] == led:
                higher = above(follow, s.trick[s.trick_len - 1])
                return higher if higher else follow
            return follow
        if s.top_trump >= 0:
            higher = above(trumps, s.top_trump)
            if higher:
                return higher
        return hand
    # RULE_BELOTE, void in the suit led
    if partner_winning or not trumps:
        return hand
    higher = above(trumps, s.top_trump)
    return higher if higher else hand


cdef int roem_of(Tables* t, State* s) noexcept nogil:
    """Klaverjas roem of the complete trick on the table (its cards: trick_cards).

    The cards' places in their suits' runs are packed 8 bits a suit, so that one
    word tells whether any three fall in a row; only then is each suit looked at."""
    cdef uint32_t x = 0
    cdef int i
    for i in range(t.n_players):
        x |= t.roem_place_bit[s.trick[i]]
    return roem_of_cards(t, s.trick_cards, x, t.rank_of[s.trick[0]])


cdef inline int roem_of_cards(Tables* t, uint64_t cards, uint32_t x, int rank) noexcept nogil:
    """The roem of a complete trick: its cards, their places packed (roem_place_bit),
    the rank of one of them."""
    cdef uint32_t run3, run4
    cdef int i, total = 0
    if t.n_players == 4 and (cards & t.rank_mask[rank]) == cards:  # no run, no stuk
        return t.four_of_a_kind[rank]
    run3 = x & (x >> 1) & (x >> 2) & 0x3F3F3F3F  # runs start at places 0..5
    if run3:
        run4 = run3 & (x >> 3) & 0x1F1F1F1F
        for i in range(4):
            if (run3 >> (8 * i)) & 0xFF:
                total += 50 if (run4 >> (8 * i)) & 0xFF else 20
    if t.stuk_mask and (cards & t.stuk_mask) == t.stuk_mask:
        total += 20
    return total


cdef inline void play(Ctx* c, int bit, Undo* u) noexcept nogil:
    cdef Tables* t = c.t
    cdef State* s = &c.s
    cdef int k = s.trick_len
    cdef int seat = t.seat_at[s.leader + k]
    cdef int g = t.group_of[bit]
    cdef int i, winner, side, gained
    u.win_bit = s.win_bit
    u.win_off = s.win_off
    u.top_trump = s.top_trump
    u.leader = s.leader
    u.completed_side = -1
    s.hands[seat] &= ~(<uint64_t>1 << bit)
    s.in_hands &= ~(<uint64_t>1 << bit)
    s.points_left -= t.points[bit]
    u.replaced = s.trick[k]
    s.trick[k] = bit
    s.trick_cards |= <uint64_t>1 << bit
    if k == 0:
        s.win_bit = bit
        s.win_off = 0
        s.top_trump = bit if g == t.trump_group else -1
    else:
        if g == t.group_of[s.win_bit]:
            if bit > s.win_bit:
                s.win_bit = bit
                s.win_off = k
        elif g == t.trump_group:
            s.win_bit = bit
            s.win_off = k
        if g == t.trump_group and bit > s.top_trump:
            s.top_trump = bit
    s.trick_len = k + 1
    if s.trick_len < t.n_players:
        return
    # the trick is complete: score it and hand the lead to its winner
    winner = t.seat_at[s.leader + s.win_off]
    side = t.side_of[winner]
    gained = t.per_trick_bonus
    for i in range(t.n_players):
        gained += t.points[s.trick[i]]
    if t.roem:
        gained += roem_of(t, s)
    u.live_roem = s.live_roem
    if s.live_roem:  # the sets with a card of this trick can no longer fall
        for i in range(t.n_players):
            s.live_roem &= ~t.roem_sets_of[s.trick[i]]
    if s.tricks_left == 1:
        gained += t.last_trick_bonus
        if t.sweep_bonus and s.tricks[side] + 1 == t.total_tricks:
            gained += t.sweep_bonus
    s.scores[side] += gained
    s.tricks[side] += 1
    s.tricks_left -= 1
    s.leader = winner
    s.trick_len = 0
    s.trick_cards = 0
    u.completed_side = side
    u.gained = gained


cdef inline void unplay(Ctx* c, int bit, Undo* u) noexcept nogil:
    cdef State* s = &c.s
    cdef int seat, i
    if u.completed_side >= 0:
        s.live_roem = u.live_roem
        s.scores[u.completed_side] -= u.gained
        s.tricks[u.completed_side] -= 1
        s.tricks_left += 1
        s.trick_len = c.t.n_players
        for i in range(c.t.n_players - 1):
            s.trick_cards |= <uint64_t>1 << s.trick[i]
    else:
        s.trick_cards &= ~(<uint64_t>1 << bit)
    s.leader = u.leader
    s.trick_len -= 1
    seat = c.t.seat_at[s.leader + s.trick_len]
    s.hands[seat] |= <uint64_t>1 << bit
    s.in_hands |= <uint64_t>1 << bit
    s.points_left += c.t.points[bit]
    s.trick[s.trick_len] = u.replaced
    s.win_bit = u.win_bit
    s.win_off = u.win_off
    s.top_trump = u.top_trump


# --- values -----------------------------------------------------------------------

cdef inline int additive_value(Tables* t, State* s) noexcept nogil:
    cdef int i, v = 0
    for i in range(t.n_sides):
        v += t.weight[i] * s.scores[i]
    return v


cdef int final_value(Tables* t, State* s) noexcept nogil:
    """The value of a finished deal for the analysed side."""
    if t.settle == SETTLE_ADDITIVE:
        return additive_value(t, s)
    return nat_value(t, s.scores[t.nat_side], s.scores[1 - t.nat_side])


cdef inline int nat_value(Tables* t, int d, int o) noexcept nogil:
    """SETTLE_NAT: the value of a finished deal whose declarers' total is `d` and
    defenders' `o`, for the analysed side."""
    cdef bint made = d > o or (d == o and not t.nat_on_tie)
    if made:
        return d - o if t.max_side == t.nat_side else o - d
    return -(d + o) if t.max_side == t.nat_side else d + o


cdef inline int value_base(Tables* t, State* s) noexcept nogil:
    """What the table stores values relative to: the score so far, if values add up."""
    return additive_value(t, s) if t.settle == SETTLE_ADDITIVE else 0


# --- transposition table ----------------------------------------------------------

cdef inline void make_key(Tables* t, State* s, Key* k) noexcept nogil:
    """The exact key of a position at a trick boundary within one deal (the table is
    emptied between deals, and the owners of the cards are fixed by the deal, so the
    cards still in play say who holds what); inside a trick not exact, and never
    stored.  Layout: solver/_engine.pxd, Entry."""
    cdef int i
    cdef uint64_t lo = 0, cards = s.in_hands, idx
    cdef uint32_t hi = (<uint32_t>s.tricks_left << 12) | (<uint32_t>s.leader << 9) | (<uint32_t>s.trick_len << 6)
    if t.sweep_bonus:
        for i in range(t.n_sides):
            if s.tricks[i]:
                hi |= <uint32_t>1 << i
    if t.relative_ranks and s.trick_len == 0:
        for i in range(t.n_boundary_pieces):
            lo |= (cards & t.boundary_mask[i]) >> t.boundary_shift[i]
        for i in range(t.n_segments):
            idx = (cards & t.segment_mask[i]) >> t.segment_shift[i]
            lo |= <uint64_t>t.segment_code[i][idx] << t.segment_offset[i]
    else:
        for i in range(t.n_raw_pieces):
            lo |= (cards & t.raw_mask[i]) >> t.raw_shift[i]
    if t.settle != SETTLE_ADDITIVE:
        hi |= 1 << 5  # these values are absolute, not relative to the score so far
        lo |= ((<uint64_t>s.scores[0]) | (<uint64_t>s.scores[1] << 12)) << t.totals_offset
    k.lo = lo
    k.hi = <uint16_t>hi


cdef inline uint64_t mix(Key* k) noexcept nogil:
    cdef uint64_t z = k.lo ^ (<uint64_t>k.hi * <uint64_t>0x9E3779B97F4A7C15)
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline bint same_key(Entry* e, Key* k) noexcept nogil:
    return e.key == k.lo and e.key_hi == k.hi


cdef inline Entry* bucket_of(Ctx* c, Key* k) noexcept nogil:
    return &c.table[mix(k) & c.table_mask & ~(<uint64_t>BUCKET - 1)]


cdef inline Entry* probe(Ctx* c, Entry* slots, Key* k) noexcept nogil:
    cdef int j
    cdef Entry* e
    for j in range(BUCKET):
        e = &slots[j]
        if e.generation == c.generation and same_key(e, k):
            return e
    return NULL


cdef inline int16_t clamp_rel(int v, int base) noexcept nogil:
    if v >= INF:
        return INF
    if v <= -INF:
        return -INF
    return <int16_t>(v - base)


cdef inline int unrel(int16_t v, int base) noexcept nogil:
    if v >= INF:
        return INF
    if v <= -INF:
        return -INF
    return v + base


cdef inline int depth_of(Entry* e) noexcept nogil:
    return e.key_hi >> 12  # tricks left


cdef inline Entry* recent_victim(Ctx* c, Entry* slots) noexcept nogil:
    """Of the bucket's two always-replace slots (2, 3): a stale one, else the shallower."""
    cdef Entry* a = &slots[DEEP_SLOTS]
    cdef Entry* b = &slots[DEEP_SLOTS + 1]
    if a.generation != c.generation:
        return a
    if b.generation != c.generation or depth_of(b) < depth_of(a):
        return b
    return a


cdef void store(Ctx* c, Entry* slots, Key* k, int base, int lower, int upper, int move) noexcept nogil:
    """Keep bounds on a position's value.  Replacement: the same key merges its
    bounds; otherwise two tiers: the bucket's first two slots keep the deeper (more
    tricks left) entries, the last two take whatever those do not keep (in place of
    a stale or else the shallower entry), so recent shallow entries are never
    locked out."""
    cdef Entry* e
    cdef Entry* victim
    cdef int j, lo, hi
    for j in range(BUCKET):
        e = &slots[j]
        if e.generation == c.generation and same_key(e, k):
            lo = unrel(e.lower, base)
            hi = unrel(e.upper, base)
            if lower > lo:
                lo = lower
            if upper < hi:
                hi = upper
            e.lower = clamp_rel(lo, base)
            e.upper = clamp_rel(hi, base)
            e.move = <uint8_t>move
            return
    victim = recent_victim(c, slots)
    for j in range(DEEP_SLOTS):
        e = &slots[j]
        if e.generation != c.generation or (k.hi >> 12) >= depth_of(e):
            if e.generation == c.generation:
                victim[0] = e[0]  # the deep slot's entry moves to a recent slot
            victim = e
            break
    victim.key = k.lo
    victim.key_hi = k.hi
    victim.lower = clamp_rel(lower, base)
    victim.upper = clamp_rel(upper, base)
    victim.move = <uint8_t>move
    victim.generation = c.generation


cdef inline void fail_soft_bounds(int v, int alpha, int beta, int* lo, int* up) noexcept nogil:
    """The bounds a fail-soft result `v` of a search with window (alpha, beta) gives:
    outside the window it is only a bound."""
    lo[0] = v
    up[0] = v
    if v <= alpha:
        lo[0] = -INF
    elif v >= beta:
        up[0] = INF


cdef inline void remember(Ctx* c, Entry* slots, Key* k, int base, int v, int alpha, int beta, int move) noexcept nogil:
    """Store a fail-soft result of a search with window (alpha, beta)."""
    cdef int lo, up
    fail_soft_bounds(v, alpha, beta, &lo, &up)
    store(c, slots, k, base, lo, up, move)


# --- shape table ------------------------------------------------------------------
# Two trick-boundary positions of one deal have the same shape when, in every group,
# the cards in play are held by the same seats in the same rank order (and the
# leader, tricks left, tricks taken for the sweep and the Buur's presence agree).
# Every rule of play and every trick's winner then depend only on that order, so
# the same strategies, mapped card for card by rank, take the same tricks: the
# values differ at most by the points of the cards that differ.  A bound stored for
# one position is a bound for every position of its shape, widened by that margin.
# (Kupferschmid and Helmert's quasi-symmetry reduction for Skat.)  Only for values
# that add up.  Roem depends on the cards themselves: with roem, only between
# positions where the same roem sets can still fall, their cards in the same places
# (same_roem).

cdef inline void shape_of(Tables* t, State* s, uint64_t* a, uint64_t* b) noexcept nogil:
    """The position's shape, exactly, in two words: per group, which of its cards
    are in play and who holds them, by rank (a dense code per group)."""
    cdef uint64_t w[2]
    cdef int g
    w[0] = 0
    w[1] = 0
    for g in range(t.n_shape_groups):
        w[t.shape_word[g]] |= <uint64_t>t.shape_code[g][(s.in_hands >> (g * GROUP_WIDTH)) & 511] << t.shape_offset[g]
    a[0] = w[0]
    b[0] = w[1]


# rank_points' lanes: nine of 7 bits; LANE_TOPS their top bits, EVEN_LANES the
# even lanes, FOLD14 every other 14-bit lane
cdef extern from *:
    """
    #define LANE_TOPS 0x4081020408102040ULL
    #define EVEN_LANES 0x7F01FC07F01FC07FULL
    #define FOLD14 0xFF00003FFF003FFFULL
    """
    const uint64_t LANE_TOPS
    const uint64_t EVEN_LANES
    const uint64_t FOLD14


cdef inline uint64_t lanes_above(uint64_t a, uint64_t b) noexcept nogil:
    """Per lane, b - a where b > a, else 0 (lanes below 64)."""
    cdef uint64_t x = (b | LANE_TOPS) - a  # 64 + b - a per lane, no borrow between lanes
    return x & ~LANE_TOPS & (((x & LANE_TOPS) >> 6) * 127)


cdef inline int lane_sum(uint64_t v) noexcept nogil:
    """The sum of nine 7-bit lanes."""
    v = (v & EVEN_LANES) + ((v >> 7) & EVEN_LANES)  # five 14-bit lanes
    v = (v & FOLD14) + ((v >> 14) & FOLD14)  # three 28-bit lanes
    return <int>((v & 0xFFFFFFF) + ((v >> 28) & 0xFFFFFFF) + (v >> 56))


cdef inline void shape_margins(Tables* t, uint64_t stored, uint64_t cards, int* down, int* up,
                               bint need_down=True, bint need_up=True) noexcept nogil:
    """How far the value of `cards` can lie below (`down`) and above (`up`) the value
    of `stored`, a position of the same shape: the same strategies, mapped card for
    card by rank, take the same tricks, so only the cards' points differ.  With one
    side's points counted, a margin the caller does not need may be left at 0."""
    cdef int g, x, y, d, gain = 0, loss = 0
    cdef uint64_t ca, cb, gains = 0, losses = 0
    cdef bint two_sided = t.has_gain and t.has_loss
    # which sums the margins asked for need: one side's gains make its value rise
    cdef bint want_gains = two_sided or (need_up if t.has_gain else need_down)
    cdef bint want_losses = two_sided or (need_down if t.has_gain else need_up)
    if t.rank_lanes:  # every pair of a group at once, the groups' lanes added up
        for g in range(t.n_shape_groups):
            ca = (stored >> (g * GROUP_WIDTH)) & 511
            cb = (cards >> (g * GROUP_WIDTH)) & 511
            if ca != cb:
                if want_gains:
                    gains += lanes_above(t.rank_points[g][ca], t.rank_points[g][cb])
                if want_losses:
                    losses += lanes_above(t.rank_points[g][cb], t.rank_points[g][ca])
        if two_sided:  # one sum: a lane holds a gain or a loss, never both
            gain = lane_sum(gains + losses)
        else:
            if want_gains:
                gain = lane_sum(gains)
            if want_losses:
                loss = lane_sum(losses)
    else:  # the pairs one by one, from the top while the rest differs
        for g in range(t.n_shape_groups):
            ca = stored & t.group_mask[g]
            cb = cards & t.group_mask[g]
            while ca != cb:
                x = highest_bit(ca)
                y = highest_bit(cb)
                d = t.points[y] - t.points[x]
                if d > 0:
                    gain += d
                else:
                    loss -= d
                ca ^= (<uint64_t>1) << x
                cb ^= (<uint64_t>1) << y
    if two_sided:  # every point goes to one side or the other
        down[0] = gain + loss
        up[0] = gain + loss
    elif t.has_gain:  # only the analysed side's points count: more points, no less value
        down[0] = loss
        up[0] = gain
    else:
        down[0] = gain
        up[0] = loss


cdef void fill_run_points(Tables* t, int* owner, uint64_t (*out)[512]) noexcept nogil:
    """rank_points for run_margins, by the owners of this deal's cards.

    Cards of one seat with no other card in play between them (a run) take the same
    tricks whichever of them falls when: any card of the run can stand for any
    other.  So two positions of one shape may be mapped with any pairing inside each
    run, and the margins are smallest with the points sorted in both (the Ten, 10
    points, ranks below the Jack, King or Queen in Jass).  The trump Jack, whose
    identity counts (the Buur's exception), is a run of its own; with roem
    (identities count) run_margins is off.

    Built up over the subsets of each group, each from the one without its lowest
    card (once a deal, so it must be cheap): that card ends the lowest run, or
    starts a run of its own below it."""
    cdef int g, length, idx, rest, low, nxt, lanes, i, p, q
    cdef uint8_t last_run[512]  # the lowest run's length, per subset
    cdef uint64_t v
    for g in range(t.n_shape_groups):
        length = popcount(t.group_mask[g])
        out[g][0] = 0
        last_run[0] = 0
        for idx in range(1, 1 << length):
            low = g * GROUP_WIDTH + lowest_bit(<uint64_t>idx)
            p = t.points[low]
            rest = idx & (idx - 1)
            if rest == 0:
                out[g][idx] = <uint64_t>p
                last_run[idx] = 1
                continue
            nxt = g * GROUP_WIDTH + lowest_bit(<uint64_t>rest)
            v = out[g][rest]
            lanes = popcount(<uint64_t>rest)
            if owner[low] != owner[nxt] or low == t.buur_bit or nxt == t.buur_bit:
                out[g][idx] = v | (<uint64_t>p << (7 * lanes))
                last_run[idx] = 1
                continue
            # into the lowest run's lanes, kept highest first: the smaller ones move down
            i = lanes
            while i > lanes - last_run[rest]:
                q = <int>((v >> (7 * (i - 1))) & 127)
                if q >= p:
                    break
                v = (v & ~(<uint64_t>127 << (7 * i))) | (<uint64_t>q << (7 * i))
                i -= 1
            out[g][idx] = (v & ~(<uint64_t>127 << (7 * i))) | (<uint64_t>p << (7 * i))
            last_run[idx] = last_run[rest] + 1


cdef inline bint same_roem(Tables* t, uint64_t stored, State* s) noexcept nogil:
    """Whether roem cannot tell `stored` (a position of the same shape) from the
    current one: the same roem sets can still fall in both, and each of their cards
    has the same place (by rank, among the cards in play) in both, so the mapping by
    rank takes each set to itself and every trick scores the same roem."""
    cdef uint64_t cur = s.in_hands, delta = stored ^ s.in_hands, d, touching = 0, sets, cards = 0, m
    cdef int i, b
    if not delta:
        return True
    d = delta
    while d:  # a set with a card in one position only must fall in neither
        touching |= t.roem_sets_of[lowest_bit(d)]
        d &= d - 1
    touching &= t.roem_candidates
    while touching:
        i = lowest_bit(touching)
        touching &= touching - 1
        if (t.roem_sets[i] & ~stored) == 0 or (t.roem_sets[i] & ~cur) == 0:
            return False
    sets = s.live_roem  # the same in both now
    while sets:
        cards |= t.roem_sets[lowest_bit(sets)]
        sets &= sets - 1
    while cards:
        b = lowest_bit(cards)
        cards &= cards - 1
        m = t.group_mask[t.group_of[b]]
        if (delta & m) and popcount(above(stored & m, b)) != popcount(above(cur & m, b)):
            return False
    return True


cdef inline uint16_t shape_hi(Tables* t, State* s) noexcept nogil:
    """The rest of a shape: tricks left, leader, the sides with a trick (sweep), the Buur in play."""
    cdef uint32_t hi = (<uint32_t>s.tricks_left << 12) | (<uint32_t>s.leader << 9)
    cdef int i
    if t.sweep_bonus:
        for i in range(t.n_sides):
            if s.tricks[i]:
                hi |= <uint32_t>1 << i
    if t.buur_bit >= 0 and (s.in_hands >> t.buur_bit) & 1:
        hi |= 1 << 8
    return <uint16_t>hi


# The shape table's entries (ShapeEntry, NatEntry: 32 bytes) come in sets of
# Tables.shape_set (2: one cache line, or 4: two), one set per shape's hash: several
# positions of a shape at hand, the nearest (smallest margins) and tightest bounds
# serve.  A set keeps its newest positions, newest first.

cdef inline uint64_t shape_set_index(Ctx* c, uint64_t h) noexcept nogil:
    return (((h * <uint64_t>0xBF58476D1CE4E5B9) >> 32) * c.shape_sets >> 32) * c.t.shape_set


cdef inline void to_front(void* entries, int i) noexcept nogil:
    """Move entry `i` of a set to the front, the ones before it one place back
    (i the last: the oldest drops out, its place at the front to be written)."""
    cdef char kept[32]
    cdef char* e = <char*>entries
    memcpy(kept, e + 32 * i, 32)
    memmove(e + 32, e, 32 * i)
    memcpy(e, kept, 32)


cdef inline ShapeEntry* shape_set_for(Ctx* c, uint64_t shape, uint64_t shape2, uint16_t hi) noexcept nogil:
    return &c.shapes[shape_set_index(c, shape ^ (shape2 * <uint64_t>0x94D049BB133111EB) ^ (<uint64_t>hi * <uint64_t>0x9E3779B97F4A7C15))]


cdef inline bint same_shape(Ctx* c, ShapeEntry* e, uint64_t shape, uint64_t shape2, uint16_t hi) noexcept nogil:
    return e.generation == c.generation and e.shape == shape and e.shape2 == shape2 and e.hi == hi


cdef inline bint same_shape_position(Ctx* c, ShapeEntry* e, uint64_t shape, uint64_t shape2, uint16_t hi) noexcept nogil:
    return same_shape(c, e, shape, shape2, hi) and e.cards == c.s.in_hands


cdef inline void narrow_by_shape(Ctx* c, ShapeEntry* e, int base, int alpha, int beta, int* lo, int* hi) noexcept nogil:
    """Narrow the bounds [lo, hi] by those of `e`, a position of the same shape,
    widened by the margins (if its roem to come is alike; and not when even its
    bounds unwidened would leave the window (alpha, beta) as it is)."""
    cdef int e_lo = unrel(e.lower, base), e_hi = unrel(e.upper, base), down = 0, up = 0
    cdef bint use_lo = e_lo > alpha, use_hi = e_hi < beta
    if not use_lo and not use_hi:
        return
    if c.t.roem_candidates and not same_roem(c.t, e.cards, &c.s):
        return
    if e.cards != c.s.in_hands:  # only the margins of the bounds that can narrow the window
        shape_margins(c.t, e.cards, c.s.in_hands, &down, &up, use_lo, use_hi)
    if use_lo and e_lo - down > lo[0]:
        lo[0] = e_lo - down
    if use_hi and e_hi + up < hi[0]:
        hi[0] = e_hi + up


cdef inline void shape_store(Ctx* c, ShapeEntry* e, uint64_t shape, uint64_t shape2, uint16_t hi, int base, int v, int alpha,
                             int beta) noexcept nogil:
    """Keep the fail-soft result `v` of a search with window (alpha, beta) in the
    set at `e`, first: merged with the same position's entry if there is one."""
    cdef int lo, up, i = 0
    fail_soft_bounds(v, alpha, beta, &lo, &up)
    while i < c.t.shape_set - 1 and not same_shape_position(c, &e[i], shape, shape2, hi):
        i += 1
    to_front(e, i)
    if same_shape_position(c, e, shape, shape2, hi):  # what it knew still holds
        if unrel(e.lower, base) > lo:
            lo = unrel(e.lower, base)
        if unrel(e.upper, base) < up:
            up = unrel(e.upper, base)
    e.shape = shape
    e.shape2 = shape2
    e.hi = hi
    e.cards = c.s.in_hands
    e.lower = clamp_rel(lo, base)
    e.upper = clamp_rel(up, base)
    e.generation = c.generation


cdef inline bint settled_by_bounds(int lo, int hi, int* alpha, int* beta, int* v) noexcept nogil:
    """Whether the bounds [lo, hi] on a position's value settle a search with window
    (alpha, beta) (then `v` is the value to return); else the window is narrowed to them."""
    if lo >= beta[0] or lo == hi:
        v[0] = lo
        return True
    if hi <= alpha[0]:
        v[0] = hi
        return True
    if lo > alpha[0]:
        alpha[0] = lo
    if hi < beta[0]:
        beta[0] = hi
    return False


# --- nat shapes -------------------------------------------------------------------
# Klaverjas nat searches: their values are not additive, so the shape table's
# margins do not apply, but an order does (nat_bounds): positions of one shape with
# the same roem to come, whose totals so far are ordered, have ordered values.

cdef inline NatEntry* nat_set_for(Ctx* c, uint64_t shape, uint64_t tag) noexcept nogil:
    """The set of nat entries for the position's shape (in the shape table's sets).
    Not by the tag's generation: a position's set, and so the search's nodes, must not
    depend on how many searches the engine ran before."""
    tag &= (<uint64_t>1 << 56) - 1
    return <NatEntry*>&c.shapes[shape_set_index(c, shape ^ (tag * <uint64_t>0x9E3779B97F4A7C15))]


cdef inline uint64_t nat_shape_tag(Ctx* c, uint64_t shape2, uint16_t hi) noexcept nogil:
    """The shape's second word with the rest of the shape and the generation above it."""
    return shape2 | (<uint64_t>hi << 40) | (<uint64_t>c.generation << 56)


cdef inline void nat_bounds(Ctx* c, NatEntry* e, int* lo, int* hi) noexcept nogil:
    """The bounds (for the side searched) that the entry `e`, a position of the same
    shape and the same roem to come (same_roem), gives this one; (-INF, INF) if none.

    The declarers' value is g(D, S) of the final difference D and sum S of the
    totals: D if made, else -S; g never falls as D rises, and falls by at most
    what S rises.  The same strategies, mapped by rank, add to D within the shape
    margin m of each other, and to S exactly the points in play and the same roem.
    So if this D is at least the entry's plus m, the entry's lower bound holds here,
    less what this S ends higher; if at most the entry's minus m, its upper bound,
    plus what this S ends lower."""
    cdef Tables* t = c.t
    cdef State* s = &c.s
    cdef int d = s.scores[t.nat_side] - s.scores[1 - t.nat_side]
    cdef int sum_ = s.scores[0] + s.scores[1] + s.points_left
    cdef int m = 0, down, up, more, below, above
    if e.cards != s.in_hands:
        shape_margins(t, e.cards, s.in_hands, &down, &up)
        m = down  # two sides: down == up
    more = sum_ - e.sum
    below = more if more > 0 else 0
    above = -more if more < 0 else 0
    lo[0] = -INF
    hi[0] = INF
    if t.max_side == t.nat_side:
        if d - m >= e.diff and e.lower > -INF:
            lo[0] = e.lower - below
        if d + m <= e.diff and e.upper < INF:
            hi[0] = e.upper + above
    else:
        if d + m <= e.diff and e.lower > -INF:
            lo[0] = e.lower - above
        if d - m >= e.diff and e.upper < INF:
            hi[0] = e.upper + below


cdef inline bint same_nat_position(Ctx* c, NatEntry* e, uint64_t tag) noexcept nogil:
    cdef Tables* t = c.t
    return e.shape2 == tag and e.cards == c.s.in_hands \
        and e.diff == c.s.scores[t.nat_side] - c.s.scores[1 - t.nat_side] \
        and e.sum == c.s.scores[0] + c.s.scores[1] + c.s.points_left


cdef inline void nat_store(Ctx* c, NatEntry* e, uint64_t shape, uint64_t tag, int v, int alpha, int beta) noexcept nogil:
    """Keep a nat search's fail-soft result in the set at `e`, first: merged with
    the same position's entry if there is one."""
    cdef Tables* t = c.t
    cdef int lo, up, i = 0
    fail_soft_bounds(v, alpha, beta, &lo, &up)
    while i < c.t.shape_set - 1 and not (e[i].shape == shape and same_nat_position(c, &e[i], tag)):
        i += 1
    to_front(e, i)
    if e.shape == shape and same_nat_position(c, e, tag):
        if e.lower > lo:
            lo = e.lower
        if e.upper < up:
            up = e.upper
    e.shape = shape
    e.shape2 = tag
    e.cards = c.s.in_hands
    e.diff = <int16_t>(c.s.scores[t.nat_side] - c.s.scores[1 - t.nat_side])
    e.sum = <int16_t>(c.s.scores[0] + c.s.scores[1] + c.s.points_left)
    e.lower = <int16_t>lo if lo > -INF else -INF
    e.upper = <int16_t>up if up < INF else INF


# --- search -----------------------------------------------------------------------

cdef inline int desirability(Ctx* c, int winner_seat, bint maximising) noexcept nogil:
    """How much the mover likes `winner_seat` taking the trick: >0 good, <0 bad."""
    if maximising:
        return c.t.order_weight[c.t.side_of[winner_seat]]
    return -c.t.weight[c.t.side_of[winner_seat]]


cdef inline bint top_of_group(Tables* t, uint64_t in_play, int b) noexcept nogil:
    """Whether `b` is the strongest card of its group still in play (hands and trick)."""
    return highest_bit(in_play & t.group_mask[t.group_of[b]]) == b


cdef inline int next_in_play(Tables* t, uint64_t in_play, int b) noexcept nogil:
    """The next stronger card of `b`'s group in `in_play`, or -1 if there is none."""
    cdef uint64_t higher = in_play & t.group_mask[t.group_of[b]] & above(in_play, b)
    return lowest_bit(higher) if higher else -1


cdef inline bint in_live_roem_set(Tables* t, State* s, int b, int nxt) noexcept nogil:
    """Whether `b` or `nxt` belongs to a roem set that can still fall in one trick
    (all its cards in play, in different hands: State.live_roem).  When neither
    does, no trick's roem can tell them apart, so they are equivalent as in games
    without roem."""
    return ((t.roem_sets_of[b] | t.roem_sets_of[nxt]) & s.live_roem) != 0


cdef inline bint takes_lead(Tables* t, State* s, int b) noexcept nogil:
    """Whether card `b`, played now, would be the trick's winning card so far (a lead
    always is): higher in the winning card's group, or a trump over a plain card."""
    cdef int win_group
    if s.trick_len == 0:
        return True
    win_group = t.group_of[s.win_bit]
    return (t.group_of[b] == win_group and b > s.win_bit) \
        or (t.group_of[b] == t.trump_group and win_group != t.trump_group)


cdef inline int certain_direction(Ctx* c, bint mover_wins, int w) noexcept nogil:
    """Whether the weight of the side that takes the current trick is already certain
    once the mover has played, and what its points then do to the value: +1 if that
    weight is the highest (its points raise the value most), -1 if the lowest; 0 if
    neither, or if a seat still to play whose side weighs otherwise holds a card that
    could beat `w`, the winning card (the mover's if `mover_wins`).  Seats of equally
    weighted sides may take the trick from each other (the paranoid games' coalition).
    Conservative: such a seat's cards count as playable except, where the rules make
    it follow suit, the other suits'."""
    cdef Tables* t = c.t
    cdef State* s = &c.s
    cdef int i, q, direction, weight, wg = t.group_of[w]
    cdef int led = t.group_of[s.trick[0]] if s.trick_len else wg
    cdef uint64_t hand, beaters
    if t.weight_max == t.weight_min:
        return 0
    weight = t.weight[t.side_of[t.seat_at[s.leader + (s.trick_len if mover_wins else s.win_off)]]]
    if weight == t.weight_max:
        direction = 1
    elif weight == t.weight_min:
        direction = -1
    else:
        return 0
    beaters = t.group_mask[wg] & ~((<uint64_t>2 << w) - 1)
    if t.trump_group >= 0 and wg != t.trump_group:
        beaters |= t.group_mask[t.trump_group]
    for i in range(s.trick_len + 1, t.n_players):
        q = t.seat_at[s.leader + i]
        if t.weight[t.side_of[q]] != weight:
            hand = s.hands[q]
            if t.rule != RULE_JASS and (hand & t.group_mask[led]):
                hand &= t.group_mask[led]  # it must follow suit (Jass: it may trump)
            if hand & beaters:
                return 0
    return direction


cdef inline bint identity_matters(Tables* t, State* s, uint64_t run) noexcept nogil:
    """Whether a card of `run` counts by more than its rank and points: the Buur
    (its exception to following trumps) or a card of a roem set that can still fall."""
    cdef int b
    if t.buur_exception and t.buur_bit >= 0 and (run >> t.buur_bit) & 1:
        return True
    if t.roem:
        while run:
            b = lowest_bit(run)
            run &= run - 1
            if t.roem_sets_of[b] & s.live_roem:
                return True
    return False


cdef inline int dominance(Ctx* c, int b, int nxt, bint maximising, int* lose_direction) noexcept nogil:
    """Two legal cards of the mover, `b` and the next card in play above it in its
    group, of different points: 1 if `nxt` is at least as good for the mover, -1 if
    `b` is, 0 if neither is known (see order_moves).  `lose_direction`: the
    certain_direction of a card that does not take the trick, once known (2 before)."""
    cdef Tables* t = c.t
    cdef State* s = &c.s
    cdef int direction
    if identity_matters(t, s, (<uint64_t>1 << b) | (<uint64_t>1 << nxt)):
        return 0
    if takes_lead(t, s, nxt):  # then so does `b`: nothing in play lies between them
        direction = certain_direction(c, True, nxt)
    else:
        if lose_direction[0] == 2:
            lose_direction[0] = certain_direction(c, False, s.win_bit)
        direction = lose_direction[0]
    if direction == 0:
        return 0
    # the richer card is wanted when its points raise the value for the maximiser
    return 1 if ((direction > 0) == maximising) == (t.points[nxt] > t.points[b]) else -1


cdef inline bint dominated_by_next(Ctx* c, int b, int nxt, bint maximising, int* lose_direction,
                                   uint64_t* dominated) noexcept nogil:
    """For `b` and `nxt` as in dominance (both legal): whether `b` is left out, `nxt`
    being at least as good; when `b` is the better one, `nxt` is added to `dominated`."""
    cdef int verdict
    if c.t.points[nxt] == c.t.points[b]:
        return False
    verdict = dominance(c, b, nxt, maximising, lose_direction)
    if verdict < 0:
        dominated[0] |= <uint64_t>1 << nxt
    return verdict > 0


cdef inline void opponents_replies(Tables* t, State* s, int* replies) noexcept nogil:
    """Per group, for a lead of that group: the product of the numbers of cards the
    other seats could play to it (a seat holding the suit follows, or in Jass may
    trump; a void seat may play anything), over the seats whose side weighs otherwise
    than the leader's (the paranoid games' coalition plays as one).  A proof that the
    leader's side reaches a bound must answer every such reply, so leads that leave
    few replies tend to have small proofs ("fastest cut first", Furtak and Buro 2009)."""
    cdef int g, i, q
    cdef int weight = t.weight[t.side_of[t.seat_at[s.leader]]]
    cdef uint64_t hand, cards, trumps = t.group_mask[t.trump_group] if t.trump_group >= 0 else 0
    for g in range(MAX_GROUPS):
        replies[g] = 1
        if not t.group_mask[g]:
            continue
        for i in range(1, t.n_players):
            q = t.seat_at[s.leader + i]
            if t.weight[t.side_of[q]] == weight:
                continue
            hand = s.hands[q]
            cards = hand & t.group_mask[g]
            if not cards:
                cards = hand
            elif t.rule == RULE_JASS and g != t.trump_group:
                cards |= hand & trumps
            replies[g] *= popcount(cards)


cdef int order_moves(Ctx* c, uint64_t legal, int tt_move, int* moves, int killer=255,
                     bint prune=False, int lead_killer=255) noexcept nogil:
    """The moves to try, best guess first, one card of each run of equivalent cards.

    Two cards of one hand are equivalent when they are adjacent in their group among
    the cards still in play (hands and trick) and worth the same points: either can
    stand for the other.  Order: the table's move, then `killer` (inside a trick:
    the card that last cut off in the same trick, trick_killer_slot); then, after
    the lead, a card that makes a good winner take the trick, richest first (but
    cheapest first onto a partner's card while an opponent is still to play);
    neutral cards; cheap discards to a bad winner.  Leads: those leaving the other
    sides the fewest replies first (opponents_replies); among those, `lead_killer`
    (the lead that last cut off after the same trick), then the strongest.

    With `prune` (not at the root, whose every card is valued), dominated cards are
    left out too.  Two cards of one hand adjacent in their group among the cards in
    play take the same tricks whichever is played when, so two lines that differ
    only in which of them falls now differ only in where its points go: now to the
    side that takes this trick, or later with the card kept.  Once that side is
    certain and its weight is the highest (lowest), the richer card now is worth at
    least (at most) as much to the value, whatever comes after: the value is monotone
    in each side's points.  The other card can be left out: a move no better than
    another changes no minimax value nor any fail-soft bound.  Not where a card's
    identity counts (identity_matters)."""
    cdef Tables* t = c.t
    cdef State* s = &c.s
    cdef int n = 0, i, b, nxt, key, g, seat, d
    cdef int win_group = -1, d_self = 0, d_now = 0
    cdef int keys[64]
    cdef uint64_t rest = legal, in_play = 0, rest_hands
    cdef bint maximising, wins, ruff, trump_over = False, smear_low = False
    cdef bint last_roem = False, duck_master = False, second_hand = False, keep_winners = False
    cdef bint coalition_sure = False
    cdef uint32_t places = 0
    cdef int pts, trick_points = 0
    cdef uint64_t dominated = 0
    cdef int lose_direction = 2  # 2: not yet known
    cdef int replies[MAX_GROUPS]
    seat = t.seat_at[s.leader + s.trick_len]
    maximising = t.side_of[seat] == t.max_side
    in_play = s.in_hands | s.trick_cards
    prune = prune and t.prune_dominated and not c.horizon_stop  # estimates: as before
    if s.trick_len == 0 and t.lead_mobility:
        opponents_replies(t, s, replies)
    if s.trick_len:  # what the mover thinks of the trick's winner, now or if it wins
        win_group = t.group_of[s.win_bit]
        trump_over = t.trump_group >= 0 and win_group != t.trump_group
        d_self = desirability(c, seat, maximising)
        d_now = desirability(c, t.seat_at[s.leader + s.win_off], maximising)
        smear_low = t.cautious_smear and s.trick_len < t.n_players - 1
        second_hand = t.second_ruffs_late and s.trick_len == 1 and d_now < 0
        keep_winners = t.last_keeps_winners and s.trick_len == t.n_players - 1 and d_now > 0
        if t.master_duck and d_now < 0 and t.trump_group >= 0:
            for i in range(s.trick_len):
                trick_points += t.points[s.trick[i]]
            duck_master = trick_points <= MASTER_DUCK_POINTS
        if t.coalition_smear and not maximising and d_now == 0:
            # a coalition seat winning after the analysed seat has played: the
            # trick is the coalition's whatever the seats still to play do
            for i in range(s.trick_len):
                if t.side_of[t.seat_at[s.leader + i]] == t.max_side:
                    coalition_sure = True
        if t.roem and t.roem_last_card and s.trick_len == t.n_players - 1:
            last_roem = True  # the last card: count the roem it makes with its points
            for i in range(s.trick_len):
                places |= t.roem_place_bit[s.trick[i]]
        if smear_low and d_now > 0 and t.safe_smear:
            # no need to be cautious when the partner's card holds whatever comes:
            # the top card of its group in play and, a plain card, no trump left
            # with the seats still to play (Jass: they could trump at any time)
            if top_of_group(t, in_play, s.win_bit):
                rest_hands = 0
                for i in range(s.trick_len + 1, t.n_players):
                    rest_hands |= s.hands[t.seat_at[s.leader + i]]
                if not trump_over or not (rest_hands & t.group_mask[t.trump_group]):
                    smear_low = False
    while rest:
        b = lowest_bit(rest)
        rest &= rest - 1
        g = t.group_of[b]
        if (dominated >> b) & 1:
            continue
        if t.merge_equivalent:
            nxt = next_in_play(t, in_play, b)
            if nxt >= 0:
                if (legal >> nxt) & 1 and t.points[nxt] == t.points[b] and nxt != tt_move \
                        and not (t.roem and in_live_roem_set(t, s, b, nxt)):
                    continue  # `nxt` stands for `b`
                if prune and (legal >> nxt) & 1 \
                        and dominated_by_next(c, b, nxt, maximising, &lose_direction, &dominated):
                    continue  # `nxt` is at least as good
        if b == tt_move:
            key = 1000000
        elif b == killer:
            key = 999999
        elif s.trick_len == 0:
            key = t.lead_key[b]
            if t.lead_mobility:  # the fewest replies first, then the lead key
                key -= MOBILITY_STEP * replies[g]
            if b == lead_killer:
                key += LEAD_KILLER_BONUS
            if g == t.trump_group:
                if not maximising:
                    if t.coalition_trump_leads:
                        key += 500
                elif t.own_trump_leads:
                    # the analysed seat of a paranoid game: trumps first when
                    # it wants points (they draw the coalition's), last when
                    # it avoids them (a trump lead takes the trick)
                    key += 500 if t.has_gain else -500
        else:
            wins = takes_lead(t, s, b)
            d = d_self if wins else d_now
            pts = t.points[b]
            if last_roem:
                pts += roem_of_cards(t, s.trick_cards | (<uint64_t>1 << b), places | t.roem_place_bit[b],
                                     t.rank_of[b])
            # Jass (trumping is optional): a trump over a partner's winning plain card
            # gains the side nothing, so after the discards; over an opponent's
            # card the cheapest trump first, after the winners of the suit led
            ruff = wins and g == t.trump_group and trump_over and t.trump_order
            if (duck_master and wins and g == t.trump_group and pts >= 14 and top_of_group(t, in_play, b)) \
                    or (ruff and second_hand):
                # after the cards that do not take the trick: a master trump kept from
                # a cheap trick; a second hand's trump (its partner plays last, and the
                # third hand may overtrump)
                key = 9000 - pts * 64 - b % GROUP_WIDTH
            elif ruff and d_now > 0:
                key = 15000 - pts * 64 - b % GROUP_WIDTH
            elif wins and keep_winners:
                # the last card onto a partner's winner: the trick is the side's
                # anyway, so the cards that do not take it first, the winner kept
                key = 20000 + pts * 64 - b % GROUP_WIDTH
            elif ruff and d > 0:
                key = 30000 - pts * 64 - b % GROUP_WIDTH
            elif d > 0 and not wins and smear_low:
                # onto a partner's winning card while someone is still to play:
                # low first, as the trick may yet be taken from the partner
                key = 20000 - pts * 64 - b % GROUP_WIDTH
            elif d > 0:
                if t.safe_master_points and g == t.trump_group and top_of_group(t, in_play, b):
                    pts = 0  # its points are safe: no hurry to play it
                key = 30000 + pts * 64 - (b % GROUP_WIDTH if wins else 0)
            elif d == 0 and not wins and t.coalition_smear and not maximising \
                    and (s.trick_len == t.n_players - 1 or coalition_sure):
                # Putz, the coalition's last card onto its own winner, or any card once
                # the trick is surely the coalition's: richest first (those points can
                # no longer reach the analysed seat)
                key = 25000 + pts * 64
            elif d == 0 and wins and t.coalition_rich_wins:
                key = 20000 + pts * 64 - b % GROUP_WIDTH
                if t.coalition_ruffs_late and g == t.trump_group and trump_over:
                    # a trump over a plain card: after the winners of the suit led,
                    # which save the coalition's trumps
                    key -= 2000
            elif d == 0:
                key = 20000 - pts * 64 - b % GROUP_WIDTH
            else:
                key = 10000 - pts * 64 - b % GROUP_WIDTH
        moves[n] = b
        keys[n] = key
        n += 1
    sort_by_key(moves, keys, n)
    return n


cdef inline int available(Tables* t, State* s) noexcept nogil:
    """An upper bound on the points the remaining tricks can still bring anyone."""
    cdef int r = s.points_left + t.per_trick_bonus * s.tricks_left + t.last_trick_bonus
    cdef int i, sides_with_tricks = 0
    for i in range(s.trick_len):
        r += t.points[s.trick[i]]
    if t.sweep_bonus:
        for i in range(t.n_sides):
            if s.tricks[i]:
                sides_with_tricks += 1
        if sides_with_tricks <= 1:
            r += t.sweep_bonus
    return r


cdef inline bint unbeatable(Tables* t, uint64_t own, uint64_t others) noexcept nogil:
    """Whether no card of `others` can beat a card of `own` led: each of `own` is
    stronger than every card of its group in `others`, and `others` hold no trump
    unless `own` holds only trumps."""
    cdef uint64_t mine, theirs
    cdef int g
    if t.trump_group >= 0 and (others & t.group_mask[t.trump_group]) \
            and (own & ~t.group_mask[t.trump_group]):
        return False
    for g in range(MAX_GROUPS):
        mine = own & t.group_mask[g]
        if mine:
            theirs = others & t.group_mask[g]
            if theirs and highest_bit(theirs) > lowest_bit(mine):
                return False
    return True


cdef inline bint camp_claims(Tables* t, State* s, int* v) noexcept nogil:
    """At a trick boundary: whether the leader's camp takes every trick left
    whatever anyone plays, and then the value in `v`.  (The camp: the seats whose
    sides weigh as the leader's: its side, or a paranoid game's coalition.)  So it
    is when nothing the other seats hold can beat a card that the leader leads
    (unbeatable): it leads them one by one, each winning; its partner's cards count
    among the others', as a ruff would hand the partner the lead.  Or when nothing
    they hold can beat a card of the camp: whichever of its seats leads, the camp
    wins.  Every point left then goes to the camp: the value is forced, not chosen
    (additive values without roem, whose tricks' cards would count)."""
    cdef int side = t.side_of[s.leader]
    cdef int weight = t.weight[side]
    cdef uint64_t own = s.hands[s.leader]
    cdef uint64_t camp = 0
    cdef int q, gained
    cdef bint one_side = True
    if not unbeatable(t, own, s.in_hands & ~own):
        for q in range(t.n_players):
            if t.weight[t.side_of[q]] == weight:
                camp |= s.hands[q]
                if t.side_of[q] != side:
                    one_side = False
        if camp == own or not unbeatable(t, camp, s.in_hands & ~camp):
            return False
    gained = s.points_left + t.per_trick_bonus * s.tricks_left + t.last_trick_bonus
    if t.sweep_bonus:
        if not one_side:
            return False  # which seat of the coalition sweeps is not forced
        if s.tricks[side] + s.tricks_left == t.total_tricks:
            gained += t.sweep_bonus
    v[0] = additive_value(t, s) + weight * gained
    return True


cdef inline void master_trumps(Ctx* c, int* sure_for, int* sure_against) noexcept nogil:
    """Points that one camp is sure to take: the run of highest trumps its seats hold
    (nothing can beat them, so every trick they fall in is that camp's)."""
    cdef Tables* t = c.t
    cdef uint64_t trumps = c.s.in_hands & t.group_mask[t.trump_group]
    cdef int b, points = 0
    cdef bint ours, first_ours = False
    cdef bint first = True
    while trumps:
        b = highest_bit(trumps)
        ours = t.side_of[t.owner[b]] == t.max_side
        if first:
            first_ours = ours
            first = False
        elif ours != first_ours:
            break
        points += t.points[b]
        trumps &= ~(<uint64_t>1 << b)
    if first_ours:
        sure_for[0] = points
    else:
        sure_against[0] = points


cdef bint more_roem_possible(Ctx* c) noexcept nogil:
    """Whether any trick still to come can carry roem or a pit (at a trick boundary).

    When none can, the two sides' totals add up to a known number, and a Klaverjas
    settlement is a step function of the raw difference alone."""
    cdef Tables* t = c.t
    cdef State* s = &c.s
    cdef int i, sides_with_tricks = 0
    for i in range(t.n_sides):
        if s.tricks[i]:
            sides_with_tricks += 1
    if sides_with_tricks <= 1:
        return True  # a pit is still possible
    return s.live_roem != 0  # at a trick boundary: the sets all in hands


cdef inline int total_without_roem(Ctx* c) noexcept nogil:
    """Both sides' totals at the end if no more roem falls: the scores, the points
    still in hands and on the table, the bonuses to come."""
    cdef int i, total = c.s.scores[0] + c.s.scores[1] + c.s.points_left + c.t.per_trick_bonus * c.s.tricks_left
    if c.s.tricks_left:
        total += c.t.last_trick_bonus
    for i in range(c.s.trick_len):
        total += c.t.points[c.s.trick[i]]
    return total


cdef int settle_by_raw_difference(Ctx* c, int alpha, int beta) noexcept nogil:
    """Klaverjas nat with no roem left to come: the value is a step function g of
    the raw difference d (g(d) = d when the contract is made, else the fixed total
    against the declarers), nondecreasing, so a raw search at the matching
    threshold answers the null-window question; wider windows search d exactly."""
    cdef Tables* t = c.t
    cdef int threshold = 1 if t.nat_on_tie else 0
    cdef int total = total_without_roem(c)
    cdef bint declarer = t.max_side == t.nat_side
    cdef int tau, r
    if beta - alpha <= 1:
        # the smallest raw difference whose value reaches beta
        if declarer:
            if beta <= -total:
                return -total
            tau = beta if beta > threshold else threshold
        else:
            if beta > total:
                return total
            tau = beta if beta <= -threshold else -threshold + 1
    t.settle = SETTLE_ADDITIVE
    roem_off(t)
    if beta - alpha > 1:
        r = mtdf(c, value_base(t, &c.s))
    else:
        r = search(c, tau - 1, tau)
    roem_on(t)
    t.settle = SETTLE_NAT
    if declarer:
        return r if r >= threshold else -total
    return r if r <= -threshold else total


cdef bint made_or_nat(Ctx* c, int alpha, int beta, int* v) noexcept nogil:
    """Klaverjas nat at a trick boundary: whether the window lies beyond every nat
    outcome, and if so the value (in `v`) from a raw search.

    For the declarers a nat is worth at most `ceiling`, minus the totals so far and
    the card points still to come (no more roem); a made contract is worth the raw
    difference d >= threshold > ceiling.  So for any x > ceiling, value >= x exactly
    when the raw value reaches max(x, threshold): with alpha >= ceiling a raw search
    at the window raised to threshold decides, an unmade contract reported as
    `ceiling` (an upper bound, <= alpha).  The defenders' values are the negation."""
    cdef Tables* t = c.t
    cdef State* s = &c.s
    cdef int threshold = 1 if t.nat_on_tie else 0
    cdef int ceiling = -total_without_roem(c)  # at a trick boundary, before the last trick
    cdef int a, b, r
    if ceiling >= threshold:  # only with odd scores given: the argument needs ceiling < threshold
        return False
    if t.max_side == t.nat_side:
        if alpha < ceiling:
            return False
        a = alpha if alpha > threshold - 1 else threshold - 1
        b = beta if beta > a else a + 1
    else:
        if beta > -ceiling:
            return False
        b = beta if beta < 1 - threshold else 1 - threshold
        a = alpha if alpha < b else b - 1
    t.settle = SETTLE_ADDITIVE
    c.nodes -= 1  # this node is counted again by the raw search
    r = search(c, a, b)
    t.settle = SETTLE_NAT
    if t.max_side == t.nat_side:
        v[0] = r if r >= threshold else ceiling
    else:
        v[0] = r if r <= -threshold else -ceiling
    return True


cdef bint nat_floor(Ctx* c, int alpha, int beta, int* v) noexcept nogil:
    """Klaverjas nat at a trick boundary, the window reaching into the nat values:
    a cut-off when the declarers are sure to get at least beta anyway.

    The roem still to come is at most `live`, the sum of the roem sets that can still
    fall in one trick (each at most its value in a trick, see roem_set_value), plus
    the pit if one side has no trick yet.  So a nat is worth at least ceiling - live
    for the declarers, and if even taking nothing more they stay ahead, the contract
    is made and worth at least the difference so far minus everything left."""
    cdef Tables* t = c.t
    cdef State* s = &c.s
    cdef int threshold = 1 if t.nat_on_tie else 0
    cdef int rest = s.points_left + t.last_trick_bonus + t.per_trick_bonus * s.tricks_left
    cdef int ceiling = -(s.scores[0] + s.scores[1] + rest)
    cdef int live = 0, i, lo, made_lo
    cdef int diff = s.scores[t.nat_side] - s.scores[1 - t.nat_side]
    cdef uint64_t sets = s.live_roem  # at a trick boundary: the sets all in hands
    if ceiling >= threshold:
        return False
    while sets:
        i = lowest_bit(sets)
        sets &= sets - 1
        live += t.roem_set_value[i]
    if s.tricks[0] == 0 or s.tricks[1] == 0:
        live += t.sweep_bonus
    lo = ceiling - live
    made_lo = diff - rest - live
    if made_lo >= threshold:
        lo = made_lo
    if t.max_side == t.nat_side:
        if lo >= beta:
            v[0] = lo
            return True
    elif -lo <= alpha:
        v[0] = -lo
        return True
    return False


cdef inline void roem_off(Tables* t) noexcept nogil:
    """No trick to come can carry roem: below, the bound cuts work and equivalent
    cards merge without the roem check."""
    if t.roem_free_levers:
        t.roem = 0


cdef inline void roem_on(Tables* t) noexcept nogil:
    if t.roem_free_levers:
        t.roem = 1


cdef inline int last_trick_side(Tables* t, State* s, int* gained, bint with_roem) noexcept nogil:
    """The last trick, one card in each hand, as play() would score it, without
    playing it: the side that takes it; in `gained` what it brings (its points, the
    bonuses, and with `with_roem` its roem)."""
    cdef int i, b, first, win_bit, win_off = 0, side
    cdef uint64_t cards = 0
    cdef uint32_t places = 0
    first = win_bit = lowest_bit(s.hands[t.seat_at[s.leader]])
    gained[0] = t.points[first] + t.per_trick_bonus + t.last_trick_bonus
    for i in range(1, t.n_players):
        b = lowest_bit(s.hands[t.seat_at[s.leader + i]])
        gained[0] += t.points[b]
        if with_roem:
            cards |= <uint64_t>1 << b
            places |= t.roem_place_bit[b]
        if t.group_of[b] == t.group_of[win_bit]:
            if b > win_bit:
                win_bit = b
                win_off = i
        elif t.group_of[b] == t.trump_group:
            win_bit = b
            win_off = i
    if with_roem:
        gained[0] += roem_of_cards(t, cards | (<uint64_t>1 << first), places | t.roem_place_bit[first],
                                   t.rank_of[first])
    side = t.side_of[t.seat_at[s.leader + win_off]]
    if t.sweep_bonus and s.tricks[side] + 1 == t.total_tricks:
        gained[0] += t.sweep_bonus
    return side


cdef int last_trick_value(Ctx* c) noexcept nogil:
    """One card each: the last trick plays itself."""
    cdef int side, gained
    cdef Tables* t = c.t
    if not t.roem:  # two copies of last_trick_side: the roem work only where roem counts
        side = last_trick_side(t, &c.s, &gained, False)
    else:
        side = last_trick_side(t, &c.s, &gained, True)
    if t.settle == SETTLE_ADDITIVE:
        return additive_value(t, &c.s) + t.weight[side] * gained
    if side == t.nat_side:
        return nat_value(t, c.s.scores[t.nat_side] + gained, c.s.scores[1 - t.nat_side])
    return nat_value(t, c.s.scores[t.nat_side], c.s.scores[1 - t.nat_side] + gained)


cdef int endgame(Ctx* c, int alpha, int beta) noexcept nogil:
    """The last tricks searched plainly (fail-soft alpha-beta over the legal cards in
    bit order, lowest first): no table, no bounds, no move ordering, whose costs do
    not pay so near the end."""
    cdef Tables* t = c.t
    cdef State* s = &c.s
    cdef int b, v, best, nxt, lose_direction = 2
    cdef uint64_t legal, rest, in_play, dominated = 0
    cdef bint maximising, prune
    cdef Undo u
    if s.trick_len == 0 and s.tricks_left <= 1:
        return last_trick_value(c) if s.tricks_left else final_value(t, s)
    c.nodes += 1
    maximising = t.side_of[t.seat_at[s.leader + s.trick_len]] == t.max_side
    legal = legal_moves(c)
    rest = legal
    prune = t.prune_dominated and not c.horizon_stop and (legal & (legal - 1))
    in_play = s.in_hands | s.trick_cards
    best = -INF if maximising else INF
    while rest:
        b = lowest_bit(rest)
        rest &= rest - 1
        if (dominated >> b) & 1:
            continue
        if prune:  # dominated cards left out, as in order_moves
            nxt = next_in_play(t, in_play, b)
            if nxt >= 0 and (legal >> nxt) & 1 \
                    and dominated_by_next(c, b, nxt, maximising, &lose_direction, &dominated):
                continue
        play(c, b, &u)
        v = endgame(c, alpha, beta)
        unplay(c, b, &u)
        fold_child(v, maximising, &best, &alpha, &beta)
        if alpha >= beta:
            break
    return best


cdef inline int held_points(Tables* t, uint64_t cards) noexcept nogil:
    """The card points of `cards`, six bits at a time (a leaf counts them often)."""
    cdef int i, total = 0
    for i in range(LEAF_CHUNKS):
        total += t.chunk_points[i][(cards >> (6 * i)) & 63]
    return total


cdef inline int group_points(Tables* t, int g, uint64_t cards) noexcept nogil:
    """The card points of `cards` in group `g` (its twelve bits are two chunks)."""
    return t.chunk_points[2 * g][(cards >> (GROUP_WIDTH * g)) & 63] + t.chunk_points[2 * g + 1][(cards >> (GROUP_WIDTH * g + 6)) & 63]


cdef inline int side_sign(Tables* t, int seat) noexcept nogil:
    return 1 if t.side_of[seat] == t.max_side else -1


cdef int leaf_rest(Ctx* c) noexcept nogil:
    """solver/leaf.py's `rest_guess` for the analysed side (two sides, a trick
    boundary): how many of the points still to come it takes more than the other
    side, by a linear function of who holds the points, the trumps and each group's
    highest card left, who leads and who can still sweep."""
    cdef Tables* t = c.t
    cdef State* s = &c.s
    cdef int* w = t.leaf_weights[s.tricks_left]
    cdef int q, g, b, sign, reach, total
    cdef uint64_t ours = 0, trumps, cards
    for q in range(t.n_players):
        if t.side_of[q] == t.max_side:
            ours |= s.hands[q]
    # held points and trumps: the side's less the other's (all of them less twice the side's)
    total = w[0] * (2 * held_points(t, ours) - s.points_left)
    if t.trump_group >= 0:
        trumps = s.in_hands & t.group_mask[t.trump_group]
        total += w[1] * (2 * popcount(ours & trumps) - popcount(trumps))
        total += w[2] * (2 * group_points(t, t.trump_group, ours) - group_points(t, t.trump_group, s.in_hands))
    for g in range(MAX_GROUPS):
        cards = s.in_hands & t.group_mask[g]
        if cards:
            b = highest_bit(cards)  # the group's master: nothing left beats it in its group
            sign = side_sign(t, t.owner[b])
            if g == t.trump_group:
                total += w[5] * sign
            else:
                total += w[3] * sign + w[4] * sign * t.points[b]
    total += w[6] * side_sign(t, s.leader)
    total += w[7] * t.sweep_bonus * ((s.tricks[1 - t.max_side] == 0) - (s.tricks[t.max_side] == 0))
    # toward zero, as leaf.py: operands kept non-negative, so C's and Python's agree
    total = total // LEAF_SCALE if total >= 0 else -((-total) // LEAF_SCALE)
    reach = available(t, s)  # the points, trick bonuses and sweep still to take
    return min(reach, max(-reach, total))


cdef int horizon_value(Ctx* c) noexcept nogil:
    """An estimate's leaf: the score so far, and the points still to come guessed
    (`leaf_rest`, where the game has weights) or shared out evenly among the seats
    (additive values only)."""
    cdef Tables* t = c.t
    cdef int i, seat, rest, v = additive_value(t, &c.s)
    if c.leaf_model and c.s.tricks_left < t.leaf_rows:
        return v + leaf_rest(c)  # two sides, weights 1 and -1
    rest = c.s.points_left + t.per_trick_bonus * c.s.tricks_left + t.last_trick_bonus
    for seat in range(t.n_players):
        # rest is never negative: divided first, C's and Python's division agree (a
        # PLIS_DEBUG build divides as Python does, rounding a negative share down)
        v += t.weight[t.side_of[seat]] * (rest // t.n_players)
    return v


cdef inline int trick_killer_slot(Ctx* c, int seat, bint maximising) noexcept nogil:
    """Where the card that last cut off in this trick context is kept
    (Ctx.trick_killer), or -1 for none.  The context is the leader, the tricks left,
    the mover and the card winning so far (at a lead: the last trick's), so sibling
    lines and later searches that meet the same context try that card first
    (Tables.trick_killers, lead_killers).  In the paranoid games only the
    coalition's seats have one: the analysed seat's orders, found by counting, did
    better without (Putz nodes +5 to +10% with it)."""
    cdef Tables* t = c.t
    cdef State* s = &c.s
    if t.n_sides > 2 and maximising:
        return -1
    return ((s.leader * 16 + s.tricks_left) * MAX_SEATS + seat) * MAX_BITS + s.win_bit


cdef int search(Ctx* c, int alpha, int beta) noexcept nogil:
    """The value of the position for the analysed side (fail-soft alpha-beta)."""
    cdef Tables* t = c.t
    cdef State* s = &c.s
    cdef int seat, n, i, v, best, best_move = 255, base = 0, tt_move = 255
    cdef int lead_slot, lo, hi, a0, b0, r, killer_slot, sure_for, sure_against, bound_lo = 0, bound_hi = 0
    cdef bint use_shape = False, use_nat = False
    cdef NatEntry* ne = NULL
    cdef uint64_t ntag = 0
    cdef uint64_t shape = 0, shape2 = 0
    cdef uint16_t shi = 0
    cdef ShapeEntry* se = NULL
    cdef bint maximising
    cdef bint use_main, use_bounds, additive_lead
    cdef uint64_t legal
    cdef int b
    cdef Key key
    cdef Entry* e
    cdef Entry* slots = NULL
    cdef int moves[64]
    cdef Undo u

    c.nodes += 1
    if c.nodes >= c.next_check:
        c.next_check = c.nodes + CHECK_EVERY
        if c.node_limit and c.nodes >= c.node_limit:
            c.aborted = LIMIT_NODES
        elif c.deadline and now() >= c.deadline:
            c.aborted = LIMIT_TIME
        elif c.cancel[0]:
            c.aborted = LIMIT_CANCELLED
    if c.aborted:
        return 0

    # 1. the end of the deal (or of an estimate's horizon); what the table knows;
    # what the points left allow
    if c.horizon_stop and s.trick_len == 0 and s.tricks_left <= c.horizon_stop:
        return horizon_value(c)
    if s.trick_len == 0 and s.tricks_left <= 1:
        return last_trick_value(c) if s.tricks_left else final_value(t, s)
    if s.trick_len:
        # inside a trick: no table (positions there rarely repeat), no bounds (they
        # almost never cut there: not worth their cost); the moves in order, the
        # trick's killer first
        legal = legal_moves(c)
        if (legal & (legal - 1)) == 0:  # one card to play: play it at once
            b = lowest_bit(legal)
            play(c, b, &u)
            v = search(c, alpha, beta)
            unplay(c, b, &u)
            return v
        seat = t.seat_at[s.leader + s.trick_len]
        maximising = t.side_of[seat] == t.max_side
        killer_slot = trick_killer_slot(c, seat, maximising) if t.trick_killers else -1
        n = order_moves(c, legal, 255, moves, c.trick_killer[killer_slot] if killer_slot >= 0 else 255, True)
        best = -INF if maximising else INF
        for i in range(n):
            play(c, moves[i], &u)
            v = search(c, alpha, beta)
            unplay(c, moves[i], &u)
            if c.aborted:
                return 0
            fold_child(v, maximising, &best, &alpha, &beta)
            if alpha >= beta:
                if killer_slot >= 0:
                    c.trick_killer[killer_slot] = moves[i]
                break
        return best

    # a trick boundary from here on: the tables' lines are fetched while the checks
    # below run
    if t.shape_table and t.settle == SETTLE_ADDITIVE and t.n_shape_groups:
        use_shape = True
        shape_of(t, s, &shape, &shape2)
        shi = shape_hi(t, s)
        se = shape_set_for(c, shape, shape2, shi)
        prefetch(se)
        if t.shape_set > 2:
            prefetch(&se[2])
    elif t.nat_shapes and t.settle == SETTLE_NAT:
        use_nat = True  # the nat entries' lines, likewise
        shape_of(t, s, &shape, &shape2)
        ntag = nat_shape_tag(c, shape2, shape_hi(t, s))
        ne = nat_set_for(c, shape, ntag)
        prefetch(ne)
        if t.shape_set > 2:
            prefetch(&ne[2])
    use_main = True
    if use_shape or use_nat:
        # near the end, the shape table alone: its entries of the same cards do
        # the main table's work, and a node waits for one line instead of two
        use_main = s.tricks_left > t.shape_alone_tricks
    if use_main:
        make_key(t, s, &key)
        slots = bucket_of(c, &key)
        prefetch(slots)
    if t.roem and t.roem_free_levers and t.settle == SETTLE_ADDITIVE and not more_roem_possible(c):
        roem_off(t)  # for this subtree
        c.nodes -= 1
        v = search(c, alpha, beta)
        roem_on(t)
        return v
    if t.settle == SETTLE_NAT and t.nat_ceiling:
        if made_or_nat(c, alpha, beta, &v) or (t.nat_roem_bound and nat_floor(c, alpha, beta, &v)):
            return v
    legal = legal_moves(c)
    base = value_base(t, s)
    # the bounds from the points still available come first: they are cheap, and
    # when they settle the node the table's cache miss is saved
    additive_lead = t.settle == SETTLE_ADDITIVE and not t.roem
    if additive_lead and t.claims and camp_claims(t, s, &v):
        c.claims += 1
        return v
    use_bounds = additive_lead and t.bound_cuts
    if use_bounds:
        r = available(t, s)
        sure_for = 0
        sure_against = 0
        if t.trump_group >= 0:
            master_trumps(c, &sure_for, &sure_against)
        if t.has_gain and t.has_loss:
            bound_hi = base + r - 2 * sure_against
            bound_lo = base - r + 2 * sure_for
        elif t.has_gain:
            bound_hi = base + r - sure_against
            bound_lo = base + sure_for
        else:
            bound_hi = base - sure_for
            bound_lo = base - r + sure_against
        if t.bounds_first:
            if bound_hi <= alpha:
                return bound_hi
            if bound_lo >= beta:
                return bound_lo
    if use_main:
        e = probe(c, slots, &key)
        c.probes += 1
        if e != NULL:
            c.hits += 1
            lo = unrel(e.lower, base)
            hi = unrel(e.upper, base)
            if lo >= beta or lo == hi:
                c.cuts += 1
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            tt_move = e.move
    # the narrower window may now be out of reach; without bounds_first, the one check
    # (also where the main table is not used: from endgame_tricks down)
    if use_bounds and (use_main or not t.bounds_first):
        if bound_hi <= alpha:
            return bound_hi
        if bound_lo >= beta:
            return bound_lo
    if use_shape:  # positions of the same shape: their bounds, widened by the margins
        lo = -INF
        hi = INF
        for i in range(t.shape_set):
            if same_shape(c, &se[i], shape, shape2, shi):
                c.shape_hits += 1
                narrow_by_shape(c, &se[i], base, alpha, beta, &lo, &hi)
        if settled_by_bounds(lo, hi, &alpha, &beta, &v):
            c.shape_cuts += 1
            return v
    if use_nat:  # positions of the same shape in nat searches: bounds if the totals are ordered
        for i in range(t.shape_set):
            if ne[i].shape == shape and ne[i].shape2 == ntag \
                    and (ne[i].cards == s.in_hands or same_roem(t, ne[i].cards, s)):
                nat_bounds(c, &ne[i], &lo, &hi)
                if settled_by_bounds(lo, hi, &alpha, &beta, &v):
                    c.shape_cuts += 1
                    return v
    if t.settle == SETTLE_NAT and t.bound_cuts and not more_roem_possible(c):
        v = settle_by_raw_difference(c, alpha, beta)
        if not c.aborted:
            if use_main:
                remember(c, slots, &key, base, v, alpha, beta, 255)
            if use_nat:
                nat_store(c, ne, shape, ntag, v, alpha, beta)
        return v

    # 2. try the moves in order; [a0, b0] is the window the bounds refer to
    a0 = alpha
    b0 = beta
    if s.tricks_left <= t.endgame_tricks:
        # the table was asked (it pays even here), but the search below is plain
        best = endgame(c, alpha, beta)
        if use_main:
            remember(c, slots, &key, base, best, a0, b0, 255)
        if use_shape and not c.aborted:
            shape_store(c, se, shape, shape2, shi, base, best, a0, b0)
        if use_nat and not c.aborted:
            nat_store(c, ne, shape, ntag, best, a0, b0)
        return best
    seat = s.leader
    maximising = t.side_of[seat] == t.max_side
    lead_slot = -1
    if t.lead_killers and s.win_bit >= 0:
        # s.win_bit is still the last trick's winning card
        lead_slot = trick_killer_slot(c, seat, maximising)
    n = order_moves(c, legal, tt_move, moves, 255, True, c.trick_killer[lead_slot] if lead_slot >= 0 else 255)
    best = -INF if maximising else INF
    for i in range(n):
        play(c, moves[i], &u)
        v = search(c, alpha, beta)
        unplay(c, moves[i], &u)
        if c.aborted:
            return 0
        if fold_child(v, maximising, &best, &alpha, &beta):
            best_move = moves[i]
        if alpha >= beta:
            if lead_slot >= 0:
                c.trick_killer[lead_slot] = moves[i]
            break

    # 3. remember what was learnt
    if use_main:
        remember(c, slots, &key, base, best, a0, b0, best_move)
    if use_shape:
        shape_store(c, se, shape, shape2, shi, base, best, a0, b0)
    if use_nat:
        nat_store(c, ne, shape, ntag, best, a0, b0)
    return best



cdef int without_sweep(Tables* t, State* s, int v) noexcept nogil:
    """A value `v` that can only be a sweep's (one side taking every trick), less
    the sweep bonus: a guess for a sibling, which need not sweep (two sides)."""
    cdef int r, base
    if not t.sweep_bonus or t.settle != SETTLE_ADDITIVE or not (t.has_gain and t.has_loss):
        return v
    r = available(t, s)
    base = value_base(t, s)
    if v > base + r - t.sweep_bonus:
        return v - t.sweep_bonus
    if v < base - r + t.sweep_bonus:
        return v + t.sweep_bonus
    return v


# --- the values a nat settlement can take -------------------------------------------
# Every roem and the pit are multiples of Tables.nat_grid (10), and the card points
# still to come are known, so once the totals with no more roem are known (`total`),
# a nat is worth -(total + k * nat_grid), k >= 0, to the declarers, and a made
# contract a raw difference of the same parity as `total`.  A test of the value
# against a number between two of these is the test against the higher one.

cdef inline int declarers_up(Tables* t, int total, int x) noexcept nogil:
    """For the declarers: the least value a settlement can take at or above x."""
    cdef int threshold = 1 if t.nat_on_tie else 0
    if x <= -total:
        return -total - ((-total - x) // t.nat_grid) * t.nat_grid
    if x < threshold:
        x = threshold
    if (x - total) & 1:
        x += 1
    return x


cdef inline int declarers_down(Tables* t, int total, int x) noexcept nogil:
    """For the declarers: the greatest value a settlement can take at or below x."""
    cdef int threshold = 1 if t.nat_on_tie else 0
    if x >= threshold:
        if (x - total) & 1:
            x -= 1
        if x >= threshold:
            return x
    if x >= -total:
        return -total
    return -total - ((-total - x + t.nat_grid - 1) // t.nat_grid) * t.nat_grid


cdef inline int settlement_up(Tables* t, int total, int x) noexcept nogil:
    """For the analysed side: the least value a settlement can take at or above x."""
    if x <= -INF or x >= INF:
        return x
    if t.max_side == t.nat_side:
        return declarers_up(t, total, x)
    return -declarers_down(t, total, -x)


cdef inline int settlement_down(Tables* t, int total, int x) noexcept nogil:
    """For the analysed side: the greatest value a settlement can take at or below x."""
    if x <= -INF or x >= INF:
        return x
    if t.max_side == t.nat_side:
        return declarers_down(t, total, x)
    return -declarers_up(t, total, -x)


cdef int nat_mtdf(Ctx* c, int guess) noexcept nogil:
    """MTD(f) of a nat settlement, its tests at the values it can take."""
    if c.t.nat_grid:
        c.grid_total = total_without_roem(c)
    return mtdf(c, guess)


cdef int mtdf(Ctx* c, int guess, int lo=-INF, int hi=INF) noexcept nogil:
    """The exact value by null-window searches (MTD(f)), the table keeping the bounds
    each one learns.  Values move in steps of points, so each test steps away from
    the last bound by a stride that doubles while the tests fail the same way, and
    bisects once the value is bracketed.

    Exact only if it lies in [lo, hi): no test is made outside [lo, hi], and once
    the value is known to be below lo (above or at hi) that bound is returned.

    With Tables.mtdf_window, each test is a window of that many points either side
    of its value, within what is known: fewer passes where guesses are poor."""
    cdef int lower = -INF, upper = INF, g = guess, beta, stride = 1, a, b
    cdef int w = c.t.mtdf_window
    cdef int total = c.grid_total  # > 0: a nat settlement's (nat_mtdf)
    c.grid_total = 0  # searches below start without
    if c.first_stride > 1:
        stride = c.first_stride
    c.first_stride = 0  # searches below start from 1
    beta = g
    while lower < upper and upper >= lo and lower < hi:
        if beta <= lower:
            beta = lower + 1
        if beta > upper:
            beta = upper
        if beta < lo:
            beta = lo
        if beta > hi:
            beta = hi
        if total:
            beta = settlement_up(c.t, total, beta)
        c.passes += 1
        # a window about the test: a value inside it comes back exact
        a = beta - 1 - w
        b = beta + w
        if a < lower:
            a = lower
        if a < lo - 1:
            a = lo - 1
        if b > upper:
            b = upper
        if b > hi:
            b = hi
        if b <= a + 1:
            a = beta - 1
            b = beta
        g = search(c, a, b)
        if c.aborted:
            c.stop_lower = lower
            c.stop_upper = upper
            return 0
        if a < g < b:
            return g
        if g <= a:
            upper = settlement_down(c.t, total, g) if total else g
        else:
            lower = settlement_up(c.t, total, g) if total else g
        if lower == -INF:
            beta = upper - stride + 1
            stride *= 2
        elif upper == INF:
            beta = lower + stride
            stride *= 2
        else:
            beta = lower + (upper - lower + 1) // 2
    return upper if upper < lo else lower


cdef int value_after_root_move(Ctx* c, int guess, int alpha, int beta, bint exact, int* settled_by) noexcept nogil:
    """The value of the position after a root move, exact or within (alpha, beta).

    Klaverjas nat: if the declarers can make their contract, the value is the raw
    difference (declarers playing for the raw difference make it and get at least
    that; defenders playing for it concede at most that, and a nat would be worse
    for the declarers).  That additive search is fast; only when the contract fails
    does the search need the totals in its keys.  `settled_by` says which it was."""
    cdef Tables* t = c.t
    cdef int v, r, threshold, total
    cdef bint made, declarer = t.max_side == t.nat_side
    settled_by[0] = t.settle
    c.stop_lower = -INF
    c.stop_upper = INF
    if t.settle == SETTLE_NAT:
        threshold = 1 if t.nat_on_tie else 0
        if exact and t.nat_fold and (guess < threshold if declarer else guess > -threshold):
            # the guess is a nat (a sibling's): an MTD(f) of the settlement itself,
            # without the made test (the nat search values made contracts too)
            return nat_mtdf(c, guess)
        t.settle = SETTLE_ADDITIVE
        if exact and t.made_fold and (guess >= threshold if declarer else guess <= -threshold):
            # the guess is a made contract's: MTD(f) on the raw difference from it,
            # exact only where made, ended by a bound short of made (not made).  If a
            # limit stops it, its bounds hold the settled value too: it tests only in
            # the made region, so a bound toward made says made, and one away from it
            # holds a nat as well (a nat is worse for the declarers than made)
            if declarer:
                v = mtdf(c, guess, threshold, INF)
                made = v >= threshold
            else:
                v = mtdf(c, guess, -INF, 1 - threshold)
                made = v <= -threshold
        else:
            # one null-window test of the raw difference: can the declarers make it?
            if declarer:
                r = search(c, threshold - 1, threshold)
                made = r >= threshold
            else:
                r = search(c, -threshold, -threshold + 1)
                made = r <= -threshold
            if made and not c.aborted:
                if t.made_guess and (guess > r if declarer else guess < r):
                    r = guess  # the root's guess, when the test did not already pass it
                v = mtdf(c, r) if exact else search(c, alpha, beta)
        t.settle = SETTLE_NAT
        if c.aborted:
            return 0
        if made:
            settled_by[0] = SETTLE_ADDITIVE
            return v
        # the defenders score everything; a first guess: no more roem, unless the
        # root's guess (a sibling's nat) lies beyond that
        total = total_without_roem(c)
        if declarer:
            if not (t.made_guess and guess < -total):
                guess = -total
        elif not (t.made_guess and guess > total):
            guess = total
    if exact:
        return nat_mtdf(c, guess) if t.settle == SETTLE_NAT else mtdf(c, guess)
    return search(c, alpha, beta)


cdef inline int stand_in(Tables* t, uint64_t in_play, uint64_t searched, int b) noexcept nogil:
    """The root move (of the mask `searched`) that stands for card `b`: `b`, or the
    next stronger card in play it was merged with (order_moves keeps one card a run);
    -1 if none."""
    while b >= 0 and not (searched >> b) & 1:
        b = next_in_play(t, in_play, b)
    return b


cdef uint64_t root_stand_ins(Tables* t, uint64_t in_play, uint64_t searched, uint64_t wanted) noexcept nogil:
    """The root moves that stand for the cards of `wanted` (stand_in)."""
    cdef uint64_t found = 0
    cdef int b
    while wanted:
        b = stand_in(t, in_play, searched, lowest_bit(wanted))
        wanted &= wanted - 1
        if b >= 0:
            found |= <uint64_t>1 << b
    return found


cdef void move_to_front(int* moves, int n, uint64_t wanted) noexcept nogil:
    """The first of `moves` in `wanted` moved to the front, the others' order kept."""
    cdef int i, j, m
    for i in range(n):
        if (wanted >> moves[i]) & 1:
            m = moves[i]
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
            moves[0] = m
            return


cdef int better_or_equal(Ctx* c, int best, bint maximising, int* settled_by, bint* exact) noexcept nogil:
    """After a root move: its exact value if it beats `best`, `best` if it equals it,
    else one step worse than `best` (best - 1 for the maximising side, not exact)."""
    cdef int r, step = 1 if maximising else -1
    exact[0] = True
    # a null window just past `best`: does the move beat it?
    if maximising:
        r = value_after_root_move(c, 0, best, best + 1, False, settled_by)
    else:
        r = value_after_root_move(c, 0, best - 1, best, False, settled_by)
    if c.aborted:
        return 0
    if (maximising and r > best) or (not maximising and r < best):
        # stopped in there, the MTD(f) from r keeps the bounds it proved: its first
        # test, at r, soon passes again from the table (a scan of 632 stops found
        # none that r would have narrowed further)
        return value_after_root_move(c, r, 0, 0, True, settled_by)
    if maximising:
        r = value_after_root_move(c, 0, best - 1, best, False, settled_by)
    else:
        r = value_after_root_move(c, 0, best, best + 1, False, settled_by)
    if c.aborted:
        return 0
    if (maximising and r >= best) or (not maximising and r <= best):
        return best
    exact[0] = False
    return best - step


cdef int value_by_plan(Ctx* c, int guess) noexcept nogil:
    """A root move's value, as exact as the objective's steps need (Tables.plan).
    An exact value's MTD(f) starts from `guess` when it lies beyond the test's bound
    (plan_guess), else from that bound.  With plan_fold, a guess in the exact region
    starts an MTD(f) kept to that region instead of the test at its step (the
    MTD(f)'s bound beyond the step answers the test)."""
    cdef Tables* t = c.t
    cdef int r
    if t.plan_fold and t.plan_exact == 2 and guess >= t.plan_high:
        r = mtdf(c, guess, t.plan_high, INF)
        if c.aborted or r >= t.plan_high:
            return r
        return plan_below_high(c, r, guess)
    if t.plan_fold and t.plan_exact == 1 and guess < t.plan_low:
        r = mtdf(c, guess, -INF, t.plan_low)
        if c.aborted or r < t.plan_low:
            return r
        if t.plan_low == t.plan_high:
            return r  # a bound at or above the step
        r = search(c, t.plan_high - 1, t.plan_high)
        if c.aborted or r >= t.plan_high:
            return r
        return t.plan_low  # between the steps
    r = search(c, t.plan_high - 1, t.plan_high)
    if c.aborted:
        return 0
    if r >= t.plan_high:
        if t.plan_exact != 2:
            return r
        return mtdf(c, guess if t.plan_guess and guess > r else r)
    return plan_below_high(c, r, guess)


cdef int plan_below_high(Ctx* c, int r, int guess) noexcept nogil:
    """value_by_plan once the value is known below plan_high (`r`: a bound)."""
    cdef Tables* t = c.t
    if t.plan_low < t.plan_high:
        r = search(c, t.plan_low - 1, t.plan_low)
        if c.aborted:
            return 0
        if r >= t.plan_low:
            return t.plan_low  # between the steps: the objective has one value there
    if t.plan_exact != 1:
        return r
    return mtdf(c, guess if t.plan_guess and guess < r else r)


cdef void order_root_moves(Ctx* c, int* moves, int n, bint maximising) noexcept nogil:
    """The root moves, best first by how the current trick ends for them (played
    out best, the points after it shared out evenly, as `horizon_value`; for nat the
    raw difference).  The first move valued is then likelier the best, and the
    others' MTD(f) starts from its value, above theirs: from the side where the
    tests need one refutation each, not every reply refuted.  Within the trick the
    search uses no table, so this leaves no entry behind."""
    cdef int estimates[64]
    cdef int i, settle = c.t.settle
    cdef Undo u
    c.t.settle = SETTLE_ADDITIVE
    c.horizon_stop = c.s.tricks_left - 1  # the next trick boundary is a leaf
    for i in range(n):
        play(c, moves[i], &u)
        estimates[i] = search(c, -INF, INF)
        unplay(c, moves[i], &u)
        if not maximising:
            estimates[i] = -estimates[i]
    c.horizon_stop = 0
    c.t.settle = settle
    sort_by_key(moves, estimates, n)  # stable: ties keep order_moves' order


cdef int principal_line(Ctx* c, int lo, int hi, int* line, int max_len) noexcept nogil:
    """One line of best play from the current state, whose value lies in [lo, hi)
    (hi = lo + 1: an exact value; -INF or INF: one side open): at each step the first
    move whose value lies there too (values are final values, so a move of the
    position's value is always found).  A step objective is one value over such a
    region (Tables.plan), so any such line is a line of best play for it."""
    cdef int length = 0, n, i, tt_move, r
    cdef int alpha = lo - 1 if lo > -INF else hi - 1
    cdef int beta = hi if hi < INF else lo
    cdef int moves[64]
    cdef Key key
    cdef Entry* e
    cdef Undo u
    while length < max_len and not (c.s.trick_len == 0 and c.s.tricks_left == 0):
        tt_move = 255
        make_key(c.t, &c.s, &key)
        e = probe(c, bucket_of(c, &key), &key)
        if e != NULL:
            tt_move = e.move
        n = order_moves(c, legal_moves(c), tt_move, moves)
        for i in range(n):
            play(c, moves[i], &u)
            r = search(c, alpha, beta)
            if c.aborted:  # a cancel: r is no value (0), and the line ends here
                unplay(c, moves[i], &u)
                return length
            if lo <= r < hi:
                line[length] = moves[i]
                length += 1
                break
            unplay(c, moves[i], &u)
        else:
            break  # cannot happen when the position's value lies in [lo, hi)
    return length


def _low_bit(mask):
    return (mask & -mask).bit_length() - 1


def _dense_code_bits(n_players, length):
    """Bits for dense_code over a run of `length` cards: sum(n^k, k <= length) values."""
    return (sum(n_players**k for k in range(length + 1)) - 1).bit_length()


cdef inline uint32_t dense_code(Tables* t, int base, int length, int idx) noexcept nogil:
    """A dense code of a subset `idx` of the run of `length` cards from bit `base`
    and of who holds them: the codes of the smaller subsets first, then the owners
    in bit order as the digits of a number in base n_players.  Two subsets of one
    size held alike get one code."""
    cdef uint64_t code = 0, place = 1
    cdef int k, n = t.n_players
    for k in range(popcount(idx)):
        code += place
        place *= n
    place = 1
    for k in range(length):
        if (idx >> k) & 1:
            code += <uint64_t>max(t.owner[base + k], 0) * place
            place *= n
    return <uint32_t>code


cdef int _fill_pieces(object mask, uint64_t* masks, int8_t* shifts) except -1:
    """Cut `mask` into contiguous blocks of bits, each to be shifted down next to
    the previous one; return how many."""
    cdef int count = 0
    out = 0  # Python ints below: the masks reach past 32 bits
    while mask:
        low = _low_bit(mask)
        length = 0
        while (mask >> (low + length)) & 1:
            length += 1
        if count == MAX_PIECES:
            raise ValueError("engine: too many pieces in the table key")
        masks[count] = ((1 << length) - 1) << low
        shifts[count] = low - out
        out += length
        mask &= ~(((1 << length) - 1) << low)
        count += 1
    return count


MOST_PARKED_DEALS = PARKED_DEALS  # deals an Engine keeps for later while it serves others


cdef inline bint owners_agree(int* seen, int* owner) noexcept nogil:
    """Whether each card of a position (`owner`: its seat, or -1 for a card not in
    play) that `seen` records (the owners of a generation's cards) lies with the same
    seat there: if so, that generation's entries hold for the position."""
    cdef int bit
    for bit in range(MAX_BITS):
        if owner[bit] >= 0 and seen[bit] >= 0 and seen[bit] != owner[bit]:
            return False
    return True


cdef class Engine:
    """A search engine with its own transposition tables, `tt_megabytes` in all (the
    largest power of two up to an eighth for the table of positions, the rest for the
    shape table; in Klaverjas
    `score`, the nat entries, NatEntry, share the shape table).  `Engine()` has 32 MB;
    the library's own engines, when no `engine=` is given, have 8 MB, or 64 MB for a
    position with more than 32 cards to play (`analysis.default_tt_megabytes`).

    One engine serves one thread at a time; give each thread its own.  The tables
    are kept between calls and reused when the next position comes from the same deal
    with the same rules.  Another deal's search starts under a generation of its own,
    and the deal left keeps its entries under its generation (parked, for up to
    PARKED_DEALS deals), so that a later position of it finds those its search has
    not replaced since: one engine serving several deals in turn (the service's
    calls) does not start each afresh.
    """

    cdef Entry* table
    cdef ShapeEntry* shapes
    cdef readonly long long shape_entries
    cdef uint64_t table_mask
    cdef uint8_t generation
    cdef uint8_t last_generation  # the highest handed out since the tables were zeroed
    cdef bint generation_unused  # no position loaded since the generation began
    # deals left for another, with what their entries rely on: rules (signature),
    # generation, the owners of every card seen (see _park)
    cdef object parked_signature
    cdef uint8_t parked_generation[PARKED_DEALS]
    cdef int parked_owner[PARKED_DEALS][MAX_BITS]
    cdef long long parked_when[PARKED_DEALS]  # 0: a free slot
    cdef long long park_clock
    cdef readonly long long resumed  # deals taken up again under their generation (tests)
    cdef readonly int tt_megabytes
    cdef readonly long long tt_entries
    cdef Tables tables
    cdef Tables loaded_tables  # the tables as _load built them for loaded_signature
    cdef object loaded_signature
    cdef object signature
    cdef int owner[MAX_BITS]
    cdef uint64_t run_points[MAX_GROUPS][512]  # Tables.rank_points under run_margins, for `owner`
    cdef bint run_points_ready
    cdef bint busy
    cdef volatile int cancel_requested
    cdef readonly long long cancels  # cancel() calls so far: analyses of many searches stop at a change
    cdef volatile int cancel_pending  # cancel(before_start=True) until forget_cancel()

    def __cinit__(self, object tt_megabytes=32):
        tt_megabytes = table_megabytes(tt_megabytes)  # an OptionError names a bad size
        # at most an eighth of the memory for the main table (a power of two), the rest
        # for the shape table:
        # near the end of a deal the shape table serves alone (shape_alone_tricks),
        # so the main table holds only the deeper positions (1 MB or 4 MB of main
        # table: the same nodes; 7 MB of shape table instead of 4: Putz nodes -6%,
        # Bassadewitz -3%)
        cdef long long total = <long long>tt_megabytes * 1024 * 1024
        cdef long long entries = 1024, shape_entries
        while entries * 2 * sizeof(Entry) <= total // 8:
            entries *= 2
        shape_entries = (total - entries * sizeof(Entry)) // sizeof(ShapeEntry) // 4 * 4
        # aligned to a cache line at least, so a bucket of four entries (or a set of
        # shape entries) is one line (two), one miss; in huge pages (time -2 to -10%)
        # zeroing the tables takes up to a few hundred ms on a cold machine: other
        # threads (another engine's search, the service's event loop) go on meanwhile
        self.tt_entries = entries  # before the tables: __dealloc__ frees them by these sizes
        self.shape_entries = shape_entries
        with nogil:
            self.table = <Entry*>table_memory(entries * sizeof(Entry))
            self.shapes = <ShapeEntry*>table_memory(shape_entries * sizeof(ShapeEntry))
        if self.table == NULL or self.shapes == NULL:
            raise MemoryError(f"tt_megabytes: cannot allocate {tt_megabytes} MB")
        self.tt_megabytes = tt_megabytes
        self.table_mask = entries - 1
        self.generation = 1
        self.last_generation = 1
        self.generation_unused = True
        self.signature = None
        self.parked_signature = [None] * PARKED_DEALS
        self._forget_parked()
        for i in range(MAX_BITS):
            self.owner[i] = -1
        self.run_points_ready = False

    def __dealloc__(self):
        table_free(self.table, self.tt_entries * sizeof(Entry))
        table_free(self.shapes, self.shape_entries * sizeof(ShapeEntry))

    @property
    def tt_bytes(self):
        """The memory of both tables."""
        return self.tt_entries * sizeof(Entry) + self.shape_entries * sizeof(ShapeEntry)

    cdef void _mark_busy(self) except *:
        """Mark the engine busy for a call, refusing it while another thread's call runs."""
        if self.busy:
            raise RuntimeError("this Engine is already solving in another thread; give each thread its own Engine")
        self.busy = True

    def _shape_margins(self, dict spec, uint64_t stored, uint64_t cards, bint lanes=True, dict owners=None):
        """For tests: shape_margins (down, up) between two card sets of one shape under
        `spec`'s rules, by rank_points' lanes or by the plain loop.  With `owners`
        ({bit: seat}), the lanes of run_margins (fill_run_points)."""
        self._mark_busy()
        try:
            return self._margins(spec, stored, cards, lanes, owners)
        finally:
            self.busy = False

    cdef object _margins(self, dict spec, uint64_t stored, uint64_t cards, bint lanes, dict owners):
        cdef int down = 0, up = 0, i
        cdef int owner[MAX_BITS]
        self._load(spec)
        if not lanes:
            self.tables.rank_lanes = 0
        elif not self.tables.rank_lanes:
            raise ValueError("no rank lanes for these rules")
        if owners is not None:
            if not (lanes and self.tables.run_margins):
                raise ValueError("run_margins is off for these rules")
            for i in range(MAX_BITS):
                owner[i] = owners.get(i, -1)
            fill_run_points(&self.tables, owner, self.tables.rank_points)
        shape_margins(&self.tables, stored, cards, &down, &up)
        return down, up  # the next _load copies the tables back from loaded_tables

    def _same_roem(self, dict stored_spec, dict spec):
        """For tests: same_roem, whether the shape table would lend the bounds of
        `stored_spec`'s position to `spec`'s (two trick-boundary positions of one
        deal and shape) with roem in play; each loaded in turn, as a search meets them."""
        cdef State stored, current
        if stored_spec["trick"] or spec["trick"]:
            raise ValueError("trick: same_roem compares trick-boundary positions")
        self._mark_busy()
        try:
            self._forget_parked()  # a generation of its own, nothing taken up
            self._new_generation()
            self._load(stored_spec)
            self._load_state(&stored, stored_spec)
            self._load(spec)
            self._load_state(&current, spec)
            return bool(same_roem(&self.tables, stored.in_hands, &current))
        finally:
            self.busy = False

    def _table_key(self, dict spec):
        """For tests: the transposition table's key (lo, hi) of `spec`'s position, as
        its own search would make it (trick boundaries only: inside a trick the key
        is not exact and never stored)."""
        cdef State s
        cdef Key k
        if spec["trick"]:
            raise ValueError("trick: only trick-boundary positions have a table key")
        self._mark_busy()
        try:
            self._forget_parked()
            self._new_generation()
            self._load(spec)
            self._load_state(&s, spec)
            make_key(&self.tables, &s, &k)
            return int(k.lo), int(k.hi)
        finally:
            self.busy = False

    def clear(self):
        """Forget everything the table holds (refused while another thread solves: it
        would empty the table under that search)."""
        if self.busy:
            raise RuntimeError("this Engine is solving in another thread; clear it once that search is done")
        self._forget_parked()
        self._new_generation()

    def cancel(self, before_start=False):
        """Stop the search running in another thread soon (within a few thousand
        nodes); its result is then marked not exact with the limit "cancelled".  The
        next search on this engine starts afresh, but `analyse_play` and
        `trump_table`, which run several, search no further once this is called
        (they watch `cancels`), whether or not a search was running.

        With `before_start`, every search that starts from now on is stopped too, at
        once, until `forget_cancel()`: for a caller that has handed the engine to a
        search that may not have started yet (the service's calls)."""
        check_flag("before_start", before_start)  # "no" would be true
        if before_start:
            self.cancel_pending = 1
        self.cancel_requested = 1
        self.cancels += 1

    def forget_cancel(self):
        """End a `cancel(before_start=True)`: the next search starts afresh."""
        self.cancel_pending = 0

    cdef void _new_generation(self):
        """An empty table for what follows: a generation never used since the tables
        were last zeroed (an entry counts only under its own generation)."""
        self.last_generation += 1
        if self.last_generation == 0:  # wrapped: old entries could look current
            memset(self.table, 0, (self.table_mask + 1) * sizeof(Entry))
            memset(self.shapes, 0, self.shape_entries * sizeof(ShapeEntry))
            self.last_generation = 1
            self._forget_parked()
        self.generation = self.last_generation
        self.generation_unused = True
        for i in range(MAX_BITS):
            self.owner[i] = -1
        self.run_points_ready = False

    cdef void _forget_parked(self):
        cdef int i
        for i in range(PARKED_DEALS):
            self.parked_when[i] = 0
            self.parked_signature[i] = None

    cdef void _park(self):
        """Before another deal (or other rules) takes the tables: keep the current
        generation's deal for a later call, in a free slot or the one left longest
        ago.  Its entries stay valid under the same rules for any position whose
        cards lie where this generation saw them (the test of _load_state)."""
        cdef int i, slot = 0
        if self.generation_unused or self.signature is None:
            return
        for i in range(PARKED_DEALS):
            if self.parked_when[i] and self.parked_generation[i] == self.generation:
                slot = i  # parked before and taken up again: the same deal
                break
            if self.parked_when[i] < self.parked_when[slot]:
                slot = i
        self.park_clock += 1
        self.parked_when[slot] = self.park_clock
        self.parked_generation[slot] = self.generation
        self.parked_signature[slot] = self.signature
        memcpy(self.parked_owner[slot], self.owner, sizeof(self.owner))

    cdef void _spec_owners(self, dict spec, int* owner) except *:
        """Who holds each card of `spec`'s position, or played it to the trick (-1: not in play)."""
        cdef int i, seat, bit
        for bit in range(MAX_BITS):
            owner[bit] = -1
        for seat in range(self.tables.n_players):
            for bit in spec["hands"][seat]:
                owner[bit] = seat
        for i, bit in enumerate(spec["trick"]):  # played by the leader and the seats after
            owner[bit] = (spec["leader"] + i) % self.tables.n_players

    cdef bint _resume(self, int* owner) except *:
        """On a new generation: take up the parked deal (the latest left) whose rules
        are these and whose cards seen lie where the position's do (`owner`, by
        _spec_owners), under its generation."""
        cdef int i, best = -1
        for i in range(PARKED_DEALS):
            if not self.parked_when[i] or (best >= 0 and self.parked_when[i] < self.parked_when[best]):
                continue
            if self.parked_signature[i] == self.signature and owners_agree(self.parked_owner[i], owner):
                best = i
        if best < 0:
            return False
        self.generation = self.parked_generation[best]
        memcpy(self.owner, self.parked_owner[best], sizeof(self.owner))
        self.run_points_ready = False
        self.parked_when[best] = 0
        self.parked_signature[best] = None
        self.generation_unused = False
        self.resumed += 1
        return True

    def solve(self, dict spec, double time_limit=0.0, long long node_limit=0, bint all_moves=True, bint want_line=True,
              int horizon=0, uint64_t exact_moves=0, int first_move=-1):
        """Search the position described by `spec` (see solver/compile.py).

        Returns a dict: `values` {bit: value or None}, `nodes`, `limit` (None,
        "nodes", "time" or "cancelled"), `line` [bits] and `line_scores` (each side's
        score at its end, None without a line), `best` (a best bit), `best_moves`
        (every best bit) and `value` (None when a limit stopped the search), `worse`
        {bit: bound} (below), `merged` {bit: bit} (a card merged with an equivalent
        one at the root: the card searched for it, which it plays as), `stats`
        (claims, table probes, hits, cut-offs, MTD(f) passes, and per root move
        valued: (bit, nodes, passes, first guess), for benchmarks).
        `horizon` > 0: an estimate instead, best play over the next `horizon` tricks
        (the current one included) and what follows guessed (`horizon_value`: the
        leaf's weights where the spec has them, else shared out evenly); additive
        values only, in the same tables under a generation of its own before and
        after (its entries are not values, and those kept before are dropped).
        Without `all_moves`, the cards of the mask `exact_moves` are valued exactly
        too (a card merged with an equivalent one through it); `worse` then gives,
        for each other card shown worse than the best, a bound on its value: one
        step worse than a value some other card reaches.
        `first_move` (a legal card's bit, -1: none): the root searches it (or the card
        that stands for it) first, as a limited hint's best guess.
        """
        self._mark_busy()
        try:
            return self._solve(spec, time_limit, node_limit, all_moves, want_line, horizon, exact_moves, first_move)
        finally:
            self.busy = False

    cdef object _solve(self, dict spec, double time_limit, long long node_limit, bint all_moves, bint want_line,
                       int horizon, uint64_t exact_moves, int first_move):
        cdef Ctx c
        cdef Undo u
        cdef int i, n, v, best, alpha, beta, line_len = 0, best_bit = -1, best_mode = 0, settle
        cdef int modes[64]
        cdef int moves[64]
        cdef int values[64]
        cdef int line[64]
        cdef bint solved[64]
        cdef bint is_best[64]
        cdef bint worse[64]  # shown worse than the best, not valued
        cdef int line_scores[MAX_SEATS]
        cdef int j, guess, lo, hi, stopped_bit = -1, stop_lower = -INF, stop_upper = INF
        cdef int64_t move_nodes[64]
        cdef int64_t move_passes[64]
        cdef int guesses[64]
        cdef int owner[MAX_BITS]  # the position's cards by seat (_spec_owners)
        cdef bint maximising
        cdef uint64_t legal, searched = 0, root_in_play
        self._load(spec)
        memset(&c, 0, sizeof(Ctx))
        self.cancel_requested = self.cancel_pending
        c.cancel = &self.cancel_requested
        memset(c.trick_killer, 255, sizeof(c.trick_killer))
        c.t = &self.tables
        c.table = self.table
        c.table_mask = self.table_mask
        c.shapes = self.shapes
        # the nat entries share the shape table's sets: neither kind can match a
        # probe of the other (a NatEntry's second word has its high bits set,
        # nat_shape_tag, and a shape's never has)
        c.shape_sets = self.shape_entries // self.tables.shape_set
        c.shape_hits = 0
        c.shape_cuts = 0
        c.node_limit = node_limit
        c.deadline = now() + time_limit if time_limit > 0 else 0.0
        self._load_state(&c.s, spec)
        c.generation = self.generation
        if c.s.tricks_left == 0:
            raise ValueError("hands: the deal is over")
        if horizon > 0:
            if c.t.settle != SETTLE_ADDITIVE or c.t.plan:
                raise ValueError("horizon: estimates need an objective whose values add up")
            # leaves that are not the end: the cut-offs from the points left (the
            # master trumps' would not all fall before the horizon) and the plain
            # endgame (which knows no horizon) are off, and the table starts and ends
            # empty, so estimates and values never meet
            c.t.bound_cuts = 0
            c.t.claims = 0  # a claim's value is the deal's end, not the horizon's
            c.t.endgame_tricks = 0
            c.t.shape_table = 0
            want_line = False
            self._park()  # taken up again after the estimates
            self._new_generation()
            c.generation = self.generation
            if c.s.tricks_left > horizon:
                c.horizon_stop = c.s.tricks_left - horizon
            c.leaf_model = 1  # not in order_root_moves' look a trick ahead: measured apart
        with nogil:
            maximising = c.t.side_of[(c.s.leader + c.s.trick_len) % c.t.n_players] == c.t.max_side
            legal = legal_moves(&c)
            n = order_moves(&c, legal, 255, moves)
            if c.t.root_order and horizon == 0 and n > 1:
                order_root_moves(&c, moves, n, maximising)
            root_in_play = c.s.in_hands | c.s.trick_cards
            for i in range(n):
                searched |= <uint64_t>1 << moves[i]
            if 0 <= first_move < 64:
                move_to_front(moves, n, root_stand_ins(c.t, root_in_play, searched, (<uint64_t>1 << first_move) & legal))
            exact_moves = root_stand_ins(c.t, root_in_play, searched, exact_moves & legal)
            best = -INF if maximising else INF
            for i in range(n):
                solved[i] = False
                is_best[i] = False
                worse[i] = False
            for i in range(n):
                move_nodes[i] = c.nodes
                move_passes[i] = c.passes
                guesses[i] = 0
                play(&c, moves[i], &u)
                modes[i] = c.t.settle
                c.stop_lower = -INF
                c.stop_upper = INF
                if self.tables.plan:
                    guess = best if i > 0 else value_base(c.t, &c.s)
                    for j in range(i):  # the last card of this group valued
                        if c.t.group_of[moves[j]] == c.t.group_of[moves[i]]:
                            guess = values[j]
                    v = value_by_plan(&c, guess)
                    solved[i] = True
                elif all_moves or i == 0 or (exact_moves >> moves[i]) & 1:
                    if self.tables.null_window_root:
                        guess = values[i - 1] if i > 0 else value_base(c.t, &c.s)
                        if c.t.suit_guess:
                            # two sides: the best value so far, unless a card of
                            # this group was valued (belote nodes -1.8%; worse in Putz)
                            if i > 0:
                                guess = best
                                guess = without_sweep(c.t, &c.s, guess)
                            for j in range(i):  # the last card of this group valued
                                if c.t.group_of[moves[j]] == c.t.group_of[moves[i]]:
                                    guess = values[j]
                        if i == 0:
                            # no value known yet: MTD(f) first strides of a
                            # sixteenth of the range (belote: 10 passes -> 7)
                            c.first_stride = available(c.t, &c.s) // 8
                        guesses[i] = guess
                        v = value_after_root_move(&c, guess, 0, 0, True, &modes[i])
                        c.first_stride = 0
                    else:
                        v = value_after_root_move(&c, 0, -INF, INF, False, &modes[i])
                    solved[i] = True
                else:
                    # the best move(s) only: is this one better, or as good?
                    v = better_or_equal(&c, best, maximising, &modes[i], &solved[i])
                    worse[i] = not solved[i] and not c.aborted
                unplay(&c, moves[i], &u)
                move_nodes[i] = c.nodes - move_nodes[i]
                move_passes[i] = c.passes - move_passes[i]
                if c.aborted:
                    solved[i] = False  # stopped while valuing it: only what its tests proved
                    stopped_bit = moves[i]
                    stop_lower = c.stop_lower
                    stop_upper = c.stop_upper
                    break
                values[i] = v
                if i == 0 or (maximising and v > best) or (not maximising and v < best):
                    best = v
                    best_bit = moves[i]
                    best_mode = modes[i]
                    for j in range(i):
                        is_best[j] = False
                if v == best:
                    is_best[i] = True
            if not c.aborted and want_line and best_bit >= 0:
                c.node_limit = 0
                c.deadline = 0.0
                settle = c.t.settle
                c.t.settle = best_mode  # follow the line in the search that valued it
                play(&c, best_bit, &u)
                lo = best
                hi = best + 1
                if c.t.plan:
                    if c.t.plan_line:
                        # the plan may have left only a bound: then the region the
                        # best lies in, where the objective has one value, will do
                        if best < c.t.plan_low and c.t.plan_exact != 1:
                            lo = -INF
                            hi = c.t.plan_low
                        elif best >= c.t.plan_high and c.t.plan_exact != 2:
                            lo = c.t.plan_high
                            hi = INF
                        elif c.t.plan_low <= best < c.t.plan_high:
                            lo = c.t.plan_low
                            hi = c.t.plan_high
                    else:
                        best = mtdf(&c, best)
                        lo = best
                        hi = best + 1
                line[0] = best_bit
                line_len = 1 + principal_line(&c, lo, hi, &line[1], 63)
                if c.aborted:  # cancelled on the way: no line of best play, no scores
                    line_len = 0
                c.t.settle = settle
                for i in range(c.t.n_sides):
                    line_scores[i] = c.s.scores[i]
        if horizon > 0:
            self._new_generation()  # the estimates' entries must not serve a later search
            self._spec_owners(spec, owner)
            self._resume(owner)  # the deal's own entries do
        result_values = {}
        best_moves = []
        worse_bounds = {}
        stopped_bounds = {}
        for i in range(n):
            result_values[moves[i]] = values[i] if solved[i] else None
            if is_best[i] and not c.aborted:
                best_moves.append(moves[i])
            if worse[i]:
                worse_bounds[moves[i]] = values[i]
        if stopped_bit >= 0 and (stop_lower > -INF or stop_upper < INF):
            stopped_bounds[stopped_bit] = (stop_lower if stop_lower > -INF else None,
                                           stop_upper if stop_upper < INF else None)
        # cards merged with an equivalent one take its value
        merged = {}
        for bit in range(MAX_BITS):
            if (legal >> bit) & 1 and bit not in result_values:
                stand = stand_in(&self.tables, root_in_play, searched, bit)
                merged[bit] = stand
                result_values[bit] = result_values[stand]
                if stand in best_moves:
                    best_moves.append(bit)
                if stand in worse_bounds:
                    worse_bounds[bit] = worse_bounds[stand]
                if stand in stopped_bounds:
                    stopped_bounds[bit] = stopped_bounds[stand]
        limit = {LIMIT_NONE: None, LIMIT_NODES: "nodes", LIMIT_TIME: "time", LIMIT_CANCELLED: "cancelled"}[c.aborted]
        return {
            "values": result_values,
            "nodes": c.nodes,
            "stats": {"claims": c.claims, "probes": c.probes, "hits": c.hits, "cuts": c.cuts, "passes": c.passes,
                      "shape_hits": c.shape_hits, "shape_cuts": c.shape_cuts,
                      # per root move, in the order searched: (bit, nodes, passes, MTD(f) guess)
                      "moves": [(moves[i], move_nodes[i], move_passes[i], guesses[i]) for i in range(n) if solved[i]]},
            "limit": limit,
            "line": [line[i] for i in range(line_len)],
            "line_scores": [line_scores[i] for i in range(self.tables.n_sides)] if line_len else None,
            "best": best_bit if not c.aborted else None,
            "best_moves": sorted(best_moves),
            "worse": worse_bounds,
            # the move a limit stopped in: the bounds its finished tests proved (None: none)
            "stopped": stopped_bounds,
            "value": best if not c.aborted and best_bit >= 0 else None,
            # the cards merged with an equivalent one at the root, and the card that stood for
            # each: one play (verify's unique_play)
            "merged": merged,
        }

    cdef void _load(self, dict spec) except *:
        """Fill the tables; keep the transposition table if nothing it relies on changed."""
        cdef Tables* t = &self.tables
        cdef int i, j
        # the tables' arrays hold MAX_SEATS seats: a spec made by hand must not pass them
        if not 1 <= spec["n_players"] <= MAX_SEATS or not 1 <= spec["n_sides"] <= MAX_SEATS:
            raise ValueError(f"engine: at most {MAX_SEATS} seats and sides")
        signature = spec["signature"]
        if signature != self.signature:
            self._park()
            self._new_generation()
            self.signature = signature
        if signature == self.loaded_signature:
            # the same rules, objective and levers as a call before: its tables (a
            # copy, as a search may leave a lever changed, e.g. for estimates)
            memcpy(t, &self.loaded_tables, sizeof(Tables))
            return
        self.loaded_signature = None
        memset(t, 0, sizeof(Tables))
        t.n_players = spec["n_players"]
        for i in range(2 * MAX_SEATS):
            t.seat_at[i] = i % t.n_players
        t.n_sides = spec["n_sides"]
        for i in range(t.n_players):
            t.side_of[i] = spec["side_of"][i]
        t.max_side = spec["max_side"]
        for i in range(t.n_sides):
            t.weight[i] = spec["weight"][i]
        t.weight_max = max(spec["weight"][:t.n_sides])
        t.weight_min = min(spec["weight"][:t.n_sides])
        t.settle = spec["settle"]
        t.nat_side = spec.get("nat_side", 0)
        t.nat_on_tie = spec.get("nat_on_tie", 0)
        t.rule = spec["rule"]
        t.trump_group = spec["trump_group"]
        t.buur_exception = spec["buur_exception"]
        t.buur_bit = spec["buur_bit"]
        for i in range(MAX_GROUPS):
            t.group_mask[i] = 0
        for i in range(MAX_BITS):
            t.group_of[i] = -1
        for bit, group in spec["group_of"].items():
            t.group_of[bit] = group
            t.group_mask[group] |= <uint64_t>1 << bit
        for bit, pts in spec["points"].items():
            t.points[bit] = pts
            t.lead_key[bit] = 1000 + (bit % GROUP_WIDTH) * 16 + pts  # strongest first
        t.per_trick_bonus = spec["per_trick_bonus"]
        t.last_trick_bonus = spec["last_trick_bonus"]
        t.sweep_bonus = spec["sweep_bonus"]
        t.total_tricks = spec["total_tricks"]
        # an estimate's leaf, per tricks left (solver/leaf.py); two sides only
        rows = spec.get("leaf_weights") or ()
        if len(rows) > MAX_LEAF_ROWS or (rows and t.n_sides != 2):
            raise ValueError(f"engine: leaf weights for at most {MAX_LEAF_ROWS} tricks, and two sides")
        t.leaf_rows = len(rows)
        for i in range(LEAF_CHUNKS):  # each set from the set without its lowest card (t.points is filled)
            t.chunk_points[i][0] = 0
            for j in range(1, 64):
                t.chunk_points[i][j] = t.chunk_points[i][j & (j - 1)] + t.points[6 * i + lowest_bit(j)]
        for i, row in enumerate(rows):
            if len(row) != LEAF_FEATURES:
                raise ValueError(f"engine: leaf weights of {LEAF_FEATURES} features")
            for j in range(LEAF_FEATURES):
                t.leaf_weights[i][j] = row[j]
        t.roem = spec["roem"]
        t.merge_equivalent = spec.get("merge_equivalent", 1)
        t.prune_dominated = spec.get("prune_dominated", 1)
        t.lead_mobility = spec.get("lead_mobility", 1)
        t.roem_free_levers = t.roem and spec.get("roem_free_levers", 1)
        t.bound_cuts = spec.get("bound_cuts", 1)
        # a position whose end is forced, settled at once (in one process against
        # the build before, total time ratios: the leader's claim 0.976 to 0.994 on
        # 40 deals, nodes -1 to -4%; the camp's then Bassadewitz 0.940, nodes -9%,
        # the others 0.972 to 1.017 on 60)
        t.claims = spec.get("claims", 1)
        t.null_window_root = spec.get("null_window_root", 1)
        # root moves best first by how the current trick ends (mean nodes on 50
        # deals: analyse -2 to -4%, hint belote -13%, Rotterdam -7%; worse where
        # the static lead order is better: Jass one trick in, hint +11%, analyse
        # +4%; Putz +2%, Bassadewitz +5%)
        t.root_order = spec.get("root_order", int(t.n_sides == 2 and t.rule != RULE_JASS))
        # inside a trick, the card that last cut off in the same context first
        # (trick_killer_slot; 100 deals, mean nodes: Amsterdam -28%, Rotterdam -23%,
        # belote -18%, Klaberjass4 -20%, Putz -7%, Bassadewitz -3%; Jass -32% on 20)
        t.trick_killers = spec.get("trick_killers", 1)
        # at a lead, among those leaving as few replies, the lead that last cut off
        # after the same trick (100 deals, mean nodes: Amsterdam, Rotterdam,
        # belote, Klaberjass4 -3 to -5%, time ratios 0.97 to 0.99; Jass -5% on
        # 16; Putz and Bassadewitz unchanged)
        t.lead_killers = spec.get("lead_killers", 1)
        t.bounds_first = spec.get("bounds_first", 1)
        t.nat_ceiling = spec.get("nat_ceiling", 1)
        t.nat_roem_bound = spec.get("nat_roem_bound", 1)
        t.made_guess = spec.get("made_guess", 1)
        t.plan_guess = spec.get("plan_guess", 1)
        # a step objective's line of best play stays in the region of the best
        # move's value (one objective value there) instead of first making that
        # value exact (klaberjass4, 30 deals: mean nodes -15%, median -50%)
        t.plan_line = spec.get("plan_line", 1)
        # Klaverjas, a root move whose guess is a made contract's: an MTD(f) of the
        # raw difference from it kept to the made values, no made test first
        # (30 deals: mean nodes rotterdam -6%, amsterdam -4%)
        t.made_fold = spec.get("made_fold", 1)
        # Klaverjas, a guess that is a nat: an MTD(f) of the settlement itself, no
        # made test first (30 deals: mean nodes -1%; 50 deals: median -3% to -4%)
        t.nat_fold = spec.get("nat_fold", 1)
        t.nat_grid = 0
        if spec.get("nat_grid", 1) and t.settle == SETTLE_NAT and spec["roem"]:
            # a trick's roem (runs of 20 and 50, the stuk 20, four of a kind) and the pit
            t.nat_grid = math.gcd(20, 50, t.sweep_bonus, *spec["four_of_a_kind"].values())
        # a step plan's guess in the exact region: an MTD(f) kept to that region
        # instead of the test at the step first (klaberjass4: mean nodes -4%)
        t.plan_fold = spec.get("plan_fold", 1)
        t.roem_last_card = spec.get("roem_last_card", 1)
        # two sides: a card's value is guessed from its group's last (measured: fewer
        # nodes in belote and jass, more in the three-player games)
        t.suit_guess = spec.get("suit_guess", int(t.n_sides == 2))
        # two sides only: in the paranoid games the caution is misplaced (the analysed
        # seat's card that does not win now never wins, so the trick is the
        # coalition's; the coalition rarely takes a trick from the analysed seat):
        # Bassadewitz mean nodes -58%, median -50% on 20 deals; Putz: no effect
        t.cautious_smear = spec.get("cautious_smear", int(t.n_sides == 2))
        t.endgame_tricks = spec.get("endgame_tricks", 2)
        # positions of the same shape share bounds: belote nodes -75%, Bassadewitz
        # -76%, Putz -52% (12 deals); Klaverjas -26% to -42% (16 deals)
        t.shape_table = spec.get("shape_table", 1)
        # sets of four entries where many positions share a shape (Klaverjas, Putz:
        # mean nodes -15 to -20%, time -4 to -16%); elsewhere the second cache line
        # costs more than the entries give (belote +4%, Klaberjass +7%)
        t.shape_set = spec.get("shape_set", 4 if t.roem or (t.n_sides > 2 and t.weight[t.max_side] > 0) else 2)
        if t.shape_set not in (2, 4):
            raise ValueError("engine_options: shape_set must be 2 or 4")
        # with this many tricks left or fewer, the shape table alone (40 deals, median
        # time ratio to the main table everywhere: belote 0.80, Klaberjass 0.82,
        # Bassadewitz 0.81 at 5; Putz 0.93 to 0.95 at 5 with sets of four).  Klaverjas
        # had 4 (Rotterdam) and 3 (Amsterdam) until the trick killers; since them, 5
        # there too (200 deals: median time ratio 0.981 and 0.959, nodes +0 and +2%)
        t.shape_alone_tricks = spec.get("shape_alone_tricks", 5)
        # Bassadewitz (the analysed seat avoiding points), whose first guesses are
        # often far off: windows of 6 points either side (50 deals: mean nodes
        # -16%, total time -15%, median -10%); worse in Putz and Jass, no gain elsewhere
        t.mtdf_window = spec.get("mtdf_window", 6 if t.n_sides > 2 and t.weight[t.max_side] < 0 else 0)
        # Jass and Putz for three; off in Putz for five, against four (mean nodes off:
        # -25% on 12 deals where seat 0 scores, -32% on 40 others; for three, +6% on
        # 200 deals)
        t.trump_order = spec.get("trump_order", int(t.rule == RULE_JASS and t.n_sides < 5))
        t.safe_smear = spec.get("safe_smear", int(t.rule == RULE_JASS))
        # Putz: the coalition leads trumps first (mean nodes -5%, median -8%; for
        # the analysed seat too: median +33%; in Bassadewitz: mean +13%)
        t.coalition_trump_leads = spec.get("coalition_trump_leads", int(t.rule == RULE_JASS and t.n_sides > 2))
        # Putz: trump leads first for the analysed seat too (50 deals: mean nodes
        # -15%, median -11%); Bassadewitz: its Jacks last (20 deals: mean -1%, median -13%)
        t.own_trump_leads = spec.get("own_trump_leads", int(t.n_sides > 2))
        if spec.get("trump_leads", int(t.rule == RULE_JASS and t.n_sides == 2)) and t.trump_group >= 0:
            # Jass: trump leads first (mean nodes -26% after one trick; worse in Putz
            # and Bassadewitz, so two sides only)
            for bit in range(MAX_BITS):
                if t.group_of[bit] == t.trump_group:
                    t.lead_key[bit] += 500
        t.plan = spec.get("plan", 0)
        t.plan_low = spec.get("plan_low", 0)
        t.plan_high = spec.get("plan_high", 0)
        t.plan_exact = spec.get("plan_exact", 0)
        # Putz: the coalition's last card onto its own winner, richest first (mean
        # nodes -3%, median -4% on 50 deals; CPU time within noise, total -4%)
        t.coalition_smear = spec.get("coalition_smear", int(t.n_sides > 2 and t.weight[t.max_side] > 0))
        # on a trick worth at most MASTER_DUCK_POINTS that an opponent is winning, a
        # master trump worth 14 or more (the Jack, the Nine) comes after the cards that
        # do not take the trick: kept for a richer one.  Putz (40 deals): mean nodes
        # -7%, median unchanged, time ratio 0.98; Klaberjass (60 deals): mean -6%,
        # median -13%, time ratio 0.97 to 0.99.  Klaverjas Amsterdam +1%, belote -2%,
        # Jass one trick in -1%: off there (solver.compile sets it on by game)
        t.master_duck = spec.get("master_duck", 0)
        # Putz: a coalition card that takes the trick (the trick is then the coalition's),
        # richest first: points the coalition takes can no longer reach the analysed
        # seat (40 deals: mean nodes -24%, median -29%; with master_duck -30%, time
        # ratio 0.82).  Bassadewitz, where the analysed seat avoids points: +25%
        t.coalition_rich_wins = spec.get("coalition_rich_wins", int(t.n_sides > 2 and t.weight[t.max_side] > 0))
        # Putz: among them, a coalition trump over a plain card comes 2000 lower: after
        # the winners of the suit led and the cheap cards onto a coalition winner
        # (found with benchmarks.cut_counts; 150 deals: mean nodes -5.6%, median -3.8%,
        # time ratio 0.934)
        t.coalition_ruffs_late = spec.get("coalition_ruffs_late", t.coalition_rich_wins)
        # a master trump's points are safe (nothing can take it), so where rich cards
        # come first (onto or as a good winner) it orders as a card without points, kept
        # for later.  Klaberjass (30 deals): mean nodes -16%, median -17%; belote -6%
        # (median +2%), Amsterdam -9% (median +6%), Jass one trick in -4%, Rotterdam and
        # Putz within 3%: on in Klaberjass (solver.compile sets it by game)
        t.safe_master_points = spec.get("safe_master_points", 0)
        # Jass (found by counting, per kind of node, which card cut off when the first
        # did not): second hand tries a trump on an opponent's plain lead after the
        # cards that do not take the trick (its partner plays last, and the third hand
        # may overtrump); the last hand, its partner winning, tries the cards that do
        # not take the trick first (the points are the side's either way, and the
        # winner is kept).  30 deals, both: mean nodes -20%, median -25%, total time
        # -22%; one trick in (40): -11%.  The 32-card games: worse or no change
        is_jass = t.rule == RULE_JASS and t.n_sides == 2
        t.second_ruffs_late = spec.get("second_ruffs_late", int(is_jass))
        t.last_keeps_winners = spec.get("last_keeps_winners", int(is_jass))
        self._key_layout(spec)
        self._shape_layout()
        self._rank_points()
        # Jass and Putz (the Ten below the Jack, King and Queen): the margins pair
        # each seat's run of cards by points (60 deals: mean nodes -10% in both, total
        # time -9%; Jass's 200 deals: median time -8%); elsewhere the points follow
        # the ranks and nothing changes
        t.run_margins = spec.get("run_margins", 1) and t.rank_lanes and not t.roem and self._points_out_of_rank()
        # nat entries carry the rest of the shape and the generation above the
        # second shape word's 40 bits (nat_shape_tag)
        t.nat_shapes = spec.get("nat_shapes", 1) and t.n_shape_groups > 0 and all(
            t.shape_word[g] == 0 or t.shape_offset[g] + _dense_code_bits(t.n_players, popcount(t.group_mask[g])) <= 40
            for g in range(t.n_shape_groups))
        for i in range(t.n_sides):
            if t.weight[i] > 0:
                t.has_gain = 1
            if t.weight[i] < 0:
                t.has_loss = 1
            t.order_weight[i] = t.weight[i]
        if t.n_sides > 2 and spec.get("camp_order", int(t.n_sides < 5)):
            # paranoid: a point a coalition seat takes is one the analysed seat cannot
            # take (Putz) or need not (Bassadewitz), so the analysed seat orders its
            # cards as against one opponent (Bassadewitz: rich discards onto a
            # coalition winner first, nodes -12%).  For the coalition itself this
            # was worse in Putz (median nodes +14%), so it keeps the plain weights.
            # Against four (Putz for five), off: with trump_order off, mean nodes
            # -49% on 40 deals and -11% on 40 others (Putz for three: +11%)
            for i in range(t.n_sides):
                t.order_weight[i] = t.weight[t.max_side] * (1 if i == t.max_side else -1)
        if t.roem:
            for i in range(32):
                t.roem_card[i // 8][i % 8] = -1
            for bit, (suit, place, rank) in spec["roem_cards"].items():
                t.roem_suit[bit] = suit
                t.roem_place[bit] = place
                t.rank_of[bit] = rank
                t.roem_card[suit][place] = bit
                t.roem_place_bit[bit] = 1 << (8 * suit + place)
                t.rank_mask[rank] |= <uint64_t>1 << bit
            for rank, value in spec["four_of_a_kind"].items():
                t.four_of_a_kind[rank] = value
            t.stuk_mask = spec["stuk_mask"]
            # the sets of cards that make roem when they fall in one trick: the stuk,
            # four of a kind, three in a row of a suit
            sets = [t.stuk_mask] if t.stuk_mask else []
            sets += [t.rank_mask[r] for r in range(16) if t.four_of_a_kind[r] and t.rank_mask[r]]
            for suit in range(4):
                for place in range(6):
                    run = [t.roem_card[suit][place + k] for k in range(3)]
                    if min(run) >= 0:
                        sets.append(sum(1 << b for b in run))
            t.n_roem_sets = len(sets)
            for i, m in enumerate(sets):
                t.roem_sets[i] = m
                # the most it adds to a trick's roem: the stuk 20, four of a kind
                # its value, a run of three 25 (alone 20; a run of four, 50, holds two)
                if m == t.stuk_mask:
                    t.roem_set_value[i] = 20
                elif bin(m).count("1") == 4:
                    t.roem_set_value[i] = t.four_of_a_kind[t.rank_of[(m & -m).bit_length() - 1]]
                else:
                    t.roem_set_value[i] = 25
                for bit in range(MAX_BITS):
                    if (m >> bit) & 1:
                        t.roem_sets_of[bit] |= <uint64_t>1 << i
        memcpy(&self.loaded_tables, t, sizeof(Tables))
        self.loaded_signature = signature

    cdef void _key_layout(self, dict spec) except *:
        """Where each part of a position goes in the packed table key (Entry)."""
        cdef Tables* t = &self.tables
        cdef int i
        deck = 0
        for bit in spec["group_of"]:
            deck |= 1 << bit
        n = t.n_players
        nat_bits = 24 if t.settle == SETTLE_NAT else 0
        width = bin(deck).count("1")
        t.n_raw_pieces = _fill_pieces(deck, t.raw_mask, t.raw_shift)
        # relative ranks: the runs' codes take sum(n^k, k <= L) values for L cards
        segments = spec.get("zero_segments", [])
        runs = 0
        for m in segments:
            runs |= m
        boundary = bin(deck & ~runs).count("1")
        codes = [_dense_code_bits(n, bin(m).count("1")) for m in segments]
        t.relative_ranks = (
            spec.get("relative_ranks", 1) and bool(segments) and not t.roem and len(segments) <= MAX_SEGMENTS
            and all(bin(m).count("1") <= 6 and (m >> _low_bit(m)) + 1 == 1 << bin(m).count("1") for m in segments)
            and boundary + sum(codes) + nat_bits <= 64
        )
        t.n_segments = 0
        if t.relative_ranks:
            t.n_boundary_pieces = _fill_pieces(deck & ~runs, t.boundary_mask, t.boundary_shift)
            t.n_segments = len(segments)
            offset = boundary
            for i, m in enumerate(segments):
                t.segment_mask[i] = m
                t.segment_shift[i] = _low_bit(m)
                t.segment_offset[i] = offset
                offset += codes[i]
            width = max(width, offset)
        t.totals_offset = width
        if width + nat_bits > 64 or t.n_sides > 5 or n > 8 or t.total_tricks > 15:
            raise ValueError("engine: this game's positions do not fit the table key")

    cdef void _segment_codes(self):
        """For make_key: a dense code of each subset of each run of zero-point cards
        and the owners of its cards (dense_code)."""
        cdef Tables* t = &self.tables
        cdef int i, idx, length
        for i in range(t.n_segments):
            length = popcount(t.segment_mask[i])
            for idx in range(1 << length):
                t.segment_code[i][idx] = dense_code(t, t.segment_shift[i], length, idx)

    cdef void _shape_layout(self):
        """Where each group's shape code goes in the two shape words; no shapes if
        a group is not a run of at most 9 bits from its base or the codes do not fit."""
        cdef Tables* t = &self.tables
        cdef int g
        n = t.n_players
        t.n_shape_groups = 0
        word, offset, used = 0, 0, 0
        for g in range(MAX_GROUPS):
            m = t.group_mask[g] >> (g * GROUP_WIDTH)
            if m == 0:
                t.shape_word[g] = 0
                t.shape_offset[g] = 0
                continue
            length = bin(m).count("1")
            width = _dense_code_bits(n, length)
            if m + 1 != 1 << length or length > 9 or width > 32:
                return
            if offset + width > 64:
                word, offset = word + 1, 0
                if word > 1:
                    return
            t.shape_word[g] = word
            t.shape_offset[g] = offset
            offset += width
            used = g + 1
        t.n_shape_groups = used

    cdef void _rank_points(self):
        """rank_points for shape_margins, if every lane sum fits 7 bits."""
        cdef Tables* t = &self.tables
        cdef int g, idx, length, bit, lane
        cdef uint64_t v
        points = [t.points[bit] for bit in range(MAX_BITS)]
        # lanes_above needs each card below 64; the summed lanes must stay below 128
        t.rank_lanes = int(t.n_shape_groups > 0 and min(points) >= 0 and max(points) < 64
                           and max(points) * t.n_shape_groups < 128)
        if not t.rank_lanes:
            return
        for g in range(t.n_shape_groups):
            length = popcount(t.group_mask[g])
            for idx in range(1 << length):
                v = 0
                lane = 0
                for bit in range(length - 1, -1, -1):
                    if (idx >> bit) & 1:
                        v |= <uint64_t>t.points[g * GROUP_WIDTH + bit] << (7 * lane)
                        lane += 1
                t.rank_points[g][idx] = v

    cdef bint _points_out_of_rank(self):
        """Whether some group has a card worth more than a card ranking above it."""
        cdef Tables* t = &self.tables
        cdef int g, bit, length, most
        for g in range(t.n_shape_groups):
            length = popcount(t.group_mask[g])
            most = -1
            for bit in range(length):  # from the lowest rank up
                if t.points[g * GROUP_WIDTH + bit] < most:
                    return True
                most = max(most, t.points[g * GROUP_WIDTH + bit])
        return False

    cdef void _shape_codes(self):
        """For shape_of: per group and subset of its cards in play, a dense code of
        the subset and its cards' owners (dense_code)."""
        cdef Tables* t = &self.tables
        cdef int g, idx, length
        for g in range(t.n_shape_groups):
            length = popcount(t.group_mask[g])
            for idx in range(1 << length):
                t.shape_code[g][idx] = dense_code(t, g * GROUP_WIDTH, length, idx)

    cdef bint _seen_in_distinct_hands(self, uint64_t cards, uint64_t trick_cards):
        """Whether every one of `cards` was seen in a hand in this generation or is on
        the trick, no two of them held by one seat (so they can fall in one trick)."""
        cdef int seen = 0, b, owner
        while cards:
            b = lowest_bit(cards)
            cards &= cards - 1
            owner = self.tables.owner[b] if (trick_cards >> b) & 1 else self.owner[b]
            if owner < 0 or seen & (1 << owner):
                return False
            seen |= 1 << owner
        return True

    cdef void _load_state(self, State* s, dict spec) except *:
        cdef int i, seat, bit
        cdef int owner[MAX_BITS]
        cdef Undo u
        cdef Ctx tmp
        memset(s, 0, sizeof(State))
        hands = spec["hands"]
        for seat in range(self.tables.n_players):
            for bit in hands[seat]:
                s.hands[seat] |= <uint64_t>1 << bit
        self._spec_owners(spec, owner)
        if not owners_agree(self.owner, owner):  # another deal: the table's entries would lie
            self._park()
            self._new_generation()
        if self.generation_unused:
            self._resume(owner)
        self.generation_unused = False
        for seat in range(self.tables.n_players):
            for bit in hands[seat]:
                if self.owner[bit] != seat:
                    self.run_points_ready = False
                self.owner[bit] = seat
                self.tables.owner[bit] = seat
                s.in_hands |= <uint64_t>1 << bit
        self._segment_codes()
        self._shape_codes()
        if self.tables.run_margins:
            # by the owners of every card seen in this generation: the stored
            # entries' cards too, some of them played since
            if not self.run_points_ready:
                fill_run_points(&self.tables, self.owner, self.run_points)
                self.run_points_ready = True
            memcpy(self.tables.rank_points, self.run_points, sizeof(self.run_points))
        s.leader = spec["leader"]
        s.win_bit = -1
        s.top_trump = -1
        s.tricks_left = spec["tricks_left"]
        for seat in range(self.tables.n_players):
            for bit in hands[seat]:
                s.points_left += self.tables.points[bit]
        for bit in spec["trick"]:  # the replay below takes these off again
            s.points_left += self.tables.points[bit]
        for i in range(self.tables.n_sides):
            s.scores[i] = spec["scores"][i]
            s.tricks[i] = spec["tricks"][i]
        if self.tables.settle == SETTLE_NAT:
            # the key keeps both totals in 12 bits each: whatever can still be scored
            # (cards, bonuses, at most 200 roem a trick) must fit
            reach = s.points_left + self.tables.last_trick_bonus + self.tables.sweep_bonus + 200 * s.tricks_left
            if min(spec["scores"]) < 0 or max(spec["scores"]) + reach >= 4096:
                raise ValueError("scored: totals too large for the engine's table key")
        # replay the cards already on the trick to set the winner and top trump
        tmp.t = &self.tables
        tmp.s = s[0]
        for bit in spec["trick"]:
            seat = (tmp.s.leader + tmp.s.trick_len) % self.tables.n_players
            tmp.s.hands[seat] |= <uint64_t>1 << bit
            self.tables.owner[bit] = seat  # who played it (_seen_in_distinct_hands)
            play(&tmp, bit, &u)
        s[0] = tmp.s
        # the roem sets whose cards are in different hands: the others can never
        # fall in one trick in this deal (owners are fixed once dealt); of them, those
        # whose cards are all still in play are live (State.live_roem).  Judged by
        # the owners of every card seen in this generation, not only those in play:
        # same_roem must weigh every set that can fall in a stored entry's position,
        # and entries outlive the call that stored them (a set with a card played
        # before this call is no candidate by this call's cards alone)
        self.tables.roem_candidates = 0
        for i in range(self.tables.n_roem_sets):
            if self._seen_in_distinct_hands(self.tables.roem_sets[i], s.trick_cards):
                self.tables.roem_candidates |= <uint64_t>1 << i
                if ((s.in_hands | s.trick_cards) & self.tables.roem_sets[i]) == self.tables.roem_sets[i]:
                    s.live_roem |= <uint64_t>1 << i
