// reply_srv: a ROUTER that answers every request with the same reply body, read from a file:
// the raw libzmq limit for a use case whose reply is that size (routing frames kept, the body
// replaced). Feed it a real reply of the use case (capture one with call_once.c).
//
// usage: reply_srv ENDPOINT REPLY_FILE      (ENDPOINT may use port *: the bound address is
//        printed on stdout, like echo_curve)
// Build: cc -O2 -o reply_srv reply_srv.c -lzmq
#include <zmq.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: reply_srv ENDPOINT REPLY_FILE\n"); return 2; }
    FILE *f = fopen(argv[2], "rb");
    if (!f) { perror("reply file"); return 2; }
    static char body[1 << 20];
    size_t n = fread(body, 1, sizeof body, f);
    fclose(f);
    void *ctx = zmq_ctx_new(), *s = zmq_socket(ctx, ZMQ_ROUTER);
    int hwm = 0;
    zmq_setsockopt(s, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(s, ZMQ_RCVHWM, &hwm, sizeof hwm);
    if (zmq_bind(s, argv[1])) { perror("bind"); return 1; }
    char bound[256]; size_t bound_len = sizeof bound;
    zmq_getsockopt(s, ZMQ_LAST_ENDPOINT, bound, &bound_len);
    printf("%s\n", bound);
    fflush(stdout);
    zmq_msg_t m;
    for (;;) {
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, s, 0) < 0) break;
        if (zmq_msg_more(&m)) { zmq_msg_send(&m, s, ZMQ_SNDMORE); continue; }
        zmq_msg_close(&m);
        zmq_send(s, body, n, 0);
    }
    return 0;
}
