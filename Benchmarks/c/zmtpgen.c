// zmtpgen: mixgen's open-loop load (same arguments, mix file and report line; see mixgen.c), but
// speaking ZMTP 3.1 over plain TCP itself, without libzmq, and waking once per tick (1 ms): it
// sends what is due, one write per connection, and reads the replies that came meanwhile. The
// design of `svcctl stress`'s ZMTP load threads, in C: the floor its CPU per request is compared
// with (Benchmarks/stress-cost.sh). Only tcp://HOST:PORT endpoints with a numeric IPv4 HOST or
// localhost; the NULL mechanism (no CURVE).
//
// usage: zmtpgen RATE SECONDS MIXFILE [DRAIN_SECONDS]
// Build: cc -O2 -o zmtpgen zmtpgen.c
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include "mix.h"

static int fds[MAX_SOCKETS];
static unsigned char *inbound[MAX_SOCKETS], *outbound[MAX_SOCKETS];
static size_t in_len[MAX_SOCKETS], out_len[MAX_SOCKETS];
#define BUFFER_SIZE (1 << 20)

static void fail(const char *what, const char *endpoint) { fprintf(stderr, "zmtpgen: %s: %s: %s\n", endpoint, what, strerror(errno)); exit(2); }

static void read_exactly(int fd, unsigned char *b, size_t n, const char *endpoint) {
    for (size_t o = 0; o < n;) {
        ssize_t r = read(fd, b + o, n - o);
        if (r <= 0) fail("handshake", endpoint);
        o += r;
    }
}

// Connects and greets as a DEALER (the signature and major version first, as libzmq does).
static int connect_zmtp(const char *endpoint) {
    char host[256]; int port;
    if (sscanf(endpoint, "tcp://%255[^:]:%d", host, &port) != 2) { fprintf(stderr, "zmtpgen: not tcp://HOST:PORT: %s\n", endpoint); exit(2); }
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
    if (inet_pton(AF_INET, strcmp(host, "localhost") ? host : "127.0.0.1", &a.sin_addr) != 1) { fprintf(stderr, "zmtpgen: not an IPv4 address: %s\n", host); exit(2); }
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a)) fail("connect", endpoint);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    unsigned char greeting[64] = { 0xff, 0, 0, 0, 0, 0, 0, 0, 1, 0x7f, 3, 1, 'N', 'U', 'L', 'L' }, peer[64];
    if (write(fd, greeting, 11) != 11) fail("greeting", endpoint);
    read_exactly(fd, peer, 64, endpoint);
    if (memcmp(peer + 12, "NULL", 5)) { fprintf(stderr, "zmtpgen: %s asks for another mechanism than NULL\n", endpoint); exit(2); }
    unsigned char rest[53 + 64];
    memcpy(rest, greeting + 11, 53);
    size_t o = 53;
    static const char ready[] = "\5READY\13Socket-Type\0\0\0\6DEALER";
    rest[o++] = 4; rest[o++] = sizeof ready - 1;
    memcpy(rest + o, ready, sizeof ready - 1); o += sizeof ready - 1;
    if (write(fd, rest, o) != (ssize_t)o) fail("greeting", endpoint);
    unsigned char header[2], body[256];
    read_exactly(fd, header, 2, endpoint);
    read_exactly(fd, body, header[1], endpoint);
    if (header[0] != 4 || memcmp(body, "\5READY", 6)) { fprintf(stderr, "zmtpgen: %s did not answer READY\n", endpoint); exit(2); }
    fcntl(fd, F_SETFL, O_NONBLOCK);
    return fd;
}

static void append_frame(int s, int flags, const void *body, size_t len) {
    unsigned char *o = outbound[s] + out_len[s];
    if (len < 256) { *o++ = flags; *o++ = len; }
    else { *o++ = flags | 2; for (int i = 7; i >= 0; i--) *o++ = (len >> (8 * i)) & 0xff; }
    memcpy(o, body, len);
    out_len[s] = o + len - outbound[s];
}

static void flush(int s) {
    size_t done = 0;
    while (done < out_len[s]) {
        ssize_t w = send(fds[s], outbound[s] + done, out_len[s] - done, MSG_NOSIGNAL);
        if (w < 0 && errno == EAGAIN) { struct pollfd p = { fds[s], POLLOUT, 0 }; poll(&p, 1, 10); continue; }
        if (w <= 0) fail("send", endpoints[s]);
        done += w;
    }
    out_len[s] = 0;
}

// Reads what came on connection s; counts each reply, answers PINGs.
static void receive(int s, struct tally *tally, long sent, double at) {
    for (;;) {
        ssize_t r = recv(fds[s], inbound[s] + in_len[s], BUFFER_SIZE - in_len[s], 0);
        if (r == 0 || (r < 0 && errno != EAGAIN)) fail("receive", endpoints[s]);
        if (r < 0) break;
        in_len[s] += r;
        if (in_len[s] < BUFFER_SIZE) break;
    }
    size_t p = 0;
    for (;;) {
        if (in_len[s] - p < 2) break;
        unsigned char flags = inbound[s][p];
        size_t header = 2, len = inbound[s][p + 1];
        if (flags & 2) {
            if (in_len[s] - p < 9) break;
            len = 0;
            for (int b = 0; b < 8; b++) len = len << 8 | inbound[s][p + 1 + b];
            header = 9;
        }
        if (len > BUFFER_SIZE - 9) { fprintf(stderr, "zmtpgen: a frame of %zu bytes\n", len); exit(2); }
        if (in_len[s] - p < header + len) break;
        const unsigned char *body = inbound[s] + p + header;
        p += header + len;
        if (flags & 4) {
            if (len >= 7 && !memcmp(body, "\4PING", 5)) {
                unsigned char pong[5 + 16] = { 4, 'P', 'O', 'N', 'G' };
                size_t context = len - 7 > 16 ? 16 : len - 7;
                memcpy(pong + 5, body + 7, context);
                append_frame(s, 4, pong, 5 + context);
                flush(s);
            }
            continue;
        }
        if (len) tally_reply(tally, (const char *)body, len, sent, at);
    }
    memmove(inbound[s], inbound[s] + p, in_len[s] - p);
    in_len[s] -= p;
}

int main(int argc, char **argv) {
    struct run run = parse_run(argc, argv, "zmtpgen");
    double rate = run.rate, seconds = run.seconds, drain = run.drain;
    long total = run.total;
    struct pollfd polled[MAX_SOCKETS];
    for (int s = 0; s < socket_count; s++) {
        fds[s] = connect_zmtp(endpoints[s]);
        inbound[s] = malloc(BUFFER_SIZE);
        outbound[s] = malloc(BUFFER_SIZE);
        polled[s] = (struct pollfd){ fds[s], POLLIN, 0 };
    }
    struct tally tally;
    tally_init(&tally, total);
    static char body[65536];
    long sent = 0;
    const double tick = 0.001;
    double cpu0 = cpu_seconds(), start = now() + 0.2, end_of_sends = start + seconds, wake = start;
    while (tally.got < total) {
        struct timespec until = { (time_t)wake, (long)((wake - (time_t)wake) * 1e9) };
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR) {}
        double t = now();
        wake = t + tick;
        while (sent < total && start + sent / rate <= t) {
            const struct kind *k = pick();
            tally.due[sent] = start + sent / rate;
            size_t len = fill(body, sizeof body, k->payload, sent);
            if (out_len[k->socket] + len + 20 > BUFFER_SIZE) flush(k->socket);
            append_frame(k->socket, 1, "", 0);
            append_frame(k->socket, 0, body, len);
            sent++;
        }
        for (int s = 0; s < socket_count; s++) if (out_len[s]) flush(s);
        if (sent == total && t > end_of_sends + drain) break;
        if (poll(polled, socket_count, 0) <= 0) continue;
        double at = now();
        for (int s = 0; s < socket_count; s++) if (polled[s].revents) receive(s, &tally, sent, at);
    }
    tally_print(&tally, rate, sent, total, cpu_seconds() - cpu0, seconds);
    return 0;
}
