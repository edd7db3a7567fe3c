import LoadEngine

extension CtlFailure {
    /// svcctl's exit status for what stopped a load run: 69 nothing to talk to, 75 no answer,
    /// 1 an error reply where success was needed, 64 a target that is not what the run needs.
    init(_ failure: LoadFailure) {
        switch failure.kind {
        case .unavailable: self.init(ExitStatus.unavailable, failure.message)
        case .noAnswer: self.init(ExitStatus.timedOut, failure.message, noAnswer: true)
        case .serviceError: self.init(ExitStatus.serviceError, failure.message)
        case .badTarget: self.init(ExitStatus.usage, failure.message)
        }
    }
}
