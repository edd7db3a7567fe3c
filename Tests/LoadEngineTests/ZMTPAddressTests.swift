import Testing
@testable import LoadEngine

@Suite("ZMTP connection addresses")
struct ZMTPAddressTests {
    @Test func plainTCPAddressesAreTaken() {
        for (address, host, port) in [("tcp://127.0.0.1:7100", "127.0.0.1", 7100), ("tcp://localhost:1", "localhost", 1), ("tcp://[::1]:65535", "::1", 65535)] {
            let parsed = ZMTPAddress(address)
            #expect(parsed?.host == host, "\(address)")
            #expect(parsed?.port == UInt16(port), "\(address)")
        }
    }

    @Test(arguments: [
        "ipc:///tmp/svcd.sock", "inproc://x", "tcp://127.0.0.1", "tcp://127.0.0.1:0", "tcp://127.0.0.1:65536", "tcp://*:7100",
        "tcp://eth0;127.0.0.1:7100", "tcp://::1:7100", "tcp://[::1:7100", "tcp://:7100",
    ])
    func othersAreLeftToLibzmq(_ address: String) {
        #expect(ZMTPAddress(address) == nil)
    }
}
