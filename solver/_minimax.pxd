# cython: language_level=3
"""What both engines share: the step after each child of a node (fail-soft
alpha-beta), and the sort of the moves by their keys."""


cdef inline bint fold_child(int v, bint maximising, int* best, int* alpha, int* beta) noexcept nogil:
    """Fold a child's value `v` into the node's best value and its window; true when
    `v` is the new best (the caller remembers the move)."""
    if maximising:
        if v > best[0]:
            best[0] = v
            if v > alpha[0]:
                alpha[0] = v
            return True
    elif v < best[0]:
        best[0] = v
        if v < beta[0]:
            beta[0] = v
        return True
    return False


cdef inline void sort_by_key(int* moves, int* keys, int n) noexcept nogil:
    """Sort `moves` by `keys`, highest first; stable (insertion sort: a few moves)."""
    cdef int i, j, m, k
    for i in range(1, n):
        m = moves[i]
        k = keys[i]
        j = i - 1
        while j >= 0 and keys[j] < k:
            moves[j + 1] = moves[j]
            keys[j + 1] = keys[j]
            j -= 1
        moves[j + 1] = m
        keys[j + 1] = k
