public import Foundation

/// One of the account's passkeys, as ``AccountClient/passkeys()`` lists them.
public struct Passkey: Sendable, Equatable, Identifiable {
    /// The credential ID in unpadded base64url: what names it in the routes.
    public let id: String
    /// The name the person gave it, or the server's ("Passkey" and the date).
    public let name: String
    /// When it was made.
    public let createdAt: Date
    /// When it last signed in, if it ever did.
    public let lastUsedAt: Date?
    /// Whether it is synced (backed up: iCloud Keychain, a password manager) rather than bound
    /// to one device, as its authenticator last said.
    public let isSynced: Bool
    /// The transports its authenticator named at registration (`internal`, `hybrid`, …).
    public let transports: [String]

    /// A passkey from its parts, for previews and tests.
    public init(id: String, name: String, createdAt: Date, lastUsedAt: Date?, isSynced: Bool, transports: [String] = []) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.isSynced = isSynced
        self.transports = transports
    }

    /// The longest name, in Unicode scalars, that the server keeps.
    public static let maximumNameLength = 64

    /// `name` as the server would keep it — whitespace trimmed, 1 to ``maximumNameLength``
    /// Unicode scalars, no control character — or nil when it would be refused. For a form's
    /// Save button.
    public static func validName(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...maximumNameLength).contains(trimmed.unicodeScalars.count),
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return trimmed
    }

    /// The passkey in a reply's `data` member.
    ///
    /// - Throws: `unexpected_response` (`malformed_passkey`) when it lacks a member, or its ID is
    ///   not a credential ID in base64url.
    init(json: Any?, status: Int?) throws {
        guard let fields = json as? [String: Any], let id = fields["id"] as? String,
            Base64URL.decode(id).map({ PasskeyOptionsReader.credentialIDLength.contains($0.count) }) == true,
            let name = fields["name"] as? String, let createdAt = (fields["created_at"] as? String).flatMap(Self.date),
            let synced = fields["synced"] as? Bool
        else { throw LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_passkey"], status: status) }
        let lastUsedAt: Date?
        switch fields["last_used_at"] {
        case nil, is NSNull: lastUsedAt = nil
        case let text as String:
            guard let date = Self.date(text) else { throw LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_passkey"], status: status) }
            lastUsedAt = date
        default: throw LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_passkey"], status: status)
        }
        self.init(
            id: id, name: name, createdAt: createdAt, lastUsedAt: lastUsedAt, isSynced: synced,
            transports: (fields["transports"] as? [Any] ?? []).prefix(8).compactMap { $0 as? String })
    }

    /// The passkeys of a `{"data": [{…}, …]}` reply, in the server's order (newest first).
    static func list(in reply: HTTPReply) throws -> [Passkey] {
        guard let entries = (try? reply.jsonObject())?["data"] as? [Any] else {
            throw LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_passkey"], status: reply.status)
        }
        return try entries.map { try Passkey(json: $0, status: reply.status) }
    }

    /// An RFC 3339 date, with or without fractional seconds.
    private static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: text)
    }
}
