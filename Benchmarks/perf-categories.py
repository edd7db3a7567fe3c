#!/usr/bin/env python3
"""Where the service's CPU goes, from `perf script` output of a storebench or svcbench run.

Reads `perf script -F comm,tid,ip,sym,dso` (with call chains) on stdin, leaves out the load
client (its thread is named `*-load`/`*-client`, and every libzmq I/O thread but the first one,
which is the service's: the service's context is made before any client's), puts each sample
in one category by its innermost frame and its call chain, and prints each category's share of
the service's samples; with --cpu-per-request MICROSECONDS, also its microseconds per request.

usage: perf script -i perf.data -F comm,tid,ip,sym,dso | Benchmarks/perf-categories.py [--cpu-per-request 36.2]
"""
import argparse
import collections
import re
import sys

MALLOC = {"malloc", "_int_malloc", "_int_free", "free", "cfree", "malloc_consolidate", "unlink_chunk.constprop.0",
          "__libc_calloc", "realloc", "_int_realloc", "__libc_malloc", "__libc_free", "tcache_init"}

# (category, test on the sample) in order: the first that matches takes the sample.
def categorize(frames):
    leaf_sym, leaf_dso = frames[0] if frames else ("?", "?")
    syms = [sym for sym, _ in frames]
    kernel = leaf_dso == "[kernel.kallsyms]"
    def stack_has(*names):
        return any(any(name in sym for name in names) for sym in syms)
    if stack_has("fdatasync", "do_fsync"):
        return "kernel: fsync of the WAL"
    if kernel and stack_has("pwrite64", "ftruncate"):
        return "kernel: SQLite's writes to the WAL (pwrite, and truncating it)"
    if leaf_dso.startswith("libsqlite3"):
        return "SQLite (B-tree, VDBE, pager)"
    if kernel and stack_has("futex", "finish_task_switch", "schedule", "try_to_wake_up", "eventfd"):
        return "kernel: thread wake-ups and switches (futex, eventfd, scheduler)"
    if kernel and stack_has("tcp", "sock", "poll", "epoll", "inet"):
        return "kernel: TCP and polling (libzmq)"
    if kernel and stack_has("getrandom"):
        return "kernel: getrandom (new ids)"
    if kernel and stack_has("exc_page_fault", "mprotect", "munmap", "mmap"):
        return "kernel: memory (page faults, mappings)"
    if kernel:
        return "kernel: other"
    if leaf_dso.startswith("libzmq"):
        return "libzmq"
    if leaf_sym in MALLOC or leaf_sym.startswith("malloc"):
        return "malloc and free"
    if re.match(r"swift_(retain|release|bridgeObjectRetain|bridgeObjectRelease)", leaf_sym) or "RefCounts" in leaf_sym:
        return "Swift retain/release"
    if leaf_dso.startswith("libswift_Concurrency") or leaf_dso.startswith("libdispatch"):
        return "Swift concurrency runtime and dispatch (tasks, actors, continuations)"
    if "GRDB" in leaf_sym or "4GRDB" in leaf_sym:
        return "GRDB"
    if leaf_dso.startswith("libswiftCore") or leaf_dso.startswith("libFoundation") or leaf_dso.startswith("libswiftSynchronization"):
        return "Swift standard library and Foundation (generics, strings, hashing, metadata)"
    if leaf_dso in ("storebench", "svcbench", "svcd"):
        for module, name in (("9Transport", "Transport"), ("6Domain", "Domain"), ("11Persistence", "Persistence"),
                             ("8WireJSON", "WireJSON"), ("7ZeroMQ", "ZeroMQ"), ("10ServiceApp", "ServiceApp")):
            if leaf_sym.startswith("$s" + module) or leaf_sym.startswith("$sS" + module):
                return f"service code: {name}"
        return "service code: other (specialised generics, other packages)"
    if leaf_dso.startswith("libc") or leaf_dso.startswith("[vdso]"):
        return "libc (locks, clock, syscalls' user side)"
    return "other"


def samples(stream):
    header = re.compile(r"^(\S.*?)\s+(\d+)\s*$")
    frame = re.compile(r"^\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$")
    comm, tid, frames = None, None, []
    for line in stream:
        line = line.rstrip("\n")
        if not line.strip():
            if comm is not None:
                yield comm, tid, frames
            comm, tid, frames = None, None, []
            continue
        match = header.match(line)
        if match and comm is None:
            comm, tid = match.group(1).strip(), int(match.group(2))
            continue
        match = frame.match(line)
        if match:
            sym = re.sub(r"\+0x[0-9a-f]+$", "", match.group(1))
            dso = match.group(2).rsplit("/", 1)[-1]
            frames.append((sym, dso))
    if comm is not None:
        yield comm, tid, frames


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cpu-per-request", type=float, help="the service's CPU µs per request, to split")
    arguments = parser.parse_args()
    collected = list(samples(sys.stdin))
    io_threads = sorted({tid for comm, tid, _ in collected if comm.startswith("ZMQbg/IO")})
    service_io = io_threads[0] if io_threads else None
    counts = collections.Counter()
    threads = collections.Counter()
    for comm, tid, frames in collected:
        if comm.endswith("-load") or comm.endswith("-client"):
            continue
        if comm.startswith("ZMQbg/IO") and tid != service_io:
            continue
        counts[categorize(frames)] += 1
        threads["libzmq I/O thread" if comm.startswith("ZMQbg") else "socket thread" if comm.startswith("zmq-")
                else "dispatch threads (Swift's global executor, GRDB's queues)" if "qos" in comm else comm] += 1
    total = sum(counts.values())
    if total == 0:
        sys.exit("no service samples in the input")
    unit = arguments.cpu_per_request
    print(f"{total} samples of the service's threads")
    print(f"{'share':>7}  {'µs/req' if unit else '':>6}  category")
    for category, count in counts.most_common():
        share = count / total
        print(f"{share * 100:6.1f}%  {share * unit if unit else 0:6.1f}  {category}" if unit else f"{share * 100:6.1f}%          {category}")
    print("by thread:")
    for name, count in threads.most_common():
        share = count / total
        print(f"{share * 100:6.1f}%  {share * unit:6.1f}  {name}" if unit else f"{share * 100:6.1f}%          {name}")


if __name__ == "__main__":
    main()
