// loadgen_curve: a DEALER that keeps W requests in flight against a ROUTER endpoint and prints
// "rt_per_s p50_us p99_us bad" (percentiles only when W == 1), in plaintext or as a CURVE
// client: a minimal libzmq load client (a 200-request warm-up, then one send per reply) with
// the CURVE client set-up below as an option.
//
// usage: loadgen_curve ENDPOINT N W PAYLOAD [MUST_CONTAIN]
//   {{n}} in PAYLOAD becomes a sequence number; a reply without MUST_CONTAIN counts as bad.
//   With CURVE_SERVERKEY (the server's public key, Z85) in the environment the socket is a
//   CURVE client; its own pair comes from CURVE_PUBLICKEY and CURVE_SECRETKEY, or is
//   generated fresh when those are unset (enough for a server without ZAP, such as echo_curve).
// Build: cc -O2 -o loadgen_curve loadgen_curve.c -lzmq
#include <zmq.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
// Fills buf with the payload, every "{{n}}" replaced by seq; returns the length.
static size_t fill(char *buf, const char *payload, long seq) {
    size_t o = 0; char num[32]; int nl = snprintf(num, sizeof num, "%ld", seq);
    for (const char *p = payload; *p;) {
        if (p[0] == '{' && p[1] == '{' && p[2] == 'n' && p[3] == '}' && p[4] == '}') { memcpy(buf + o, num, nl); o += nl; p += 5; }
        else buf[o++] = *p++;
    }
    return o;
}
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }

// Makes s a CURVE client when CURVE_SERVERKEY is set; 0 on success (or plaintext).
static int curve_client(void *s) {
    const char *server = getenv("CURVE_SERVERKEY");
    if (!server || !*server) return 0;
    const char *pub = getenv("CURVE_PUBLICKEY"), *sec = getenv("CURVE_SECRETKEY");
    char fresh_pub[41], fresh_sec[41];
    if (!pub || !*pub || !sec || !*sec) {
        if (zmq_curve_keypair(fresh_pub, fresh_sec)) { perror("zmq_curve_keypair"); return -1; }
        pub = fresh_pub; sec = fresh_sec;
    }
    if (strlen(server) != 40 || strlen(pub) != 40 || strlen(sec) != 40) { fprintf(stderr, "CURVE keys must be 40 Z85 characters\n"); return -1; }
    if (zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, server, 40) || zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, pub, 40)
        || zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, sec, 40)) { perror("CURVE options"); return -1; }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: loadgen_curve ENDPOINT N W PAYLOAD [MUST_CONTAIN]\n"); return 2; }
    const char *ep = argv[1]; int n = atoi(argv[2]), w = atoi(argv[3]); const char *payload = argv[4];
    const char *must = argc > 5 ? argv[5] : NULL; static char pb[65536]; long seq = (long)getpid() * 1000000L;
    if (n < 1 || w < 1 || strlen(payload) > 16000) { fprintf(stderr, "N and W must be at least 1, PAYLOAD at most 16000 bytes\n"); return 2; }
    void *ctx = zmq_ctx_new(), *s = zmq_socket(ctx, ZMQ_DEALER);
    int zero = 0, tmo = 10000; zmq_setsockopt(s, ZMQ_SNDHWM, &zero, sizeof zero); zmq_setsockopt(s, ZMQ_RCVHWM, &zero, sizeof zero);
    zmq_setsockopt(s, ZMQ_RCVTIMEO, &tmo, sizeof tmo); zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    if (curve_client(s)) return 2;
    if (zmq_connect(s, ep)) { perror("connect"); return 2; }
    static char rb[1 << 20];
    double *lat = w == 1 ? malloc(sizeof(double) * n) : NULL, *sent_at = malloc(sizeof(double) * (n + 1));
    for (int i = 0; i < 200; i++) {
        zmq_send(s, "", 0, ZMQ_SNDMORE); zmq_send(s, pb, fill(pb, payload, seq++), 0);
        if (zmq_recv(s, rb, sizeof rb, 0) < 0 || zmq_recv(s, rb, sizeof rb, 0) < 0) { fprintf(stderr, "no reply during warm-up (CURVE handshake refused?)\n"); return 1; }
    }
    int sent = 0, got = 0, bad = 0; double t0 = now();
    while (sent < w && sent < n) { sent_at[sent] = now(); zmq_send(s, "", 0, ZMQ_SNDMORE); zmq_send(s, pb, fill(pb, payload, seq++), 0); sent++; }
    while (got < n) {
        if (zmq_recv(s, rb, sizeof rb, 0) < 0) { fprintf(stderr, "timeout after %d replies\n", got); return 1; }
        int m = zmq_recv(s, rb, sizeof rb - 1, 0); if (m < 0) { fprintf(stderr, "timeout\n"); return 1; }
        rb[m < (int)sizeof rb - 1 ? m : (int)sizeof rb - 1] = 0;
        if (must && !strstr(rb, must)) bad++;
        if (lat) lat[got] = now() - sent_at[got];
        got++;
        if (sent < n) { sent_at[sent] = now(); zmq_send(s, "", 0, ZMQ_SNDMORE); zmq_send(s, pb, fill(pb, payload, seq++), 0); sent++; }
    }
    double dt = now() - t0;
    if (lat) { qsort(lat, n, sizeof(double), cmp); printf("%.0f %.1f %.1f %d\n", n / dt, lat[n / 2] * 1e6, lat[(int)(n * 0.99)] * 1e6, bad); }
    else printf("%.0f 0 0 %d\n", n / dt, bad);
    return bad ? 1 : 0;
}
