/* Zeroed memory for a transposition table, in huge pages where the system gives
   them.  Every probe lands on a random cache line; with 4 KB pages most probes of
   a table of megabytes also miss the TLB and pay a page walk (dearer still under a
   hypervisor).  Aligned to a cache line at least, so a bucket is one line. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void* table_memory(size_t size) {
    void* mem = NULL;
    size_t huge = (size_t)2 << 20;
    if (posix_memalign(&mem, size >= huge ? huge : 64, size) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (size >= huge)
        madvise(mem, size, MADV_HUGEPAGE);
#endif
    memset(mem, 0, size);
    return mem;
}
