#pragma once
#include <signal.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/time.h>
#include <time.h>
#include <poll.h>
#include <hiredis/hiredis.h>

/// Sends one command and reads its reply, as redisCommandArgv does, but tells whether the
/// command was written whole: `*written` is 0 when the write failed (the command never reached
/// Redis in full, so Redis cannot have run it), 1 once every byte was handed to the kernel
/// (after which a failure leaves it unknown whether Redis ran it).
///
/// hiredis writes with write(2), which raises SIGPIPE when Redis has closed the
/// connection (a restart). SIGPIPE is blocked on the calling thread for the call, and one
/// raised by it is consumed before the mask is restored, so the process is not killed
/// and no global signal disposition changes.
static inline redisReply *latchkey_redis_exchange(
    redisContext *context, int argc, const char **argv, const size_t *argvlen, int *written)
{
    sigset_t pipe_only, previous, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);

    redisReply *reply = NULL;
    *written = 0;
    if (redisAppendCommandArgv(context, argc, argv, argvlen) == REDIS_OK) {
        int done = 0;
        while (!done && redisBufferWrite(context, &done) == REDIS_OK) {}
        if (done) {
            *written = 1;
            void *received = NULL;
            if (redisGetReply(context, &received) == REDIS_OK) reply = received;
        }
    }

    if (!was_pending) {
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE)) {
            struct timespec no_wait = {0, 0};
            sigtimedwait(&pipe_only, NULL, &no_wait);
        }
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return reply;
}

/// Whether Redis sent something or closed the connection while it sat idle (a readable
/// socket, a hang-up or an error): a connection that must not carry the next command.
static inline int latchkey_redis_idle_connection_stirred(const redisContext *context)
{
    struct pollfd poller = {context->fd, POLLIN, 0};
    return poll(&poller, 1, 0) != 0;
}

/// The context's error message (valid while the context lives).
static inline const char *latchkey_redis_error_text(const redisContext *context)
{
    return context->errstr;
}

/// The reader's error message (valid while the reader lives).
static inline const char *latchkey_redis_reader_error(const redisReader *reader)
{
    return reader->errstr;
}
