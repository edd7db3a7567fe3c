// echo_curve: a ROUTER that sends every multipart message straight back, in plaintext or as a
// CURVE server: the plain libzmq echo (the same loop and socket options as a minimal ROUTER echo)
// with CURVE as an option, so the two security settings run the same code.
//
// usage: echo_curve ENDPOINT       binds ENDPOINT (e.g. tcp://127.0.0.1:*), prints the bound
//                                  address on stdout, then echoes until killed. With the
//                                  environment variable CURVE_SECRETKEY (Z85, 40 characters)
//                                  the socket is a CURVE server with that key; there is no ZAP
//                                  handler, so every client key is admitted.
//        echo_curve ENDPOINT REPLY_FILE   the same, but answers every request with the body
//                                  read from REPLY_FILE (routing frames kept, the last frame
//                                  replaced): the limit for a use case whose reply is larger
//                                  than its request (feed it a real reply, see call_once.c).
//        echo_curve --keypair      prints a fresh CURVE key pair: "PUBLIC SECRET" (Z85).
// Build: cc -O2 -o echo_curve echo_curve.c -lzmq
#include <zmq.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) { fprintf(stderr, "usage: echo_curve ENDPOINT [REPLY_FILE] | echo_curve --keypair\n"); return 2; }
    if (strcmp(argv[1], "--keypair") == 0) {
        char pub[41], sec[41];
        if (zmq_curve_keypair(pub, sec)) { perror("zmq_curve_keypair"); return 1; }
        printf("%s %s\n", pub, sec);
        return 0;
    }
    static char reply[1 << 20];
    size_t reply_size = 0;
    if (argc == 3) {
        FILE *f = fopen(argv[2], "rb");
        if (!f) { perror("reply file"); return 2; }
        reply_size = fread(reply, 1, sizeof reply, f);
        fclose(f);
    }
    void *ctx = zmq_ctx_new(), *s = zmq_socket(ctx, ZMQ_ROUTER);
    int hwm = 0, one = 1;
    zmq_setsockopt(s, ZMQ_SNDHWM, &hwm, sizeof hwm);
    zmq_setsockopt(s, ZMQ_RCVHWM, &hwm, sizeof hwm);
    const char *secret = getenv("CURVE_SECRETKEY");
    if (secret && *secret) {
        if (strlen(secret) != 40) { fprintf(stderr, "CURVE_SECRETKEY must be 40 Z85 characters\n"); return 2; }
        if (zmq_setsockopt(s, ZMQ_CURVE_SERVER, &one, sizeof one) || zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, secret, 40)) {
            perror("CURVE options"); return 1;
        }
    }
    if (zmq_bind(s, argv[1])) { perror("bind"); return 1; }
    char bound[256]; size_t size = sizeof bound;
    zmq_getsockopt(s, ZMQ_LAST_ENDPOINT, bound, &size);
    printf("%s\n", bound);
    fflush(stdout);
    zmq_msg_t m;
    for (;;) {
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, s, 0) < 0) break;
        int more = zmq_msg_more(&m);
        if (!more && argc == 3) {
            zmq_msg_close(&m);
            zmq_send(s, reply, reply_size, 0);
            continue;
        }
        zmq_msg_send(&m, s, more ? ZMQ_SNDMORE : 0);
    }
    return 0;
}
