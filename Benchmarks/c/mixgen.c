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
#define _GNU_SOURCE
#include <zmq.h>
#include "mix.h"

static void *sockets[MAX_SOCKETS];

int main(int argc, char **argv) {
    struct run run = parse_run(argc, argv, "mixgen");
    double rate = run.rate, seconds = run.seconds, drain = run.drain;
    long total = run.total;
    void *ctx = zmq_ctx_new();
    int zero = 0;
    for (int s = 0; s < socket_count; s++) {
        sockets[s] = zmq_socket(ctx, ZMQ_DEALER);
        zmq_setsockopt(sockets[s], ZMQ_SNDHWM, &zero, sizeof zero);
        zmq_setsockopt(sockets[s], ZMQ_RCVHWM, &zero, sizeof zero);
        zmq_setsockopt(sockets[s], ZMQ_LINGER, &zero, sizeof zero);
        if (zmq_connect(sockets[s], endpoints[s])) { perror(endpoints[s]); return 2; }
    }
    struct tally tally;
    tally_init(&tally, total);
    zmq_pollitem_t items[MAX_SOCKETS];
    for (int s = 0; s < socket_count; s++) items[s] = (zmq_pollitem_t){ sockets[s], 0, ZMQ_POLLIN, 0 };
    static char body[65536], reply[1 << 20];
    long sent = 0;
    double cpu0 = cpu_seconds(), start = now() + 0.2, end_of_sends = start + seconds;
    while (tally.got < total) {
        double t = now();
        while (sent < total && start + sent / rate <= t) {
            const struct kind *k = pick();
            tally.due[sent] = start + sent / rate;
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
                int m = zmq_recv(sockets[s], reply, sizeof reply, 0);
                if (m < 0) break;
                tally_reply(&tally, reply, m < (int)sizeof reply ? (size_t)m : sizeof reply, sent, now());
            }
        }
    }
    tally_print(&tally, rate, sent, total, cpu_seconds() - cpu0, seconds);
    return 0;
}
