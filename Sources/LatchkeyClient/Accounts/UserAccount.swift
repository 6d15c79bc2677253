public import Foundation

/// The signed-in person's account as the server describes it (`GET /users/me`).
public struct UserAccount: Sendable, Equatable {
    /// The account's stable identifier (the `sub` of its tokens).
    public let id: String
    /// Its address. An address change shows here only once the new address confirmed its link.
    public let email: String
    /// Whether the address was confirmed (always, on Latchkey: by the sign-up's link, or
    /// vouched for by the operator who created the account).
    public let emailVerified: Bool
    /// Directus's status of the account, `active` for one that can sign in.
    public let status: String
    /// The account's language (`en`, `pt`, …), nil when it has none.
    public let language: String?

    /// An account with the given values.
    public init(id: String, email: String, emailVerified: Bool, status: String, language: String?) {
        self.id = id
        self.email = email
        self.emailVerified = emailVerified
        self.status = status
        self.language = language
    }

    /// The account in a reply's `{"data": {…}}`.
    ///
    /// - Throws: `unexpected_response` (`malformed_account`) when `id`, `email` or `status` is missing.
    init(reply: HTTPReply) throws {
        guard let data = (try? reply.jsonObject())?["data"] as? [String: Any], let id = data["id"] as? String,
            let email = data["email"] as? String, let status = data["status"] as? String
        else { throw LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_account"], status: reply.status) }
        self.init(
            id: id, email: email, emailVerified: data["email_verified"] as? Bool ?? false, status: status,
            language: data["language"] as? String)
    }
}

/// A device (a login: an app or a browser) signed in to the account (`GET /users/me/sessions`).
public struct SignedInDevice: Sendable, Equatable, Identifiable {
    /// The login's identifier, for ``AccountClient/signOut(device:)``.
    public let id: String
    /// The OAuth client it signed in through; nil for a password sign-in (`/auth/login`).
    public let clientID: String?
    /// When the person signed in on it.
    public let signedInAt: Date
    /// When it last renewed its tokens (or signed in).
    public let lastUsedAt: Date
    /// The network address it signed in from, shortened as the server logs it (`203.0.113.0`).
    public let ip: String?
    /// What it is, in words (`Safari on iOS`, `curl`); nil when unknown.
    public let userAgent: String?
    /// Whether this is the device asking: the ``AuthSession`` the list was read with.
    public let isCurrent: Bool

    /// A device with the given values.
    public init(
        id: String, clientID: String?, signedInAt: Date, lastUsedAt: Date, ip: String?, userAgent: String?, isCurrent: Bool
    ) {
        self.id = id
        self.clientID = clientID
        self.signedInAt = signedInAt
        self.lastUsedAt = lastUsedAt
        self.ip = ip
        self.userAgent = userAgent
        self.isCurrent = isCurrent
    }

    /// The devices in a reply's `{"data": [{…}, …]}`, in the server's order (most recently used first).
    ///
    /// - Throws: `unexpected_response` (`malformed_device_list`) when an entry lacks `id` or a date.
    static func list(in reply: HTTPReply) throws -> [SignedInDevice] {
        let malformed = LatchkeyClientError(.unexpectedResponse, reasons: ["malformed_device_list"], status: reply.status)
        guard let entries = (try? reply.jsonObject())?["data"] as? [Any] else { throw malformed }
        return try entries.map { entry in
            guard let fields = entry as? [String: Any], let id = fields["id"] as? String,
                let signedInAt = (fields["signed_in_at"] as? String).flatMap(Self.date),
                let lastUsedAt = (fields["last_used_at"] as? String).flatMap(Self.date)
            else { throw malformed }
            return SignedInDevice(
                id: id, clientID: fields["client_id"] as? String, signedInAt: signedInAt, lastUsedAt: lastUsedAt,
                ip: fields["ip"] as? String, userAgent: fields["user_agent"] as? String, isCurrent: fields["current"] as? Bool ?? false)
        }
    }

    /// An RFC 3339 date, with or without fractional seconds.
    private static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: text)
    }
}
