/// The trace context of the request whose write the current task runs, as the events it appends
/// carry it: `traceparent` (W3C) naming the request's trace and its server span as the parent,
/// so a consumer of the event continues the writer's trace. Bound by the transport around a
/// write's use case; read by the store where it makes the write's event, in the writing task.
public enum WriterTrace {
    /// The writing request's `traceparent`; `nil` outside a request (seeding, tests).
    @TaskLocal public static var traceparent: String?
}
