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
    /// The query parameters accepted, all passed to libpq as they are.
    package static let acceptedOptions: Set<String> = [
        "sslmode", "sslrootcert", "sslcert", "sslkey", "sslcrl", "target_session_attrs",
        "application_name",
    ]

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
        self.host = host
        self.port = port
        self.user = components.user.flatMap { $0.isEmpty ? nil : $0 }
        self.password = components.password.map(Redacted.init)
        self.database = path
        self.options = options
    }

    /// The URL with the password shown as `<redacted>`, for logs and error details.
    package var description: String {
        let login = user.map { user in password == nil ? "\(user)@" : "\(user):<redacted>@" } ?? ""
        let address = host.contains(":") ? "[\(host)]" : host
        let query = options.keys.sorted().map { "\($0)=\(options[$0] ?? "")" }.joined(separator: "&")
        return "postgres://\(login)\(address):\(port)/\(database)\(query.isEmpty ? "" : "?" + query)"
    }
}
