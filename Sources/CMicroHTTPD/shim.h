#pragma once
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdint.h>
#include <stdarg.h>
#include <microhttpd.h>

/// The MHD_OPTION_URI_LOG_CALLBACK signature: called once per request with the raw
/// request target; its result becomes the request's `con_cls`.
typedef void *(*latchkey_mhd_request_started)(void *cls, const char *uri,
                                              struct MHD_Connection *connection);

/// MHD_start_daemon is variadic; this passes the fixed option list Latchkey uses. The
/// daemon has no listening socket of its own (connections come in through
/// MHD_add_connection); `thread_pool_size` event threads (1: a single one). With a
/// certificate (NUL-terminated PEM), the daemon speaks TLS with that certificate, `tls_key`
/// and the GnuTLS priority string `tls_priorities`; with NULL, plain HTTP.
static inline struct MHD_Daemon *latchkey_mhd_start_daemon(
    unsigned int flags, unsigned int thread_pool_size,
    MHD_AccessHandlerCallback access_handler,
    latchkey_mhd_request_started request_started,
    MHD_RequestCompletedCallback request_completed,
    MHD_NotifyConnectionCallback connection_notified, void *context,
    unsigned int connection_limit, unsigned int connection_timeout_seconds,
    size_t connection_memory_limit,
    const char *tls_certificate, const char *tls_key, const char *tls_priorities)
{
    struct MHD_OptionItem tls_options[] = {
        { MHD_OPTION_HTTPS_MEM_CERT, 0, (void *) tls_certificate },
        { MHD_OPTION_HTTPS_MEM_KEY, 0, (void *) tls_key },
        { MHD_OPTION_HTTPS_PRIORITIES, 0, (void *) tls_priorities },
        { MHD_OPTION_END, 0, NULL },
    };
    struct MHD_OptionItem no_options[] = { { MHD_OPTION_END, 0, NULL } };
    if (tls_certificate != NULL) {
        flags |= MHD_USE_TLS;
    }
    return MHD_start_daemon(
        flags, 0, NULL, NULL, access_handler, context,
        MHD_OPTION_ARRAY, tls_certificate != NULL ? tls_options : no_options,
        MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
        MHD_OPTION_URI_LOG_CALLBACK, request_started, context,
        MHD_OPTION_NOTIFY_COMPLETED, request_completed, context,
        MHD_OPTION_NOTIFY_CONNECTION, connection_notified, context,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
        MHD_OPTION_END);
}

/// The socket descriptor of a connection, or -1.
static inline int latchkey_mhd_connection_descriptor(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The socket context (the pointer set in the connection-started notification), or NULL.
static inline void *latchkey_mhd_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}
