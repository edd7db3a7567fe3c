// call_once: sends one request body to a ROUTER endpoint from a DEALER and writes the reply body
// to stdout, byte for byte (what echo_curve is fed as its reply file). Exits 1 without a reply within 10 s.
//
// usage: call_once ENDPOINT BODY
// Build: cc -O2 -o call_once call_once.c -lzmq
#include <zmq.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: call_once ENDPOINT BODY\n"); return 2; }
    void *ctx = zmq_ctx_new(), *s = zmq_socket(ctx, ZMQ_DEALER);
    int zero = 0, timeout = 10000;
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    zmq_setsockopt(s, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    if (zmq_connect(s, argv[1])) { perror("connect"); return 2; }
    zmq_send(s, "", 0, ZMQ_SNDMORE);
    zmq_send(s, argv[2], strlen(argv[2]), 0);
    static char reply[1 << 20];
    if (zmq_recv(s, reply, sizeof reply, 0) < 0) { fprintf(stderr, "no reply\n"); return 1; }
    int n = zmq_recv(s, reply, sizeof reply, 0);
    if (n < 0) { fprintf(stderr, "no reply\n"); return 1; }
    fwrite(reply, 1, n > (int)sizeof reply ? sizeof reply : (size_t)n, stdout);
    return 0;
}
