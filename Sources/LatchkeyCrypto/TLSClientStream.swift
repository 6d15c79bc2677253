import CLinux
import COpenSSL
import Foundation
import Glibc

/// A TLS client connection over TCP (OpenSSL's libssl), for a server that speaks TLS from its
/// first byte (Redis's `rediss://`): TLS 1.2 or 1.3 only, the server's certificate verified
/// against `caFile` (else the system's CAs) and for the host connected to (its DNS name, or
/// its IP address in the certificate's subject alternative names), with SNI for a name.
///
/// The socket, the `SSL` and its context belong to this object and are freed in `deinit`; no
/// OpenSSL type leaves it. Every read and write waits at most the I/O timeout; failures throw
/// ``LatchkeyCryptoError`` `tls_failure` with OpenSSL's or the system's reason as detail
/// (certificate problems by name: "certificate has expired", "hostname mismatch"). Not for
/// use from two threads at once.
package final class TLSClientStream {
    private let descriptor: Int32
    private let context: OpaquePointer
    private let ssl: OpaquePointer

    /// Connects to `host`:`port` within `connectTimeout` seconds (the TCP connection and the
    /// TLS handshake each), then gives every read and write `ioTimeout` seconds.
    package init(host: String, port: Int, caFile: String?, connectTimeout: Double, ioTimeout: Double) throws {
        let descriptor = try Self.connectTCP(host: host, port: port, timeout: connectTimeout)
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            close(descriptor)
            throw Self.failure("TLS could not start", detail: Self.openSSLError())
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        let trusted = caFile.map { SSL_CTX_load_verify_locations(context, $0, nil) } ?? SSL_CTX_set_default_verify_paths(context)
        guard latchkey_ssl_ctx_min_tls12(context) == 1, trusted == 1, let ssl = SSL_new(context) else {
            let detail = caFile.map { "cannot load the CA file \($0): \(Self.openSSLError())" } ?? Self.openSSLError()
            SSL_CTX_free(context)
            close(descriptor)
            throw Self.failure("TLS could not start", detail: detail)
        }
        self.descriptor = descriptor
        self.context = context
        self.ssl = ssl
        // What the certificate must name: an IP address literal is matched against its IP
        // SANs, a name against its DNS names (and sent as SNI).
        let parameters = SSL_get0_param(ssl)
        let isAddress = host.withCString { name -> Bool in
            var address = in6_addr()
            return inet_pton(AF_INET, name, &address) == 1 || inet_pton(AF_INET6, name, &address) == 1
        }
        let named = isAddress
            ? X509_VERIFY_PARAM_set1_ip_asc(parameters, host) == 1
            : X509_VERIFY_PARAM_set1_host(parameters, host, 0) == 1 && latchkey_ssl_set_server_name(ssl, host) == 1
        guard named, SSL_set_fd(ssl, descriptor) == 1 else { throw Self.failure("TLS could not start", detail: Self.openSSLError()) }
        try Self.setTimeout(connectTimeout, on: descriptor)
        guard Self.withoutSIGPIPE({ latchkey_ssl_call(ssl, 0, nil, 0) }) == 1 else {
            let verification = SSL_get_verify_result(ssl)
            let detail = verification == X509_V_OK
                ? Self.openSSLError() : "certificate: " + String(cString: X509_verify_cert_error_string(verification))
            throw Self.failure("The TLS handshake with \(host):\(port) failed", detail: detail)
        }
        try Self.setTimeout(ioTimeout, on: descriptor)
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
        close(descriptor)
    }

    /// Sends all of `bytes`. Throws `tls_failure` when the connection fails or times out.
    package func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBufferPointer { buffer in
                Self.withoutSIGPIPE { latchkey_ssl_call(ssl, 1, UnsafeMutableRawPointer(mutating: buffer.baseAddress! + offset), Int32(bytes.count - offset)) }
            }
            guard written > 0 else { throw failure(of: written, "The TLS connection failed while sending") }
            offset += Int(written)
        }
    }

    /// Up to `maximum` bytes as they arrive; empty when the server closed the connection.
    /// Throws `tls_failure` when the connection fails or the I/O timeout passes.
    package func read(maximum: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let count = buffer.withUnsafeMutableBytes { bytes in Self.withoutSIGPIPE { latchkey_ssl_call(ssl, 2, bytes.baseAddress, Int32(maximum)) } }
        if count > 0 { return Array(buffer.prefix(Int(count))) }
        let error = SSL_get_error(ssl, count)
        if error == SSL_ERROR_ZERO_RETURN || (error == SSL_ERROR_SYSCALL && errno == 0) { return [] }
        throw failure(of: count, "The TLS connection failed while receiving")
    }

    /// Whether the server sent something or closed the connection while it sat idle (bytes
    /// OpenSSL holds, or a readable socket, a hang-up or an error): for a request–reply
    /// protocol, a connection that must not carry the next request.
    package var stirredWhileIdle: Bool {
        if SSL_pending(ssl) > 0 { return true }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) != 0
    }

    private func failure(of result: Int32, _ what: String) -> LatchkeyCryptoError {
        let code = SSL_get_error(ssl, result)
        let number = errno
        if code == SSL_ERROR_SYSCALL, number == EPIPE || number == ECONNRESET {
            return Self.failure(what, detail: "closed by the server (\(String(cString: strerror(number))))")
        }
        if code == SSL_ERROR_SYSCALL, number == EAGAIN || number == EWOULDBLOCK {
            return Self.failure(what, detail: "timed out")
        }
        return Self.failure(what, detail: code == SSL_ERROR_SYSCALL ? String(cString: strerror(number)) : Self.openSSLError())
    }

    /// Runs `call` (which may write to the socket) with SIGPIPE blocked on this thread, and
    /// consumes one it raised before the mask is restored: a server that closed the connection
    /// is an error, not the end of the process, and no process-wide disposition changes (as
    /// for hiredis, in the CHiredis shim).
    private static func withoutSIGPIPE(_ call: () -> Int32) -> Int32 {
        var pipeOnly = sigset_t(), previous = sigset_t(), pending = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
        sigpending(&pending)
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        let result = call()
        let callErrno = errno
        if !wasPending {
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var noWait = timespec(tv_sec: 0, tv_nsec: 0)
                sigtimedwait(&pipeOnly, nil, &noWait)
            }
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        errno = callErrno
        return result
    }

    private static func failure(_ message: String, detail: String) -> LatchkeyCryptoError {
        LatchkeyCryptoError(.tlsFailure, message, detail: detail)
    }

    /// The oldest error on OpenSSL's queue for this thread, and the queue cleared.
    private static func openSSLError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no detail" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func setTimeout(_ seconds: Double, on descriptor: Int32) throws {
        let whole = seconds.rounded(.down)
        var value = timeval(tv_sec: Int(whole), tv_usec: Int((seconds - whole) * 1_000_000))
        let size = socklen_t(MemoryLayout<timeval>.size)
        guard setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, size) == 0,
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, size) == 0
        else { throw failure("The socket's timeout could not be set", detail: String(cString: strerror(errno))) }
    }

    /// A connected TCP socket to the first of `host`'s addresses that answers within `timeout`.
    private static func connectTCP(host: String, port: Int, timeout: Double) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw failure("Cannot resolve \(host)", detail: String(cString: gai_strerror(resolved)))
        }
        defer { freeaddrinfo(first) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { continue }
            let flags = fcntl(descriptor, F_GETFL)
            _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
            var status = connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen)
            if status != 0, errno == EINPROGRESS {
                var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&poller, 1, Int32(min(timeout * 1000, Double(Int32.max))))
                var problem: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if ready == 1, getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &problem, &length) == 0, problem == 0 {
                    status = 0
                } else {
                    errno = ready == 0 ? ETIMEDOUT : (problem != 0 ? problem : errno)
                }
            }
            if status == 0 {
                _ = fcntl(descriptor, F_SETFL, flags)
                var noDelay: Int32 = 1
                _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
                return descriptor
            }
            lastError = String(cString: strerror(errno))
            close(descriptor)
        }
        throw failure("Cannot connect to \(host):\(port)", detail: lastError)
    }
}
