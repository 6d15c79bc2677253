#pragma once
#include <libpq-fe.h>

/* PG_DIAG_* are character-literal macros, which Swift cannot import. */
static inline int latchkey_pg_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int latchkey_pg_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }
