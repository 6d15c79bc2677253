/* The ceiling for bench/run.py: a bare libmicrohttpd server answering every request with a
 * fixed 200 JSON "hello", in one of two threading modes:
 *   epoll   one internal thread multiplexing every connection with epoll (the ceiling)
 *   thread  a thread per connection with poll, for reference
 * Usage: hello_mhd PORT epoll|thread (runs until killed). */
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static enum MHD_Result answer(void *context, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **state)
{
    (void)context; (void)url; (void)method; (void)version; (void)upload_data;
    if (*state == NULL) {
        *state = connection;
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    static const char body[] = "{\"hello\":true}";
    struct MHD_Response *response = MHD_create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "Content-Type", "application/json");
    enum MHD_Result result = MHD_queue_response(connection, 200, response);
    MHD_destroy_response(response);
    return result;
}

int main(int argc, char **argv)
{
    unsigned int flags;
    if (argc == 3 && strcmp(argv[2], "epoll") == 0) {
        flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL;
    } else if (argc == 3 && strcmp(argv[2], "thread") == 0) {
        flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL;
    } else {
        fprintf(stderr, "usage: %s PORT epoll|thread\n", argv[0]);
        return 2;
    }
    struct MHD_Daemon *daemon = MHD_start_daemon(
        flags, (uint16_t)atoi(argv[1]), NULL, NULL, answer, NULL,
        MHD_OPTION_CONNECTION_LIMIT, 10000U, MHD_OPTION_CONNECTION_TIMEOUT, 30U, MHD_OPTION_END);
    if (daemon == NULL) {
        perror("MHD_start_daemon");
        return 1;
    }
    for (;;) pause();
}
