/// Which ports svcd binds, relative to its `--port-base`: the admin endpoint on the base itself,
/// each use case on base + ``UseCaseName/portOffset``, the event stream and log on
/// base + ``WireEvent/streamPortOffset`` and ``WireEvent/logPortOffset`` (the monitoring HTTP
/// port is separate, `--http-port`). Deployment files and docs that publish ports are checked
/// against this list, so a new endpoint cannot be left unpublished.
public enum PortLayout {
    /// The admin endpoint's offset: the port base itself.
    public static let adminOffset = 0

    /// Every offset svcd binds, ascending.
    public static var offsets: [Int] {
        ([adminOffset] + UseCaseName.allCases.map(\.portOffset) + [WireEvent.streamPortOffset, WireEvent.logPortOffset]).sorted()
    }

    /// ``offsets`` as runs of consecutive offsets, ascending.
    public static var runs: [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        for offset in offsets {
            if let last = runs.last, last.upperBound + 1 == offset {
                runs[runs.count - 1] = last.lowerBound...offset
            } else {
                runs.append(offset...offset)
            }
        }
        return runs
    }
}
