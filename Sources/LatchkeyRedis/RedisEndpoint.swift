import LatchkeyCore
package import LatchkeyCrypto
import Foundation

/// Where a Redis server listens and how to log in to it, parsed from a
/// `redis://[[username]:password@]host[:port][/database]` URL, or `rediss://…` for TLS (the
/// server's certificate verified against ``caFile`` or the system's CAs). The password is
/// ``Redacted`` and appears in no description or error.
package struct RedisEndpoint: Sendable, CustomStringConvertible {
    /// Host name or IP address.
    package let host: String
    /// TCP port (6379 unless the URL names one).
    package let port: Int
    /// The ACL user for `AUTH` (Redis 6+); nil logs in as the default user.
    package let username: String?
    /// The password for `AUTH`; nil sends no `AUTH`.
    package let password: Redacted<String>?
    /// The database number for `SELECT` (0 unless the URL has a path).
    package let database: Int
    /// Whether the connection is TLS (`rediss://`).
    package let tls: Bool
    /// A PEM file of the CAs to trust for the server's certificate instead of the system's
    /// (TLS only).
    package let caFile: String?

    /// Creates an endpoint from its parts.
    package init(
        host: String, port: Int = 6379, username: String? = nil, password: Redacted<String>? = nil, database: Int = 0,
        tls: Bool = false, caFile: String? = nil
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
        self.caFile = caFile
    }

    /// Parses `redis://[[username]:password@]host[:port][/database]` or `rediss://…` (TLS;
    /// user name and password percent-decoded); `caFile` is for `rediss://` only. Throws
    /// `invalid_configuration` starting with `settingName`; the message never repeats the URL,
    /// which may hold the password.
    package init(url text: String, settingName: String = "The Redis URL", caFile: String? = nil) throws {
        func invalid(_ problem: String) -> LatchkeyError {
            LatchkeyError(.invalidConfiguration, "\(settingName) \(problem)")
        }
        let form = "must be redis://[[user]:password@]host[:port][/database] (rediss:// for TLS)"
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw invalid(form)
        }
        guard scheme == "redis" || scheme == "rediss", let rawHost = components.host, !rawHost.isEmpty else { throw invalid(form) }
        guard components.query == nil, components.fragment == nil else { throw invalid("must not have a query or fragment") }
        let port = components.port ?? 6379
        guard (1...65_535).contains(port) else { throw invalid("has a port outside 1–65535") }
        let path = components.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        guard let database = path.isEmpty ? 0 : Int(path), database >= 0, path.allSatisfy(\.isNumber) else {
            throw invalid("must name the database as a number after the port, e.g. redis://host:6379/0")
        }
        var host = rawHost
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let username = components.user.flatMap { $0.isEmpty ? nil : $0 }
        let password = components.password.flatMap { $0.isEmpty ? nil : $0 }
        if username != nil, password == nil { throw invalid("has a user name but no password") }
        self.init(
            host: host, port: port, username: username, password: password.map(Redacted.init), database: database,
            tls: scheme == "rediss", caFile: caFile)
    }

    /// `redis://host:port/database` (`rediss://` for TLS), with any user name but never the password.
    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let user = username.map { "\($0)@" } ?? ""
        return "\(tls ? "rediss" : "redis")://\(user)\(shownHost):\(port)/\(database)"
    }
}
