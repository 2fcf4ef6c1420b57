# cython: language_level=3
"""The step both engines take after each child of a node (fail-soft alpha-beta)."""


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
