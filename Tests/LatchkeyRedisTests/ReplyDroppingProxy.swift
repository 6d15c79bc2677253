import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy on loopback in front of a Redis server that, when told, lets the next command
/// through and swallows its reply, closing the client's connection once Redis has answered:
/// a connection lost after Redis ran the command, which a client must not take for one that
/// never reached Redis.
final class ReplyDroppingProxy: Sendable {
    /// The port the proxy listens on (127.0.0.1).
    let port: Int
    private let listener: Int32
    private let upstreamPort: Int
    private let dropNext = Atomic<Bool>(false)
    /// How many replies were swallowed.
    let dropped = Atomic<Int>(0)

    /// Listens on a free loopback port, forwarding each connection to `upstreamPort`.
    init(upstreamPort: Int) throws {
        self.upstreamPort = upstreamPort
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(listener, generic, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, generic, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// The next reply from Redis is not passed on: the client's connection is closed instead.
    func dropNextReply() {
        dropNext.store(true, ordering: .sequentiallyConsistent)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let upstream = Self.connect(to: upstreamPort)
            guard upstream >= 0 else {
                close(client)
                continue
            }
            Thread.detachNewThread { Self.copy(from: client, to: upstream) }
            Thread.detachNewThread { [self] in relayReplies(from: upstream, to: client) }
        }
    }

    private func relayReplies(from upstream: Int32, to client: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(upstream, $0.baseAddress, $0.count) }
            if count > 0, dropNext.exchange(false, ordering: .sequentiallyConsistent) {
                // Redis has run the command and answered: the client never hears of it.
                dropped.add(1, ordering: .sequentiallyConsistent)
                closeBoth(client, upstream)
                return
            }
            guard count > 0, buffer.withUnsafeBytes({ write(client, $0.baseAddress, count) }) == count else {
                closeBoth(client, upstream)
                return
            }
        }
    }

    private func closeBoth(_ client: Int32, _ upstream: Int32) {
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(upstream, Int32(SHUT_RDWR))
        close(client)
        close(upstream)
    }

    private static func copy(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0, buffer.withUnsafeBytes({ write(destination, $0.baseAddress, count) }) == count else {
                shutdown(destination, Int32(SHUT_WR))
                return
            }
        }
    }

    private static func connect(to port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        if !connected { close(descriptor) }
        return connected ? descriptor : -1
    }
}
