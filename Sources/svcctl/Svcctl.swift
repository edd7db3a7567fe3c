import ArgumentParser

/// `svcctl`: the operators' admin client for svcd.
@main
struct Svcctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "svcctl",
        abstract: "Administer a running svcd through its CURVE-secured admin endpoint."
    )
}
