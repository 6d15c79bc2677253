import Dispatch
import Foundation
import LatchkeyCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The listening socket and the thread that accepts connections from it.
///
/// The server listens itself (rather than letting libmicrohttpd do it) so that admission is
/// decided in one place, before a connection costs anything, and so that ``close()`` can
/// refuse new connections at once without touching the library's event loops (in
/// libmicrohttpd 0.9.75, `MHD_quiesce_daemon` races with epoll threads that are busy and
/// can abort the process).
final class ConnectionAcceptor: Sendable {
    /// The port listened on (the one the system picked when 0 was asked for).
    let port: Int
    private let descriptor: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let accepting = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)
    private let logger: Logger?

    /// Binds to `host`:`port` and listens; throws `http_server_error` naming the address.
    init(host: IPAddress, port: Int, logger: Logger?) throws {
        let address = host.isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
        let family = host.isIPv6 ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw LatchkeyError(.httpServer, "Could not listen on \(address).", detail: String(cString: strerror(errno)))
        }
        var reuseAddress: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuseAddress, socklen_t(MemoryLayout<Int32>.size))
        if host.isIPv6 {
            // `::` serves IPv4 too; any other IPv6 address only IPv6.
            var onlyIPv6: Int32 = host.isUnspecified ? 0 : 1
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &onlyIPv6, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = Self.withSocketAddress(of: host, port: port) { bind(descriptor, $0, $1) == 0 && listen(descriptor, SOMAXCONN) == 0 }
        guard bound else {
            let failure = errno
            Glibc.close(descriptor)
            if failure == EADDRINUSE {
                throw LatchkeyError(
                    .httpServer, "Could not listen on \(address): the port is already in use.", detail: String(cString: strerror(failure)))
            }
            throw LatchkeyError(.httpServer, "Could not listen on \(address).", detail: String(cString: strerror(failure)))
        }
        var local = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        // sin_port and sin6_port sit at the same offset.
        self.port = Int(UInt16(bigEndian: local.sin6_port))
        self.descriptor = descriptor
        self.logger = logger
    }

    /// Starts the thread that accepts connections and passes each to `accepted` with its
    /// peer's address; `accepted` owns the descriptor from then on.
    func start(_ accepted: @escaping @Sendable (Int32, UnsafePointer<sockaddr>, socklen_t) -> Void) {
        accepting.store(true, ordering: .sequentiallyConsistent)
        let thread = Thread { [self] in
            acceptConnections(accepted)
            finished.signal()
        }
        thread.name = "latchkey-http-accept"
        thread.start()
    }

    /// A socket never started, or already closed, is closed here (the accepting thread
    /// holds the acceptor while it runs).
    deinit {
        close()
    }

    /// Stops listening: from now on connection attempts are refused. Returns once the
    /// accepting thread has ended. Closing again does nothing.
    func close() {
        guard closed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else { return }
        // Shutting the socket down wakes the blocked accept() and makes the kernel refuse
        // further handshakes; the descriptor is closed only when no thread uses it.
        shutdown(descriptor, Int32(SHUT_RDWR))
        if accepting.load(ordering: .sequentiallyConsistent) { finished.wait() }
        Glibc.close(descriptor)
    }

    private func acceptConnections(_ accepted: @Sendable (Int32, UnsafePointer<sockaddr>, socklen_t) -> Void) {
        var lastExhaustionLog: ContinuousClock.Instant?
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let connection = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(descriptor, $0, &length) }
            }
            if connection >= 0 {
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accepted(connection, $0, length) }
                }
                continue
            }
            let failure = errno
            switch failure {
            case EINTR, ECONNABORTED, EPROTO, EAGAIN:
                continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                // Out of descriptors or memory: waiting connections stay in the backlog until
                // some close; pause instead of spinning, and say so now and then.
                let now = ContinuousClock.now
                if lastExhaustionLog.map({ now - $0 > .seconds(10) }) ?? true {
                    lastExhaustionLog = now
                    logger?.error("http_accept_failed", ["reason": .string(String(cString: strerror(failure)))])
                }
                usleep(50_000)
            default:
                return  // EINVAL once the socket is shut down
            }
        }
    }

    private static func withSocketAddress<Result>(
        of host: IPAddress, port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result {
        if host.isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: host.bytes) }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: host.bytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}
