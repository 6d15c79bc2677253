#pragma once
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it. */
static inline sqlite3_destructor_type latchkey_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __linux__
/* sync_file_range(2), declared here: Swift's Glibc module is built without _GNU_SOURCE. */
extern int sync_file_range(int fd, __off64_t offset, __off64_t nbytes, unsigned int flags);
#endif

/*
 * The writer's WAL hook, in place of SQLite's default one (which checkpoints once a commit
 * leaves the WAL at `checkpoint_frames` or more, and does the same here). Besides, it asks
 * the kernel to start writing the frames committed since it last did, 64 frames or more at a
 * time (sync_file_range with SYNC_FILE_RANGE_WRITE: it starts the writes and waits for
 * none). The checkpoint's sync of the WAL then finds most of it written, instead of
 * writing 4 MiB while every writer waits. Durability is unchanged: the checkpoint still
 * syncs the WAL and the database file as before; this only moves the WAL's writing earlier.
 * (Linux only; elsewhere the hook only checkpoints.) The file descriptor it opens on the WAL
 * is read-only, never read, and closed with the connection.
 */
typedef struct latchkey_wal_writeback {
    char *wal_path;
    int fd;
    long long frame_size;
    int started_through;
    int checkpoint_frames;
} latchkey_wal_writeback;

/* A writeback state for the database at `path` with pages of `page_size` bytes; NULL if out of memory. */
static inline latchkey_wal_writeback *latchkey_wal_writeback_new(const char *path, int page_size, int checkpoint_frames) {
    latchkey_wal_writeback *state = calloc(1, sizeof *state);
    if (state == NULL) return NULL;
    size_t length = strlen(path);
    state->wal_path = malloc(length + 5);
    if (state->wal_path == NULL) { free(state); return NULL; }
    memcpy(state->wal_path, path, length);
    memcpy(state->wal_path + length, "-wal", 5);
    state->fd = -1;
    state->frame_size = 24 + (long long)page_size;
    state->checkpoint_frames = checkpoint_frames;
    return state;
}

static inline void latchkey_wal_writeback_free(latchkey_wal_writeback *state) {
    if (state == NULL) return;
    if (state->fd >= 0) close(state->fd);
    free(state->wal_path);
    free(state);
}

static inline int latchkey_wal_hook(void *context, sqlite3 *db, const char *name, int frames) {
    latchkey_wal_writeback *state = context;
    if (frames < state->started_through) state->started_through = 0; /* the WAL started again */
#ifdef __linux__
    if (frames - state->started_through >= 64) {
        /* The WAL exists once a commit wrote it; it stays while the database is open. */
        if (state->fd < 0) state->fd = open(state->wal_path, O_RDONLY | O_CLOEXEC);
        if (state->fd >= 0) {
            (void)sync_file_range(state->fd, 32 + state->started_through * state->frame_size,
                                  (frames - state->started_through) * state->frame_size, 2 /* SYNC_FILE_RANGE_WRITE */);
        }
        state->started_through = frames;
    }
#endif
    if (frames >= state->checkpoint_frames) (void)sqlite3_wal_checkpoint(db, name);
    return SQLITE_OK;
}

/* Installs the hook above on `db`'s writer connection. */
static inline void latchkey_install_wal_hook(sqlite3 *db, latchkey_wal_writeback *state) {
    sqlite3_wal_hook(db, latchkey_wal_hook, state);
}
