import LatchkeyCore
package import LatchkeyCrypto
import Foundation

/// Where a PostgreSQL database is and how to log in:
/// `postgres://user:password@host:port/database?sslmode=verify-full` (`postgresql://` too),
/// user and password percent-encoded.
///
/// The password is a secret: it is kept ``Redacted``, ``description`` shows it as
/// `<redacted>`, and no error about a URL ever quotes the URL.
package struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// The query parameters accepted, each checked (``check(option:value:in:)``) and passed to
    /// libpq as it is.
    package static let acceptedOptions: Set<String> = [
        "sslmode", "sslrootcert", "sslcert", "sslkey", "sslcrl", "target_session_attrs",
        "application_name", "connect_timeout",
    ]
    /// libpq's `sslmode` values.
    static let sslModes = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]
    /// libpq's `target_session_attrs` values.
    static let sessionAttributes = ["any", "read-write", "read-only", "primary", "standby", "prefer-standby"]
    /// The `connect_timeout` values accepted, in seconds (libpq waits at least 2).
    static let connectTimeouts = 2...300

    /// The server's host name or IP address.
    package let host: String
    /// The server's port (5432 unless the URL names another).
    package let port: Int
    /// The user to log in as; nil lets libpq choose (the operating system user).
    package let user: String?
    /// The login password, if the URL has one.
    package let password: Redacted<String>?
    /// The database name.
    package let database: String
    /// libpq connection parameters from the query string (``acceptedOptions``), e.g. `sslmode`.
    package let options: [String: String]

    /// Parses `text`; throws `invalid_configuration` saying what is wrong (never quoting
    /// `text`, which may hold the password).
    package init(_ text: String) throws {
        func invalid(_ problem: String) -> LatchkeyError {
            LatchkeyError(.invalidConfiguration, "LATCHKEY_DATABASE_URL \(problem)")
        }
        guard let components = URLComponents(string: text) else {
            throw invalid("is not a URL (postgres://user:password@host:port/database)")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw invalid("must start with postgres:// or postgresql://")
        }
        let host = (components.host ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        guard !host.isEmpty else {
            throw invalid("has no host (postgres://user:password@host:port/database)")
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else {
            throw invalid("has a port outside 1–65535")
        }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.isEmpty, !path.contains("/") else {
            throw invalid("must name one database (postgres://user:password@host:port/database)")
        }
        var options: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard Self.acceptedOptions.contains(item.name) else {
                throw invalid("has the parameter '\(item.name)'; accepted: \(Self.acceptedOptions.sorted().joined(separator: ", "))")
            }
            guard let value = item.value, !value.isEmpty, options[item.name] == nil else {
                throw invalid("must give the parameter '\(item.name)' one value")
            }
            options[item.name] = value
        }
        for (name, value) in options.sorted(by: { $0.key < $1.key }) {
            if let problem = Self.problem(option: name, value: value, in: options) { throw invalid(problem) }
        }
        self.host = host
        self.port = port
        self.user = components.user.flatMap { $0.isEmpty ? nil : $0 }
        self.password = components.password.map(Redacted.init)
        self.database = path
        self.options = options
    }

    /// What is wrong with the parameter `name` = `value` among `options`, or nil: the values
    /// libpq would take, files that are readable, and a root certificate only where it is
    /// used to verify (so `sslrootcert` never gives a false sense of verification).
    private static func problem(option name: String, value: String, in options: [String: String]) -> String? {
        switch name {
        case "sslmode":
            return sslModes.contains(value) ? nil : "sslmode must be one of \(sslModes.joined(separator: ", "))"
        case "connect_timeout":
            return Int(value).map(connectTimeouts.contains) == true
                ? nil : "connect_timeout must be a whole number of seconds from \(connectTimeouts.lowerBound) to \(connectTimeouts.upperBound)"
        case "target_session_attrs":
            return sessionAttributes.contains(value) ? nil : "target_session_attrs must be one of \(sessionAttributes.joined(separator: ", "))"
        case "application_name":
            return value.utf8.count <= 63 && !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
                ? nil : "application_name must be at most 63 bytes without control characters"
        default:
            // sslrootcert, sslcert, sslkey, sslcrl: files the server's user can read.
            guard FileManager.default.isReadableFile(atPath: value) else { return "\(name) '\(value)' is not a readable file" }
            if name == "sslrootcert", !["verify-ca", "verify-full"].contains(options["sslmode"] ?? "") {
                return "sslrootcert needs sslmode=verify-ca or verify-full"
            }
            return nil
        }
    }

    /// The URL with the password shown as `<redacted>`, for logs and error details.
    package var description: String {
        let login = user.map { user in password == nil ? "\(user)@" : "\(user):<redacted>@" } ?? ""
        let address = host.contains(":") ? "[\(host)]" : host
        let query = options.keys.sorted().map { "\($0)=\(options[$0] ?? "")" }.joined(separator: "&")
        return "postgres://\(login)\(address):\(port)/\(database)\(query.isEmpty ? "" : "?" + query)"
    }
}
