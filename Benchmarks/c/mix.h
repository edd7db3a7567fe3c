// mix.h: what the open-loop mix generators share (mixgen.c over libzmq, zmtpgen.c over its own
// ZMTP): the clock, the CPU clock, the seeded random numbers, the mix file and its payload
// templates, and the one-line report. Static functions: each generator is one translation unit.
#ifndef MIX_H
#define MIX_H
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


// The command line both generators take, "RATE SECONDS MIXFILE [DRAIN_SECONDS]" (the mix is
// read here); exits with status 2 on a bad one. `total` is the requests to send.
struct run { double rate, seconds, drain; long total; };

static struct run parse_run(int argc, char **argv, const char *name) {
    if (argc < 4) { fprintf(stderr, "usage: %s RATE SECONDS MIXFILE [DRAIN_SECONDS]\n", name); exit(2); }
    struct run run = { atof(argv[1]), atof(argv[2]), argc > 4 ? atof(argv[4]) : 10, 0 };
    read_mix(argv[3]);
    run.total = (long)(run.rate * run.seconds);
    if (run.rate <= 0 || run.total <= 0) { fprintf(stderr, "RATE and SECONDS must be positive\n"); exit(2); }
    return run;
}

// A string literal and its length without the terminating NUL, for memmem.
#define PATTERN(literal) literal, sizeof(literal) - 1

// Reply bookkeeping: latencies of the answered requests that were not refused, and of refusals.
struct tally { double *due, *latency, *refusal; char *answered; long got, ok, refused, other, served; };

static void tally_init(struct tally *t, long total) {
    memset(t, 0, sizeof *t);
    t->due = malloc(sizeof(double) * total); t->latency = malloc(sizeof(double) * total);
    t->refusal = malloc(sizeof(double) * total); t->answered = calloc(total, 1);
}

// Counts the reply `reply` (`len` bytes) received at `at`, of the `sent` requests so far.
static void tally_reply(struct tally *t, const char *reply, size_t len, long sent, double at) {
    const char *id = memmem(reply, len, PATTERN("\"id\":\""));
    long seq = id ? strtol(id + 6, NULL, 10) : -1;
    if (seq < 0 || seq >= sent || t->answered[seq]) return;
    t->answered[seq] = 1;
    t->got++;
    if (memmem(reply, len, PATTERN("\"ok\":true"))) { t->ok++; t->latency[t->served++] = at - t->due[seq]; }
    else if (memmem(reply, len, PATTERN("\"code\":\"overloaded\""))) t->refusal[t->refused++] = at - t->due[seq];
    else { t->other++; t->latency[t->served++] = at - t->due[seq]; }
}

// Prints the report line (see mixgen.c).
static void tally_print(struct tally *t, double rate, long sent, long total, double cpu, double seconds) {
    qsort(t->latency, t->served, sizeof(double), cmp);
    double p50 = t->served ? t->latency[t->served / 2] * 1e3 : 0, p99 = t->served ? t->latency[(long)(t->served * 0.99)] * 1e3 : 0;
    double max = t->served ? t->latency[t->served - 1] * 1e3 : 0;
    qsort(t->refusal, t->refused, sizeof(double), cmp);
    double refused_p99 = t->refused ? t->refusal[(long)(t->refused * 0.99)] * 1e3 : 0, refused_max = t->refused ? t->refusal[t->refused - 1] * 1e3 : 0;
    printf("%.0f %ld %ld %ld %ld %ld %.2f %.2f %.2f %.2f %.2f %.2f %.2f\n", rate, sent, t->ok, t->refused, t->other, total - t->got, p50, p99, max, cpu,
           seconds, refused_p99, refused_max);
}
#endif
