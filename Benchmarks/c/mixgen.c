// mixgen: an open-loop load of a weighted mix of requests over DEALER sockets, one thread, for
// the mix curve (Benchmarks/mix-curve.sh). Request i is due at start + i / RATE whatever the
// replies do (open loop); its latency runs from that intended send time, so a client that falls
// behind, or a server that queues, shows in the percentiles instead of slowing the offered rate.
//
// usage: mixgen RATE SECONDS MIXFILE [DRAIN_SECONDS]
//   MIXFILE: one line per kind of request, "WEIGHT<TAB>ENDPOINT<TAB>PAYLOAD"; lines naming the
//   same ENDPOINT share one DEALER. In PAYLOAD, {{n}} becomes the request's sequence number
//   (also its "id"), {{r}} a random sample restaurant id (r-000001…r-000300), {{u}} a random
//   sample user id (u-000001…u-000060), {{m}} a random sample menu item (m-000001…m-001300),
//   {{k}} a token unique to this request across runs (process id and sequence number).
//   PAYLOAD must carry "id":"{{n}}" so replies can be matched.
// prints one line:
//   offered_per_s sent ok refused other missing p50_ms p99_ms max_ms gen_cpu_s seconds
//   refused_p99_ms refused_max_ms
//   where refused counts `overloaded` replies, other every other error (business rules, not
//   found, …: answered, not refused), missing the requests unanswered DRAIN_SECONDS (10) after the
//   last send; p50/p99/max are over the answered requests that were not refused, refused_p99 and
//   refused_max over the refused ones (how long a refusal kept its caller waiting).
// Build: cc -O2 -o mixgen mixgen.c -lzmq
#include <zmq.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#define MAX_KINDS 64
#define MAX_SOCKETS 64

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static double cpu_seconds(void) {
    struct rusage u; getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec * 1e-6;
}
static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static unsigned long long next_random(void) { // splitmix64
    unsigned long long z = (rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL; z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }

struct kind { double weight; int socket; char *payload; };
static struct kind kinds[MAX_KINDS];
static int kind_count;
static double total_weight;
static char *endpoints[MAX_SOCKETS];
static void *sockets[MAX_SOCKETS];
static int socket_count;

// Fills buf from the payload template; returns the length.
static size_t fill(char *buf, size_t cap, const char *payload, long seq) {
    size_t o = 0;
    for (const char *p = payload; *p && o + 32 < cap;) {
        if (p[0] == '{' && p[1] == '{' && p[3] == '}' && p[4] == '}') {
            switch (p[2]) {
            case 'n': o += snprintf(buf + o, cap - o, "%ld", seq); break;
            case 'r': o += snprintf(buf + o, cap - o, "r-%06llu", 1 + next_random() % 300); break;
            case 'u': o += snprintf(buf + o, cap - o, "u-%06llu", 1 + next_random() % 60); break;
            case 'm': o += snprintf(buf + o, cap - o, "m-%06llu", 1 + next_random() % 1300); break;
            case 'k': o += snprintf(buf + o, cap - o, "%dx%ld", (int)getpid(), seq); break;
            default: buf[o++] = *p++; continue;
            }
            p += 5;
        } else buf[o++] = *p++;
    }
    return o;
}

static void read_mix(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); exit(2); }
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (!len || line[0] == '#') continue;
        char *weight = strtok(line, "\t"), *endpoint = strtok(NULL, "\t"), *payload = strtok(NULL, "");
        if (!weight || !endpoint || !payload) { fprintf(stderr, "bad mix line: %s\n", line); exit(2); }
        if (kind_count == MAX_KINDS) { fprintf(stderr, "too many mix lines\n"); exit(2); }
        int s = 0;
        while (s < socket_count && strcmp(endpoints[s], endpoint)) s++;
        if (s == socket_count) {
            if (socket_count == MAX_SOCKETS) { fprintf(stderr, "too many endpoints\n"); exit(2); }
            endpoints[socket_count++] = strdup(endpoint);
        }
        kinds[kind_count++] = (struct kind){ atof(weight), s, strdup(payload) };
        total_weight += atof(weight);
    }
    fclose(f);
    if (!kind_count || total_weight <= 0) { fprintf(stderr, "empty mix\n"); exit(2); }
}

static const struct kind *pick(void) {
    double x = (double)(next_random() >> 11) / 9007199254740992.0 * total_weight;
    for (int i = 0; i < kind_count; i++) { if ((x -= kinds[i].weight) < 0) return &kinds[i]; }
    return &kinds[kind_count - 1];
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: mixgen RATE SECONDS MIXFILE [DRAIN_SECONDS]\n"); return 2; }
    double rate = atof(argv[1]), seconds = atof(argv[2]), drain = argc > 4 ? atof(argv[4]) : 10;
    read_mix(argv[3]);
    long total = (long)(rate * seconds);
    if (rate <= 0 || total <= 0) { fprintf(stderr, "RATE and SECONDS must be positive\n"); return 2; }
    void *ctx = zmq_ctx_new();
    int zero = 0;
    for (int s = 0; s < socket_count; s++) {
        sockets[s] = zmq_socket(ctx, ZMQ_DEALER);
        zmq_setsockopt(sockets[s], ZMQ_SNDHWM, &zero, sizeof zero);
        zmq_setsockopt(sockets[s], ZMQ_RCVHWM, &zero, sizeof zero);
        zmq_setsockopt(sockets[s], ZMQ_LINGER, &zero, sizeof zero);
        if (zmq_connect(sockets[s], endpoints[s])) { perror(endpoints[s]); return 2; }
    }
    double *due = malloc(sizeof(double) * total), *latency = malloc(sizeof(double) * total);
    double *refusal = malloc(sizeof(double) * total);
    char *answered = calloc(total, 1);
    zmq_pollitem_t items[MAX_SOCKETS];
    for (int s = 0; s < socket_count; s++) items[s] = (zmq_pollitem_t){ sockets[s], 0, ZMQ_POLLIN, 0 };
    static char body[65536], reply[1 << 20];
    long sent = 0, got = 0, ok = 0, refused = 0, other = 0, served = 0;
    double cpu0 = cpu_seconds(), start = now() + 0.2, end_of_sends = start + seconds;
    while (got < total) {
        double t = now();
        while (sent < total && start + sent / rate <= t) {
            const struct kind *k = pick();
            due[sent] = start + sent / rate;
            size_t len = fill(body, sizeof body, k->payload, sent);
            zmq_send(sockets[k->socket], "", 0, ZMQ_SNDMORE);
            zmq_send(sockets[k->socket], body, len, 0);
            sent++;
        }
        if (sent == total && t > end_of_sends + drain) break;
        double wait = sent < total ? start + sent / rate - t : end_of_sends + drain - t;
        long timeout = wait <= 0 ? 0 : (long)(wait * 1000) + 1;
        if (zmq_poll(items, socket_count, timeout) <= 0) continue;
        for (int s = 0; s < socket_count; s++) {
            if (!(items[s].revents & ZMQ_POLLIN)) continue;
            while (zmq_recv(sockets[s], reply, sizeof reply, ZMQ_DONTWAIT) >= 0) {
                int m = zmq_recv(sockets[s], reply, sizeof reply - 1, 0);
                if (m < 0) break;
                reply[m < (int)sizeof reply - 1 ? m : (int)sizeof reply - 1] = 0;
                double at = now();
                char *id = strstr(reply, "\"id\":\"");
                long seq = id ? strtol(id + 6, NULL, 10) : -1;
                if (seq < 0 || seq >= sent || answered[seq]) continue;
                answered[seq] = 1;
                got++;
                if (strstr(reply, "\"ok\":true")) { ok++; latency[served++] = at - due[seq]; }
                else if (strstr(reply, "\"code\":\"overloaded\"")) refusal[refused++] = at - due[seq];
                else { other++; latency[served++] = at - due[seq]; }
            }
        }
    }
    double cpu = cpu_seconds() - cpu0;
    qsort(latency, served, sizeof(double), cmp);
    double p50 = served ? latency[served / 2] * 1e3 : 0, p99 = served ? latency[(long)(served * 0.99)] * 1e3 : 0;
    double max = served ? latency[served - 1] * 1e3 : 0;
    qsort(refusal, refused, sizeof(double), cmp);
    double refused_p99 = refused ? refusal[(long)(refused * 0.99)] * 1e3 : 0, refused_max = refused ? refusal[refused - 1] * 1e3 : 0;
    printf("%.0f %ld %ld %ld %ld %ld %.2f %.2f %.2f %.2f %.2f %.2f %.2f\n", rate, sent, ok, refused, other, total - got, p50, p99, max, cpu, seconds,
           refused_p99, refused_max);
    return 0;
}
