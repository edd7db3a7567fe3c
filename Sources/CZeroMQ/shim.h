// C shim for the ZeroMQ Swift module. Only Sources/ZeroMQ imports this module,
// and only with `internal import CZeroMQ`, so none of these C declarations leak
// into the public Swift API.
#ifndef CZEROMQ_SHIM_H
#define CZEROMQ_SHIM_H

#include <zmq.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <errno.h>

#endif // CZEROMQ_SHIM_H
