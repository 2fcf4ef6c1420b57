/* What the engines need from the compiler and the system, in one place, so that
   they build with gcc and clang (Linux, macOS) and with MSVC (Windows):
   bit scans and counts, a cache prefetch, a monotonic clock, and the tables'
   memory.  PLIS_MS_INTRINSICS=1 builds the MSVC branch of the bit operations
   with clang -fms-extensions, so it can be tested where MSVC is not. */
#ifndef PLIS_NATIVE_H
#define PLIS_NATIVE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(_MSC_VER) && !defined(__clang__) && !defined(PLIS_MS_INTRINSICS)
#define PLIS_MS_INTRINSICS 1
#endif

/* ---- bits of a 64-bit card set (ctz and clz: x must not be 0) ---- */
#if PLIS_MS_INTRINSICS
#ifdef _WIN32
#include <intrin.h>
typedef unsigned long plis_index;
#else /* the test build, clang -fms-extensions on Linux: there long has 64 bits */
typedef unsigned int plis_index;
unsigned char _BitScanForward64(plis_index* index, unsigned long long mask);
unsigned char _BitScanReverse64(plis_index* index, unsigned long long mask);
#endif
static __inline int plis_ctz(uint64_t x) {
    plis_index i;
    _BitScanForward64(&i, x);
    return (int)i;
}
static __inline int plis_clz(uint64_t x) {
    plis_index i;
    _BitScanReverse64(&i, x);
    return 63 - (int)i;
}
#if defined(_M_X64) || defined(_M_AMD64) || defined(__x86_64__)
/* POPCNT: every x86-64 processor since 2008, as the gcc build's -mpopcnt assumes */
static __inline int plis_popcount(uint64_t x) { return (int)__popcnt64(x); }
#include <xmmintrin.h>
#define plis_prefetch(p) _mm_prefetch((const char*)(p), _MM_HINT_T0)
#else
static __inline int plis_popcount(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#define plis_prefetch(p) ((void)(p))
#endif
#else
#define plis_ctz(x) __builtin_ctzll(x)
#define plis_clz(x) __builtin_clzll(x)
#define plis_popcount(x) __builtin_popcountll(x)
#define plis_prefetch(p) __builtin_prefetch(p)
#endif

/* ---- seconds on a monotonic clock, for the time limits ---- */
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
static double plis_now(void) {
    LARGE_INTEGER count, frequency;
    QueryPerformanceCounter(&count);
    QueryPerformanceFrequency(&frequency);
    return (double)count.QuadPart / (double)frequency.QuadPart;
}
#else
#include <time.h>
static double plis_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
#endif

/* ---- zeroed memory for a transposition table, freed by table_free (with its size) ----
   In huge pages where the system gives them: every probe lands on a random cache
   line; with 4 KB pages most probes of a table of megabytes also miss the TLB and
   pay a page walk (dearer still under a hypervisor).  Aligned to a cache line at
   least, so a bucket is one line.  Zeroed here, not on first touch, so that a
   search never pays for the pages (an engine is set up before its first call). */
#ifdef _WIN32
#include <malloc.h>
static void* table_memory(size_t size) {
    void* mem = _aligned_malloc(size, 64);
    if (mem != NULL)
        memset(mem, 0, size);
    return mem;
}
static void table_free(void* mem, size_t size) {
    (void)size;
    _aligned_free(mem);
}
#else
#include <sys/mman.h>
#include <unistd.h>
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif
#define PLIS_HUGE_PAGE ((size_t)2 << 20)
/* A table of 2 MB or more is a mapping of its own, so that freeing it gives it back to
   the system (from malloc, glibc kept such blocks in the thread's arena after the
   engine was gone), aligned to 2 MB for huge pages. */
static size_t plis_mapped_size(size_t size) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (size + page - 1) / page * page;
}
static void* table_memory(size_t size) {
    if (size < PLIS_HUGE_PAGE) {
        void* mem = NULL;
        if (posix_memalign(&mem, 64, size) != 0)
            return NULL;
        memset(mem, 0, size);
        return mem;
    }
    size_t mapped = plis_mapped_size(size);
    size_t span = mapped + PLIS_HUGE_PAGE;  /* room to start on a 2 MB boundary */
    char* raw = (char*)mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == (char*)MAP_FAILED)
        return NULL;
    char* start = (char*)(((uintptr_t)raw + PLIS_HUGE_PAGE - 1) & ~(uintptr_t)(PLIS_HUGE_PAGE - 1));
    if (start > raw)
        munmap(raw, (size_t)(start - raw));
    if (raw + span > start + mapped)
        munmap(start + mapped, (size_t)(raw + span - (start + mapped)));
#ifdef MADV_HUGEPAGE
    madvise(start, mapped, MADV_HUGEPAGE);
#endif
    memset(start, 0, size);  /* the pages, taken now (the mapping's zeros come on first touch) */
    return start;
}
static void table_free(void* mem, size_t size) {
    if (mem == NULL)
        return;
    if (size < PLIS_HUGE_PAGE)
        free(mem);
    else
        munmap(mem, plis_mapped_size(size));
}
#endif

#endif
