import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The RFC 8252 §7.3 loopback redirect receiver of `latchkey login`: a TCP listener on the
/// loopback interface — 127.0.0.1 and, when the machine has it, [::1] on the same port —
/// that waits for the browser to come back to the redirect path, answers it with a short
/// page, and hands over the callback URL.
///
/// It lives in the executable, not in LatchkeyClient, because Foundation on Linux offers
/// no server sockets and the SDK must stay Foundation-only; this is the one type here
/// that touches POSIX sockets. It binds the loopback interface only, reads at most
/// ``maximumRequestSize`` bytes per connection, and ignores requests for other paths and
/// callbacks that are not the answer to the sign-in in progress (another local program
/// can reach the port too): those get an error page, and the listener keeps waiting.
final class LoopbackRedirectListener {
    /// A loopback address the listener can bind.
    enum Loopback: CaseIterable {
        /// 127.0.0.1.
        case ipv4
        /// ::1.
        case ipv6

        /// The host as a URL writes it: `127.0.0.1` or `[::1]`.
        var urlHost: String { self == .ipv4 ? "127.0.0.1" : "[::1]" }
        /// The other one.
        var other: Loopback { self == .ipv4 ? .ipv6 : .ipv4 }
    }

    /// The largest request head read from the browser.
    static let maximumRequestSize = 8192
    /// How long one connection may take to send its request head, in seconds.
    static let requestReadTime: TimeInterval = 5

    /// The port the listener is bound to, on every address it listens on.
    let port: Int
    /// The address the redirect URI names: the one asked for, or the other when this machine
    /// has no such loopback address (RFC 8252 §7.3: assume no IP version).
    let redirectHost: Loopback
    /// Every address listened on: ``redirectHost``, and the other when it was free too.
    let listening: [Loopback]
    private var descriptors: [Int32]

    /// Listens on `preferred` at `port` (0: any free port) — or, when this machine has no
    /// such loopback address, on the other — and on the other address at the same port too
    /// when it can; throws when neither can be bound.
    init(port: Int = 0, preferred: Loopback = .ipv4) throws {
        var first: (Loopback, Int32, Int)
        switch Self.listeningSocket(on: preferred, port: port) {
        case .success(let bound):
            first = (preferred, bound.descriptor, bound.port)
        case .failure(let error) where error.code == EADDRNOTAVAIL || error.code == EAFNOSUPPORT:
            guard case .success(let bound) = Self.listeningSocket(on: preferred.other, port: port) else {
                throw CommandFailure.failure("cannot listen on \(preferred.urlHost):\(port) (errno \(error.code))")
            }
            first = (preferred.other, bound.descriptor, bound.port)
        case .failure(let error):
            throw CommandFailure.failure("cannot listen on \(preferred.urlHost):\(port) (errno \(error.code))")
        }
        redirectHost = first.0
        self.port = first.2
        descriptors = [first.1]
        var listening = [first.0]
        // The other address on the same port, so that a browser resolving the name either way
        // finds the listener; when the port is taken there, or the address does not exist, one is enough.
        if case .success(let second) = Self.listeningSocket(on: first.0.other, port: first.2) {
            descriptors.append(second.descriptor)
            listening.append(first.0.other)
        }
        self.listening = listening
    }

    deinit {
        for descriptor in descriptors { close(descriptor) }
    }

    /// An errno from a failed socket call.
    struct SocketError: Error {
        let code: Int32
    }

    /// A listening socket on `loopback`:`port` (the port it got when `port` is 0).
    private static func listeningSocket(on loopback: Loopback, port: Int) -> Result<(descriptor: Int32, port: Int), SocketError> {
        let descriptor = socket(loopback == .ipv4 ? AF_INET : AF_INET6, Self.streamSocket, 0)
        guard descriptor >= 0 else { return .failure(SocketError(code: errno)) }
        var boundPort = 0
        let bound: Bool
        switch loopback {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port)).bigEndian
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(descriptor, generic, length) == 0 && listen(descriptor, 8) == 0
                        && getsockname(descriptor, generic, &length) == 0
                }
            }
            boundPort = Int(UInt16(bigEndian: address.sin_port))
        case .ipv6:
            // Only IPv6: the IPv4 side is its own socket.
            var only: Int32 = 1
            _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            address.sin6_port = in_port_t(UInt16(port)).bigEndian
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(descriptor, generic, length) == 0 && listen(descriptor, 8) == 0
                        && getsockname(descriptor, generic, &length) == 0
                }
            }
            boundPort = Int(UInt16(bigEndian: address.sin6_port))
        }
        guard bound else {
            let code = errno
            close(descriptor)
            return .failure(SocketError(code: code))
        }
        return .success((descriptor, boundPort))
    }

    /// Waits up to `timeout` seconds for a `GET` of `path` whose full URL
    /// (`http://<redirect host>:<port><target>`) `accepting` takes — the answer to this sign-in
    /// (``AuthorizationRequest/isAnswer(_:)``: its `state`) — and returns it. Requests for
    /// other paths get a 404, callbacks `accepting` refuses a 400; both are ignored.
    func waitForCallback(path: String, timeout: TimeInterval, accepting: (URL) -> Bool) throws -> URL {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw CommandFailure.failure("no sign-in callback within \(Int(timeout)) seconds") }
            var waiting = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&waiting, nfds_t(waiting.count), Int32(min(remaining, 1) * 1000))
            if ready < 0, errno != EINTR { throw CommandFailure.failure("waiting for the callback failed (errno \(errno))") }
            guard ready > 0, let listening = waiting.first(where: { $0.revents & Int16(POLLIN) != 0 }) else { continue }
            let connection = accept(listening.fd, nil, nil)
            guard connection >= 0 else { continue }
            defer { close(connection) }
            #if canImport(Darwin)
                var noSignal: Int32 = 1
                _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
            #endif
            var readTimeout = timeval(tv_sec: 1, tv_usec: 0)
            _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &readTimeout, socklen_t(MemoryLayout<timeval>.size))
            let head = readHead(connection, until: min(deadline, Date().addingTimeInterval(Self.requestReadTime)))
            guard let target = Self.requestTarget(head),
                URLComponents(string: target)?.path == path,
                let callback = URL(string: "http://\(redirectHost.urlHost):\(port)" + target)
            else {
                respond(connection, status: "404 Not Found", body: "Not found.")
                continue
            }
            guard accepting(callback) else {
                respond(connection, status: "400 Bad Request", body: "This response is not for the sign-in in progress; it was ignored.")
                continue
            }
            respond(connection, status: "200 OK", body: "Sign-in received. You can close this window and return to the terminal.")
            return callback
        }
    }

    /// The target of a `GET` request line (`GET /callback?code=… HTTP/1.1`).
    static func requestTarget(_ head: String) -> String? {
        let parts = (head.split(separator: "\r\n", maxSplits: 1).first ?? "").split(separator: " ")
        guard parts.count == 3, parts[0] == "GET", parts[1].hasPrefix("/"), parts[2].hasPrefix("HTTP/1.") else { return nil }
        return String(parts[1])
    }

    /// Reads until the end of the request head, ``maximumRequestSize`` bytes, or
    /// `deadline`: a client sending a byte at a time cannot hold the listener longer.
    private func readHead(_ connection: Int32, until deadline: Date) -> String {
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 2048)
        while bytes.count < Self.maximumRequestSize, Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            if bytes.count >= 4, String(decoding: bytes.suffix(count + 3), as: UTF8.self).contains("\r\n\r\n") { break }
        }
        return String(decoding: bytes.prefix(Self.maximumRequestSize), as: UTF8.self)
    }

    #if canImport(Glibc)
        /// A browser that hung up must not kill the command with SIGPIPE (on Darwin the
        /// connection has `SO_NOSIGPIPE` instead).
        private static let sendFlags = Int32(MSG_NOSIGNAL)
        /// `SOCK_STREAM` as `socket(2)` takes it: Glibc imports it as a `__socket_type` case.
        private static let streamSocket = Int32(SOCK_STREAM.rawValue)
    #else
        private static let sendFlags: Int32 = 0
        /// `SOCK_STREAM` as `socket(2)` takes it: Darwin imports it as an `Int32`.
        private static let streamSocket = SOCK_STREAM
    #endif

    private func respond(_ connection: Int32, status: String, body: String) {
        let html = "<!doctype html><meta charset=utf-8><title>Latchkey</title><p>\(body)</p>\n"
        let response = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(html.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n" + html
        let bytes = Array(response.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Self.sendFlags) }
            guard count > 0 else { return }
            sent += count
        }
    }
}
