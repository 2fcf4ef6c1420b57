# The engine's C layout.  Cards are bits of a uint64: bit = group * GROUP_WIDTH +
# strength, so the cards of one group are contiguous and a higher bit is a stronger
# card of that group.  Everything the search reads about a game is in `Tables`.

from libc.stdint cimport int8_t, int16_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    GROUP_WIDTH = 12
    MAX_GROUPS = 5
    MAX_SEATS = 5
    MAX_BITS = 64
    PARKED_DEALS = 32            # deals an engine keeps for later while it serves others (the service: 1.62 -> 1.25 times one client's nodes with 16 clients on 2 workers, against 8)
    MAX_SEGMENTS = 16
    MAX_PIECES = 24
    INF = 30000
    LEAF_FEATURES = 8            # solver/leaf.py's FEATURES
    MAX_LEAF_ROWS = 16           # tricks left 0 to 15
    LEAF_SCALE = 64              # solver/leaf_weights.py's
    LEAF_CHUNKS = 10             # a card set's points are summed six bits at a time (2 per group)

# play rules (solver/games/base.py has the same numbers)
cdef enum:
    RULE_FREE = 0
    RULE_JASS = 1
    RULE_ROTTERDAM = 2
    RULE_AMSTERDAM = 3
    RULE_KLAVERJAS_SEED = 4
    RULE_BELOTE = 5

# how the value of a finished deal is computed
cdef enum:
    SETTLE_ADDITIVE = 0   # sum of weight[side] * score[side]
    SETTLE_NAT = 1        # Klaverjas nat: a non-additive function of both totals

cdef struct Tables:
    int n_players
    int seat_at[2 * MAX_SEATS]   # seat_at[leader + k]: who plays the k-th card
    int side_of[MAX_SEATS]
    int n_sides
    int max_side                 # the analysed side: its seats maximise
    int weight[MAX_SEATS]        # per side, for SETTLE_ADDITIVE
    int settle
    int nat_side                 # SETTLE_NAT: the declaring side
    int nat_on_tie
    int rule
    int trump_group              # -1: no trump
    int buur_exception
    int buur_bit                 # the trump Jack's bit, -1 if none
    uint64_t group_mask[MAX_GROUPS]
    int8_t group_of[MAX_BITS]
    int16_t points[MAX_BITS]
    int lead_key[MAX_BITS]       # order of leads without a table move
    int per_trick_bonus
    int last_trick_bonus
    int sweep_bonus
    int total_tricks
    int roem                     # Klaverjas roem on
    int8_t roem_suit[MAX_BITS]
    int8_t roem_place[MAX_BITS]
    int8_t rank_of[MAX_BITS]
    int16_t four_of_a_kind[16]   # per rank
    uint64_t stuk_mask           # trump King and Queen
    int roem_card[4][8]          # the card at each suit and run place, -1 if none
    uint64_t rank_mask[16]       # the four cards of each rank
    int n_roem_sets
    uint64_t roem_sets[64]       # card sets that make roem in one trick
    uint64_t roem_sets_of[MAX_BITS]  # per card: the roem sets it is in (indices as bits)
    uint64_t roem_candidates     # the roem sets whose cards are in different hands
    int merge_equivalent         # adjacent equal cards may be searched as one
    int prune_dominated          # in a trick whose taking side is certain, one card of each run
    int lead_mobility            # leads: those leaving the other sides the fewest replies first
    int weight_max               # the highest and lowest of Tables.weight
    int weight_min
    int bound_cuts               # cut-offs from the points still available
    int claims                   # a camp whose cards no one else can beat takes every trick left (camp_claims)
    int null_window_root         # root moves valued by null-window searches (MTD(f))
    int trick_killers            # inside a trick, first the card that last cut off in the same context
    int lead_killers             # among leads leaving as few replies, first the one that last cut off after the same trick
    int bounds_first             # bound cut-offs before the table probe
    int suit_guess               # MTD(f) guess for a root card: the last of its group
    int cautious_smear           # no rich card onto a partner's winner before the last seat
    int endgame_tricks           # this many tricks left or fewer: plain search below the table
    int roem_free_levers         # roem games: bound cuts, no roem checks once no roem can come
    int nat_ceiling              # nat: a window beyond every nat outcome is a raw search
    int nat_roem_bound           # nat: cut-offs from a bound on the roem still to come
    int16_t roem_set_value[64]   # the most each roem set adds to a trick's roem
    int made_guess               # nat: a made contract's MTD(f) starts from the root's guess
    uint32_t roem_place_bit[MAX_BITS]  # 1 << (8 * suit + place in the suit's runs)
    int plan_guess               # plan: an exact value's MTD(f) starts from the root's guess
    int plan_line                # plan: the line follows the best's region, not its exact value
    int made_fold                # nat: a made guess starts an MTD(f) kept to the made region
    int plan_fold                # plan: a guess in the exact region starts an MTD(f) kept to it
    int nat_fold                 # nat: a nat guess starts an MTD(f) of the settlement, no made test
    int nat_grid                 # nat: the step of the roem still to come (10); its MTD(f)s test only values a settlement can take (0: off)
    int roem_last_card           # the last card of a trick ordered by its points and roem
    # When the objective is a step function of the value (yes/no objectives,
    # Klaberjass bate), a root move needs only null-window tests at the steps
    # plan_low <= plan_high, and an exact value only in one region:
    # 0 none, 1 below plan_low, 2 at or above plan_high.  plan = 0: always exact.
    int plan
    int plan_low
    int plan_high
    int plan_exact
    # Relative ranks: at a trick boundary, the zero-point cards still in play of each
    # run of zero-point cards are keyed only by how many there are and who holds
    # them; positions that differ only in which of them were played meet.
    int relative_ranks
    int n_segments
    uint64_t segment_mask[MAX_SEGMENTS]
    int8_t segment_shift[MAX_SEGMENTS]     # the run's lowest bit
    int8_t segment_offset[MAX_SEGMENTS]    # where its code goes in the packed key
    uint32_t segment_code[MAX_SEGMENTS][64]  # per run and subset in play: a dense code
    # The packed key: the cards of a trick boundary as `boundary_pieces` (the cards
    # outside the runs, squeezed together) then the runs' codes; inside a trick (or
    # with relative ranks off) as `raw_pieces` (every card).  Inside a trick the key is
    # not exact (the cards in hands do not tell the trick's from those played before):
    # the table is stored to only at trick boundaries, and `trick_len` in the key keeps
    # a probe inside a trick from meeting their entries.
    # A piece is a contiguous block of bits: (cards & mask) >> shift.
    int n_boundary_pieces
    uint64_t boundary_mask[MAX_PIECES]
    int8_t boundary_shift[MAX_PIECES]
    int n_raw_pieces
    uint64_t raw_mask[MAX_PIECES]
    int8_t raw_shift[MAX_PIECES]
    int totals_offset            # SETTLE_NAT: both sides' totals, 12 bits each, from here
    int8_t owner[MAX_BITS]       # the seat holding each card in this deal (or that played it)
    int has_gain                 # some side's points count for the analysed side
    int has_loss                 # some side's points count against it
    int trump_order              # Jass: ruffs over a partner last, over an opponent cheapest first
    int safe_smear               # cautious_smear only while the partner's card can be beaten
    int coalition_trump_leads    # Putz: the coalition's trump leads first
    int root_order               # root moves ordered by how the current trick ends
    int coalition_smear          # Putz: the coalition's last card onto its own winner richest first
    int master_duck              # a master Jack or Nine of trumps kept from a cheap trick an opponent is winning
    int coalition_rich_wins      # Putz: a coalition card that takes the trick, richest first
    int coalition_ruffs_late     # Putz: among those, a trump over a plain card lower (after the suit's winners)
    int safe_master_points       # a master trump's points are safe: among rich cards it orders as pointless
    int own_trump_leads          # paranoid games: the analysed seat's trump leads first (wants points) or last
    int second_ruffs_late        # Jass: second hand's trumps on an opponent's plain lead after the cards that do not take it
    int last_keeps_winners       # Jass: the last hand's cards that take its partner's trick after those that do not
    int order_weight[MAX_SEATS]  # per side, how the analysed side's ordering sees a winner
    int mtdf_window              # MTD(f) tests as windows this much either side of the test value (0: null windows)
    int nat_shapes               # nat: bounds between positions of one shape through the order of their totals (NatEntry)
    int shape_table              # positions of the same shape share bounds (ShapeEntry)
    int shape_set                # entries per set of the shape table: 2 or 4
    int shape_alone_tricks       # this many tricks left or fewer: the shape table alone, no main-table probe
    # A shape: per group, which of its cards are in play and who holds them, by rank
    int n_shape_groups           # 0: this game's shapes do not fit two words
    int8_t shape_word[MAX_GROUPS]
    int8_t shape_offset[MAX_GROUPS]
    uint32_t shape_code[MAX_GROUPS][512]
    # for shape_margins: per group and subset of its cards, their points by rank, the
    # highest first, in 7-bit lanes (lanes_above); rank_lanes 0: the plain loop instead
    int rank_lanes
    uint64_t rank_points[MAX_GROUPS][512]
    # run_margins: within each run of one seat (its cards adjacent by rank among the
    # cards in play), rank_points lists the points sorted, not by rank (per deal:
    # Engine.run_points); on where some group's points do not follow its ranks
    int run_margins
    # an estimate's leaf (leaf_rest); last, away from what every search reads
    int leaf_rows                # an estimate's leaf: rows of leaf_weights, per tricks left (0: the rest shared evenly)
    int leaf_weights[MAX_LEAF_ROWS][LEAF_FEATURES]  # solver/leaf.py's weights, in 1/LEAF_SCALE
    int16_t chunk_points[LEAF_CHUNKS][64]  # the points of each set of six bits' cards (held_points)


# A transposition-table entry, 16 bytes (four to a cache line):
# | key u64 | lower i16 | upper i16 | key_hi u16 | move u8 | generation u8 |
# The key is exact, packed by make_key: `key` the cards (and, when values are not
# additive, both sides' totals); `key_hi` tricks left (top 4 bits, also the entry's
# depth for replacement), leader, cards on the trick, the absolute-values flag, and
# which sides have taken a trick.
cdef struct Entry:
    uint64_t key
    int16_t lower
    int16_t upper
    uint16_t key_hi
    uint8_t move
    uint8_t generation


# A shape-table entry, 32 bytes, in sets of 2 or 4 (Tables.shape_set; newest first):
# bounds on the value of the position `cards` (relative to the score so far),
# usable, widened by a margin, for every position of the same shape (`shape`,
# `shape2`, `hi`; see shape_of, shape_hi).
# A nat shape entry, 32 bytes, in the shape table's sets (Klaverjas `score`):
# bounds on a nat search's value (for the side searched) at the position `cards`
# with the totals so far `diff` and `sum` (see nat_bounds), usable for positions of
# the same shape; the second shape word carries the rest of the shape and the
# generation in its high bits (nat_shape_tag).
cdef struct NatEntry:
    uint64_t shape
    uint64_t shape2
    uint64_t cards
    int16_t lower
    int16_t upper
    int16_t diff                 # the declarers' total minus the defenders'
    int16_t sum                  # both totals and the points still in play

cdef struct ShapeEntry:
    uint64_t shape
    uint64_t shape2
    uint64_t cards
    int16_t lower
    int16_t upper
    uint16_t hi
    uint8_t generation
    uint8_t pad
