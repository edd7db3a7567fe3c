#!/usr/bin/env python3
"""A minimal OTLP/HTTP trace receiver: the collector svcd's tracing tests and the worked
example in Docs/OPERATIONS.md export to.

    Scripts/otlp-receiver.py [PORT]

Listens on 127.0.0.1:PORT (0 or none: a free port), prints `listening PORT` on its first line,
then, for every span of every ExportTraceServiceRequest POSTed to /v1/traces (protobuf, decoded
with opentelemetry-proto), one JSON line: trace_id, span_id, parent_span_id (hex), name, kind,
start and end (ns since the epoch), status code and message, the attributes and the resource's
service.name. Any other path gets 404. `--hang` accepts connections and never answers (a
collector that hangs). `--sink` answers every export without decoding or printing it (a
collector that costs the machine little, for benchmarks); on SIGTERM it prints `exports N bytes
B` on its last line.
"""
import json
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

HANG = "--hang" in sys.argv
SINK = "--sink" in sys.argv
received = {"exports": 0, "bytes": 0}
arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
PORT = int(arguments[0]) if arguments else 0
lock = threading.Lock()


def value_of(any_value):
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind) if kind else None


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        if HANG:
            threading.Event().wait()
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path != "/v1/traces":
            self.send_response(404)
            self.end_headers()
            return
        if SINK:
            with lock:
                received["exports"] += 1
                received["bytes"] += len(body)
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        lines = []
        for resource_spans in request.resource_spans:
            resource = {a.key: value_of(a.value) for a in resource_spans.resource.attributes}
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    lines.append(json.dumps({
                        "trace_id": span.trace_id.hex(),
                        "span_id": span.span_id.hex(),
                        "parent_span_id": span.parent_span_id.hex(),
                        "name": span.name,
                        "kind": span.kind,
                        "start": span.start_time_unix_nano,
                        "end": span.end_time_unix_nano,
                        "status_code": span.status.code,
                        "status_message": span.status.message,
                        "attributes": {a.key: value_of(a.value) for a in span.attributes},
                        "service": resource.get("service.name"),
                        "instance": resource.get("service.instance.id"),
                    }, sort_keys=True))
        # One write per export: a reader never sees part of an export's lines.
        with lock:
            sys.stdout.write("".join(line + "\n" for line in lines))
            sys.stdout.flush()
        reply = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, format, *args):
        pass


def stop(signum, frame):
    print(f"exports {received['exports']} bytes {received['bytes']}", flush=True)
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)
server = ThreadingHTTPServer(("127.0.0.1", PORT), Receiver)
server.daemon_threads = True
print(f"listening {server.server_address[1]}", flush=True)
server.serve_forever()
