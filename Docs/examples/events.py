#!/usr/bin/env python3
"""Follows the restaurant service's events exactly once, in order, across restarts (Docs/PROTOCOL.md, "Events").

    pip install pyzmq
    swift run svcd --seed-sample          # in another terminal
    python3 Docs/examples/events.py [--data-dir DIR]... [--state FILE] [--type TYPE]... [--stop-at SEQ]

The ZeroMQ Guide's Clone pattern: subscribe to the live stream first (PUB, "events" in
endpoints.json), then read the event log (ROUTER, "eventLog") from the last seq this program
applied, then apply live events in seq order, filling any jump from the log. The last seq
applied is kept in FILE (default ./events.seq), written after each event, so a restarted
program resumes exactly where it stopped. Given several data directories (the instances of one
cluster), it moves to the next when the one it follows stops answering.

"Applying" an event here means printing it as one JSON line; put your own work in apply().
--stop-at SEQ exits once it has applied everything up to SEQ (for scripts and tests).
"""

import argparse
import json
import os
import sys
import time

import zmq

PAGE = 1000          # events per log read
IDLE_CHECK = 1.0     # seconds without a live event before the log is read again


class InstanceDown(Exception):
    """The instance did not answer; follow the next one."""


class Gone(Exception):
    """The log no longer keeps the events after our last seq: rebuild, then start from first_seq - 1."""

    def __init__(self, first_seq, message):
        super().__init__(message)
        self.first_seq = first_seq


class Follower:
    def __init__(self, data_dirs, state_file, types, stop_at, timeout):
        self.data_dirs, self.state_file, self.types = data_dirs, state_file, types
        self.stop_at, self.timeout = stop_at, timeout
        self.context = zmq.Context()
        self.last = self.read_state()      # the seq up to which the log has been applied
        self.request_id = 0

    def read_state(self):
        try:
            with open(self.state_file) as f:
                return int(f.read().strip() or 0)
        except FileNotFoundError:
            return 0

    def write_state(self):
        temporary = self.state_file + ".tmp"
        with open(temporary, "w") as f:
            f.write(f"{self.last}\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, self.state_file)

    def apply(self, event):
        """Your work goes here. It runs once per event, in seq order."""
        print(json.dumps(event), flush=True)

    def advance(self, event):
        if event["seq"] <= self.last:
            return                          # applied already (a duplicate): skip it
        self.apply(event)
        self.last = event["seq"]
        self.write_state()

    def done(self):
        return self.stop_at is not None and self.last >= self.stop_at

    def read_log(self, endpoints):
        """One page of the log after self.last, on a fresh REQ socket (Lazy Pirate)."""
        self.request_id += 1
        params = {"after": self.last, "limit": PAGE}
        if self.types:
            params["types"] = self.types
        socket = self.context.socket(zmq.REQ)
        socket.setsockopt(zmq.LINGER, 0)
        try:
            socket.connect(endpoints["eventLog"])
            socket.send(json.dumps({"v": 1, "id": f"log-{self.request_id}", "params": params}).encode())
            if not socket.poll(int(self.timeout * 1000)):
                raise InstanceDown(f"no answer from {endpoints['eventLog']}")
            reply = json.loads(socket.recv())
        finally:
            socket.close()
        if reply["ok"]:
            return reply["result"]
        error = reply["error"]
        if error["code"] == "gone":
            raise Gone(error["firstSeq"], error["message"])
        if error["code"] in ("overloaded", "unavailable", "deadline_exceeded"):
            raise InstanceDown(error["message"])
        raise SystemExit(f"events.py: the event log answered {error['code']}: {error['message']}")

    def catch_up(self, endpoints):
        """Applies the log from self.last to its end."""
        while True:
            result = self.read_log(endpoints)
            for event in result["events"]:
                self.advance(event)
            if len(result["events"]) < PAGE:
                # The rest of the log as it was read: nothing of our types lies before lastSeq.
                if result["lastSeq"] > self.last:
                    self.last = result["lastSeq"]
                    self.write_state()
                return

    def follow(self, endpoints):
        subscriber = self.context.socket(zmq.SUB)
        subscriber.setsockopt(zmq.LINGER, 0)
        for event_type in self.types or [""]:
            subscriber.setsockopt(zmq.SUBSCRIBE, event_type.encode())
        subscriber.connect(endpoints["events"])       # subscribe first ...
        try:
            self.catch_up(endpoints)                  # ... then read the log from our last seq
            quiet_since = time.monotonic()
            while not self.done():
                if subscriber.poll(100):
                    _, body = subscriber.recv_multipart()
                    event = json.loads(body)
                    if event["seq"] == self.last + 1 and not self.types:
                        self.advance(event)
                    elif event["seq"] > self.last:
                        self.catch_up(endpoints)      # a jump: fill it from the log
                    quiet_since = time.monotonic()
                elif time.monotonic() - quiet_since >= IDLE_CHECK:
                    self.catch_up(endpoints)          # finds what the stream missed; checks the instance lives
                    quiet_since = time.monotonic()
        finally:
            subscriber.close()

    def run(self):
        instance = 0
        while not self.done():
            data_dir = self.data_dirs[instance]
            try:
                with open(os.path.join(data_dir, "endpoints.json")) as f:
                    endpoints = json.load(f)
                self.follow(endpoints)
            except (InstanceDown, OSError, ValueError) as error:
                print(f"events.py: {data_dir}: {error}; trying the next instance", file=sys.stderr)
                instance = (instance + 1) % len(self.data_dirs)
                if instance == 0:
                    time.sleep(1)
            except Gone as gone:
                raise SystemExit(f"events.py: {gone} (rebuild your state, then start from {gone.first_seq - 1})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", action="append", help="svcd's data directory (repeat for a cluster's instances)")
    parser.add_argument("--state", default="events.seq", help="where the last seq applied is kept (default ./events.seq)")
    parser.add_argument("--type", action="append", dest="types", help="only events of this type (repeatable)")
    parser.add_argument("--stop-at", type=int, help="exit once everything up to this seq is applied")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds to wait for the event log")
    args = parser.parse_args()
    data_dirs = args.data_dir or [os.environ.get("SVC_DATA_DIR", "./svc-data")]
    Follower(data_dirs, args.state, args.types, args.stop_at, args.timeout).run()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
