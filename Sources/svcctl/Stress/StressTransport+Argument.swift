import ArgumentParser
import LoadEngine

/// `--transport zmtp|libzmq`.
extension StressTransport: ExpressibleByArgument {}
