#pragma once
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it. */
static inline sqlite3_destructor_type latchkey_sqlite_transient(void) { return SQLITE_TRANSIENT; }
