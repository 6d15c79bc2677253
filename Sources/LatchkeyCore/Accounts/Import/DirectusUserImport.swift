import Foundation
package import LatchkeyCrypto

/// `latchkey users import`: accounts made from the users of a Directus export, each kept as
/// Directus had it where Latchkey can keep it, refused with its reason where it cannot.
///
/// - The Directus `id` becomes the account's id (tokens' `sub` stays what apps stored).
/// - A password hash is kept as it is when ``PasswordHasher`` can verify it (any Argon2
///   variant, version and costs within Latchkey's limits), and replaced by one with current
///   costs at the account's next sign-in.
/// - `active` stays active; `suspended` and `archived` become disabled (no sign-in, no reset
///   mail). `invited`, `unverified` and `draft` users never proved their address, and
///   Latchkey has no account that has not: they become accounts without a password, which
///   cannot sign in until their owner completes a password reset — the mail proves the
///   address, as Directus's verification would have. Their Directus hash is not kept.
/// - A `tfa_secret` (Directus's base32 TOTP secret, 80 bits by default) becomes the account's
///   enrolled authenticator, sealed with the secret key like one enrolled here, in the same
///   transaction as the account: the person's authenticator app keeps working, and the account
///   is never without it. No recovery codes come with it (Directus has none); the person makes
///   them with a code (`POST /users/me/tfa/recovery-codes`).
/// - Reruns are idempotent: a user whose id and address are already an account is reported
///   as already imported and left as it is (a change made since, such as a new password, is
///   never undone).
package struct DirectusUserImport: Sendable {
    /// What became of one user of the export.
    package enum Outcome: Sendable, Equatable {
        /// A new account, with the status it got, whether it has a password and whether it has
        /// an authenticator.
        case imported(email: String, status: ImportedStatus, hasPassword: Bool, hasSecondFactor: Bool)
        /// An account with this id and address exists already; nothing was changed.
        case alreadyImported(email: String)
        /// Not imported, and why.
        case refused(reason: String)
    }

    /// The state an imported user's account starts in.
    package enum ImportedStatus: String, Sendable {
        /// Signs in with the password it had.
        case active
        /// Disabled, as `latchkey users disable` leaves an account.
        case disabled
        /// No password until its owner completes a reset.
        case unverified
    }

    /// The longest id kept (Directus's are 36-character UUIDs).
    static let maximumIDLength = 64
    /// The shortest TOTP secret taken: 80 bits, what Directus (otplib) generates.
    static let minimumSecretBytes = 10

    private let store: any Store
    private let hasher: PasswordHasher
    private let secretBox: SecretBox
    private let clock: any WallClock

    /// An import into `store`; `hasher` says which hashes can be verified, `secretBox` seals
    /// authenticator secrets (the server's secret key file).
    package init(store: any Store, hasher: PasswordHasher, secretBox: SecretBox, clock: any WallClock) {
        self.store = store
        self.hasher = hasher
        self.secretBox = secretBox
        self.clock = clock
    }

    /// Imports `record` (or, with `dryRun`, says what importing it would do, changing nothing).
    package func run(_ record: DirectusUserRecord, dryRun: Bool = false) throws -> Outcome {
        if let defect = record.defect { return .refused(reason: "the record \(defect)") }
        guard let email = record.email, let address = try? EmailAddress(email) else {
            return .refused(reason: record.email == nil ? "it has no email" : "its email is not a valid address")
        }
        if let id = record.id, !Self.isAcceptableID(id) {
            return .refused(reason: "its id is not 1 to \(Self.maximumIDLength) characters of A-Z, a-z, 0-9 and '-'")
        }
        let status: ImportedStatus
        switch record.status?.lowercased() {
        case "active": status = .active
        case "suspended", "archived": status = .disabled
        case "invited", "unverified", "draft": status = .unverified
        case nil: return .refused(reason: "it has no status")
        case .some(let other): return .refused(reason: "its status \(Self.quoted(other)) is not one Directus gives")
        }
        var totpSecret: Redacted<Data>?
        if let text = record.tfaSecret {
            guard let secret = Base32.decode(text), secret.count >= Self.minimumSecretBytes else {
                return .refused(reason: "its tfa_secret is not a base32 secret of at least 80 bits")
            }
            totpSecret = Redacted(secret)
        }
        var passwordHash: String?
        if status != .unverified, let password = record.password {
            guard password.trimmingCharacters(in: CharacterSet(charactersIn: "*")).isEmpty == false else {
                return .refused(reason: "its password is hidden (\(password.count) asterisks): Directus's API hides hashes; "
                    + "export directus_users from the database instead")
            }
            guard hasher.verificationCost(of: password) != nil else {
                return .refused(reason: "its password is not an Argon2 hash Latchkey can verify")
            }
            passwordHash = password
        }

        if let id = record.id, let existing = try store.account(id: id) {
            return existing.email == address.normalized
                ? .alreadyImported(email: existing.email)
                : .refused(reason: "its id is the id of the account \(existing.email)")
        }
        if let existing = try store.account(email: address.normalized) {
            return .refused(reason: "an account with the address \(existing.email) exists already (id \(existing.id))")
        }
        let outcome = Outcome.imported(
            email: address.normalized, status: status, hasPassword: passwordHash != nil, hasSecondFactor: totpSecret != nil)
        guard !dryRun else { return outcome }
        let account = Account(
            id: record.id ?? SecureRandom.identifier(), email: address.normalized, passwordHash: passwordHash,
            status: status == .disabled ? .disabled : .active, credentialVersion: 1, locale: Self.locale(record.language),
            createdAt: clock.now())
        let sealed = totpSecret.map { secretBox.seal($0.exposed, purpose: OneTimeCodeSignIn.secretPurpose, binding: account.id) }
        do {
            try store.createAccount(account, sealedSecondFactor: sealed)
        } catch let error as LatchkeyError where error.code == .accountExists {
            return .refused(reason: "an account with the address \(address.normalized) was created meanwhile")
        }
        return outcome
    }

    /// The supported language `language` (such as `pt-BR`) starts with, if any.
    static func locale(_ language: String?) -> String? {
        guard let primary = language?.split(separator: "-").first?.lowercased() else { return nil }
        return SupportedLanguage(rawValue: primary)?.rawValue
    }

    static func isAcceptableID(_ id: String) -> Bool {
        (1...maximumIDLength).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }

    /// `text` quoted for a report line, cut short and without control characters.
    private static func quoted(_ text: String) -> String {
        let shown = String(text.unicodeScalars.prefix(40).map { $0.properties.generalCategory == .control ? "?" : Character($0) })
        return "\"\(shown)\""
    }
}
