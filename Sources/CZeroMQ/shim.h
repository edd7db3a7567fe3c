// C shim for the ZeroMQ Swift module. Only Sources/ZeroMQ imports this module,
// and only with `internal import CZeroMQ`, so none of these C declarations leak
// into the public Swift API.
#ifndef CZEROMQ_SHIM_H
#define CZEROMQ_SHIM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  // pthread_setname_np
#endif
#include <pthread.h>
#include <zmq.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <errno.h>

// Names the calling thread (at most 15 bytes; Linux refuses longer names). Glibc's Swift
// overlay does not export pthread_setname_np, which needs _GNU_SOURCE.
static inline int czmq_name_this_thread(const char *name) {
#if defined(__linux__)
    return pthread_setname_np(pthread_self(), name);
#else
    return 0;
#endif
}

#endif // CZEROMQ_SHIM_H
