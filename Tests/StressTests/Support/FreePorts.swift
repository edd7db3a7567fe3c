import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A base port such that `base..<base+count` can all be bound on 127.0.0.1 right now, for an svcd
/// that must come back on the same addresses after a restart. Ports are probed, not reserved.
///
/// The block lies below the kernel's ephemeral range: outgoing connections (thousands, under a
/// stress load that reconnects) take their local ports from that range and would otherwise make
/// the restarted svcd's bind fail.
func freePortBlock(count: Int) throws -> Int {
    var generator = SystemRandomNumberGenerator()
    let ephemeralLow = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))
        .flatMap { $0.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } } ?? 32_768
    let highest = max(ephemeralLow, 12_000) - count - 1
    for _ in 0..<200 {
        let base = Int.random(in: 10_000...highest, using: &generator)
        if (base..<(base + count)).allSatisfy(canBind) { return base }
    }
    throw PortsUnavailable(count: count)
}

/// No block of free ports was found.
struct PortsUnavailable: Error, CustomStringConvertible {
    let count: Int
    var description: String { "no block of \(count) free TCP ports found on 127.0.0.1" }
}

private func canBind(_ port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
}
