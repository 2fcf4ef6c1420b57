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

/* ---- zeroed memory for a transposition table, freed by table_free ----
   In huge pages where the system gives them: every probe lands on a random cache
   line; with 4 KB pages most probes of a table of megabytes also miss the TLB and
   pay a page walk (dearer still under a hypervisor).  Aligned to a cache line at
   least, so a bucket is one line. */
#ifdef _WIN32
#include <malloc.h>
static void* table_memory(size_t size) {
    void* mem = _aligned_malloc(size, 64);
    if (mem != NULL)
        memset(mem, 0, size);
    return mem;
}
static void table_free(void* mem) { _aligned_free(mem); }
#else
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
static void table_free(void* mem) { free(mem); }
#endif

#endif
