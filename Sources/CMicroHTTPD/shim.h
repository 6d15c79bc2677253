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

/// MHD_start_daemon is variadic; this passes the fixed option list Latchkey uses.
/// The port comes from `address` (port 0 lets the kernel choose). With a certificate
/// (NUL-terminated PEM), the daemon speaks TLS with that certificate, `tls_key` and the
/// GnuTLS priority string `tls_priorities`; with NULL, plain HTTP.
static inline struct MHD_Daemon *latchkey_mhd_start_daemon(
    unsigned int flags, const struct sockaddr *address,
    MHD_AccessHandlerCallback access_handler,
    latchkey_mhd_request_started request_started,
    MHD_RequestCompletedCallback request_completed, void *context,
    unsigned int connection_limit, unsigned int per_ip_connection_limit,
    unsigned int connection_timeout_seconds, size_t connection_memory_limit,
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
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_URI_LOG_CALLBACK, request_started, context,
        MHD_OPTION_NOTIFY_COMPLETED, request_completed, context,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
        MHD_OPTION_END);
}

/// The port the daemon is bound to (the real one when 0 was asked for), or 0.
static inline uint16_t latchkey_mhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// The TCP peer's address of a connection, or NULL.
static inline const struct sockaddr *latchkey_mhd_peer_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}
