package import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A failure of the test client itself (not of the server under test).
package struct RawHTTPError: Error, CustomStringConvertible {
    /// What failed, with the system's reason.
    package let description: String
}

/// A response as read off the wire.
package struct RawHTTPResponse {
    /// The status line's code.
    package let status: Int
    /// The header fields in the order they came, names as sent.
    package let headers: [(name: String, value: String)]
    /// The body, as long as Content-Length said (empty for a HEAD request).
    package let body: Data

    /// The value of the first field named `header`, in any case.
    package subscript(header: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(header) == .orderedSame }?.value
    }

    /// The body as UTF-8 text.
    package var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking TCP client socket to drive the real server byte by byte: partial
/// requests, chunked bodies, idle connections. Every read has a receive timeout so a
/// broken server fails the test instead of hanging it.
package final class RawHTTPConnection {
    private let socketFD: Int32
    private var buffered = Data()

    /// Connects to `host` (an IPv4 or IPv6 literal) on `port`, from the IPv4 address `source`
    /// when given (any loopback address, such as 127.0.0.2, on Linux).
    package init(host: String = "127.0.0.1", port: Int, source: String? = nil, receiveTimeoutSeconds: Int = 10) throws {
        let isIPv6 = host.contains(":")
        socketFD = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw RawHTTPError(description: "socket() failed: \(errno)") }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw RawHTTPError(description: "bind to \(source) failed: \(String(cString: strerror(errno)))") }
        }
        let result: Int32
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else {
            // No close here: the object is fully initialised, so throwing runs deinit, which
            // closes the socket. Closing it twice could close a descriptor another thread
            // (a server under test) has been given meanwhile.
            throw RawHTTPError(description: "connect failed: \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        if socketFD >= 0 { close(socketFD) }
    }

    /// Whether a connection to `port` on 127.0.0.1 is actively refused right now.
    package static func isRefused(port: Int) -> Bool {
        do {
            _ = try RawHTTPConnection(port: port)
            return false
        } catch {
            return "\(error)".contains("refused")
        }
    }

    /// Sends `text` as UTF-8, all of it.
    package func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    /// Sends `data`, all of it.
    package func send(_ data: Data) throws {
        try data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(socketFD, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { throw RawHTTPError(description: "send failed: \(errno)") }
                offset += sent
            }
        }
    }

    /// Reads one response; `head` says the request was HEAD, so no body follows.
    package func readResponse(head: Bool = false) throws -> RawHTTPResponse {
        let separator = Data("\r\n\r\n".utf8)
        while buffered.range(of: separator) == nil {
            guard try receiveMore() else { throw RawHTTPError(description: "connection closed before a response") }
        }
        let headEnd = buffered.range(of: separator)!
        let lines = String(decoding: buffered[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        buffered = Data(buffered[headEnd.upperBound...])
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw RawHTTPError(description: "bad status line \(lines[0])")
        }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let length = head ? 0 : headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        while buffered.count < length {
            guard try receiveMore() else { throw RawHTTPError(description: "connection closed inside the body") }
        }
        let body = Data(buffered.prefix(length))
        buffered = Data(buffered.dropFirst(length))
        return RawHTTPResponse(status: status, headers: headers, body: body)
    }

    /// Waits (up to the receive timeout) for the server to close the connection without
    /// sending anything; true when it did.
    package func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        let received = recv(socketFD, &byte, 1, 0)
        return received == 0 || (received < 0 && errno == ECONNRESET)
    }

    /// Waits up to `milliseconds` for the server to close the connection (anything it sends
    /// first is read and dropped); true when it did.
    package func waitUntilClosed(milliseconds: Int) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return false }
            var descriptor = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let received = recv(socketFD, &chunk, chunk.count, 0)
            if received == 0 || (received < 0 && errno == ECONNRESET) { return true }
        }
    }

    /// The index of the first of `connections` with bytes to read (or closed), waiting up to
    /// `milliseconds`; nil when none is.
    package static func firstReadable(_ connections: [RawHTTPConnection], milliseconds: Int) -> Int? {
        var descriptors = connections.map { pollfd(fd: $0.socketFD, events: Int16(POLLIN), revents: 0) }
        guard poll(&descriptors, nfds_t(descriptors.count), Int32(milliseconds)) > 0 else { return nil }
        return descriptors.firstIndex { $0.revents != 0 }
    }

    /// Hangs up at once, as a client that vanishes would: shuts the socket down, and the
    /// final close (in deinit) sends a TCP reset because lingering is off.
    package func hangUp() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(socketFD, Int32(SHUT_RDWR))
    }

    private func receiveMore() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let received = recv(socketFD, &chunk, chunk.count, 0)
        if received < 0 {
            if errno == ECONNRESET { return false }
            throw RawHTTPError(description: "recv failed: \(String(cString: strerror(errno)))")
        }
        buffered.append(contentsOf: chunk[..<received])
        return received > 0
    }
}
