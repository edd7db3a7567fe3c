#if canImport(Glibc)
import Glibc
#endif

/// What `--host` may be: an address libzmq binds as given. A name is not resolved by a bind
/// (libzmq would read it as a network interface's name), so `999.1.1.1` or a typo would fail
/// later with a misleading `ENODEV`; refusing it up front names the flag instead.
enum HostAddress {
    /// Whether `host` is an IPv4 address literal, or `*`. (The endpoints do not enable
    /// libzmq's IPv6, so an IPv6 address would not bind.)
    static func isBindable(_ host: String) -> Bool {
        if host == "*" { return true }
        var v4 = in_addr()
        return inet_pton(AF_INET, host, &v4) == 1
    }

    /// Whether `host` is an IPv4 loopback address (127.0.0.0/8): reachable from this machine only.
    static func isLoopback(_ host: String) -> Bool {
        var v4 = in_addr()
        guard inet_pton(AF_INET, host, &v4) == 1 else { return false }
        return UInt32(bigEndian: v4.s_addr) >> 24 == 127
    }
}
