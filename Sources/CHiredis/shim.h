#pragma once
#include <signal.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/time.h>
#include <time.h>
#include <hiredis/hiredis.h>

/// redisCommand is variadic; this is redisCommandArgv typed to return the reply.
///
/// hiredis writes with write(2), which raises SIGPIPE when Redis has closed the
/// connection (a restart). SIGPIPE is blocked on the calling thread for the call, and one
/// raised by it is consumed before the mask is restored, so the process is not killed
/// and no global signal disposition changes.
static inline redisReply *latchkey_redis_command(
    redisContext *context, int argc, const char **argv, const size_t *argvlen)
{
    sigset_t pipe_only, previous, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);

    redisReply *reply = redisCommandArgv(context, argc, argv, argvlen);

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
