#pragma once
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity and CPU_COUNT */
#endif
#include <sched.h>
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it. */
static inline sqlite3_destructor_type latchkey_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/* How many CPUs this process may run on (its affinity mask, as `taskset` sets it), which
   sizes the pool of reader connections; 0 when the mask cannot be read. Glibc declares
   sched_getaffinity and CPU_COUNT only under _GNU_SOURCE, which Swift's Glibc module lacks. */
static inline int latchkey_sqlite_usable_cpus(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
    return CPU_COUNT(&set);
}
