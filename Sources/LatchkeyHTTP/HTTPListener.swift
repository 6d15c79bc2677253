package import LatchkeyCore

/// A listening socket bound before the server that serves it starts, so that the port the
/// system picks for port 0 is known while the routes are built (the public URL in reset
/// links and OAuth metadata names it). Connections wait in the socket's backlog until
/// ``HTTPServer/start()``; a listener never handed to a started server closes when released.
package final class HTTPListener: Sendable {
    let acceptor: ConnectionAcceptor

    /// Binds to `host` (an IP address) and `port` (0 picks a free one) and listens. Throws
    /// `invalid_configuration` for a host that is no IP address, `http_server_error` naming
    /// the address when it cannot listen there (e.g. the port is taken).
    package init(host: String, port: Int, logger: Logger? = nil) throws {
        guard let address = IPAddress(host) else {
            throw LatchkeyError(.invalidConfiguration, "The listen host \(host) is not an IP address.")
        }
        acceptor = try ConnectionAcceptor(host: address, port: port, logger: logger)
    }

    /// The port listened on: the one the system picked when 0 was asked for.
    package var port: Int { acceptor.port }
}
