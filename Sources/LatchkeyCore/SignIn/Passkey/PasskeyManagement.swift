package import Foundation
package import LatchkeyCrypto
package import LatchkeyWebAuthn

/// The signed-in person's passkeys: adding one (W3C Web Authentication Level 3 §7.1,
/// ``RegistrationCeremony``), listing, renaming and deleting them. One call per route.
///
/// Promises:
/// - Adding one passes ``Reauthentication`` when its options are asked for (a recent sign-in,
///   with its second factor when one is enrolled; or the password, with a code), and its
///   challenge is bound to the account: a response is accepted only for the account that
///   asked, once, within five minutes.
/// - Every failed check is `invalid_passkey` with the WebAuthn code as its reason
///   (`challenge_not_found` for a challenge unknown, used, expired or another account's); a
///   credential ID registered already, to any account, is `passkey_exists`; an account has at
///   most ``maximumPasskeys`` (`passkey_limit_reached`).
/// - Deleting one passes ``Reauthentication`` and never leaves the account without a way to
///   sign in: no password and one passkey is `last_sign_in_method`, decided in the store
///   under the account's lock.
/// - Adding and deleting one mails the owner (``MailKind/passkeyChanged(_:name:changedAt:)``,
///   in the account's language, else the request's), queued in the transaction that makes the
///   change: a passkey is never added or removed without its mail (NIST SP 800-63B §6.1.2.1).
///   A failed registration, a refused deletion and a rename send nothing.
/// - Logs name the account and never a key, a challenge or a name.
package struct PasskeyManagement: Sendable {
    /// The most passkeys one account may have.
    package static let maximumPasskeys = 20
    /// The longest name, in characters.
    package static let maximumNameLength = 64

    private let store: any PasskeyStore
    private let challenges: PasskeyChallenges
    private let reauthentication: Reauthentication
    private let relyingParty: RelyingParty
    private let relyingPartyName: String
    private let templates: MailTemplates
    private let clock: any WallClock
    private let logger: Logger

    /// Creates it from its dependencies; `relyingPartyName` is what authenticators show
    /// beside the RP ID (the product's name); `templates` write the owner's mails.
    package init(
        store: any PasskeyStore, challenges: PasskeyChallenges, reauthentication: Reauthentication, relyingParty: RelyingParty,
        relyingPartyName: String, templates: MailTemplates, clock: any WallClock, logger: Logger
    ) {
        self.store = store
        self.challenges = challenges
        self.reauthentication = reauthentication
        self.relyingParty = relyingParty
        self.relyingPartyName = relyingPartyName
        self.templates = templates
        self.clock = clock
        self.logger = logger
    }

    /// The options for adding a passkey to `owner`'s account (`navigator.credentials.create`),
    /// asked for from `clientIP`, after ``Reauthentication`` (`currentPassword` and `code` when
    /// the sign-in is not recent). Throws `reauthentication_required`, `invalid_credentials`,
    /// `invalid_otp`, `passkey_limit_reached` or `rate_limited`.
    package func registrationOptions(
        _ owner: AccountOwner, currentPassword: Redacted<String>?, code: Redacted<String>?, clientIP: String
    ) throws -> PasskeyRegistrationOptions {
        try reauthentication.confirm(
            account: owner.account, assurance: owner.assurance, currentPassword: currentPassword, code: code, clientIP: clientIP)
        let existing = try store.passkeys(accountID: owner.account.id)
        guard existing.count < Self.maximumPasskeys else { throw Self.limitReached }
        guard let userHandle = try store.passkeyUserHandle(accountID: owner.account.id, creating: SecureRandom.bytes(32)) else {
            throw AccountSelfService.unauthenticated
        }
        let challenge = try challenges.issue(.registration, accountID: owner.account.id, clientIP: clientIP)
        return PasskeyRegistrationOptions(
            challenge: challenge, relyingPartyID: relyingParty.id, relyingPartyName: relyingPartyName, userHandle: userHandle,
            userName: owner.account.email, algorithms: relyingParty.algorithms, excluded: existing.map(\.credential),
            timeout: PasskeyChallenges.lifetime)
    }

    /// Verifies `response` for `owner`'s account, stores the passkey as `name` (nil: "Passkey"
    /// and the date) and mails the owner (in the account's language, else `acceptLanguage`'s).
    /// Throws `invalid_passkey` (with the reason), `passkey_exists`, `passkey_limit_reached`,
    /// `invalid_request` (a name that is not one), or `invalid_credentials` (401) when `owner`'s
    /// login ended before the passkey could be stored.
    package func register(_ owner: AccountOwner, response: RegistrationResponse, name: String?, acceptLanguage: String?) throws -> Passkey {
        let now = clock.now()
        let name = try name.map(Self.checkedName) ?? "Passkey " + String(Timestamp.iso8601(now).prefix(10))
        let credential: CredentialRecord
        do {
            guard let (challenge, record) = try challenges.consume(clientDataJSON: response.clientDataJSON, purpose: .registration),
                record.accountID == owner.account.id
            else { throw Self.invalid("challenge_not_found") }
            credential = try RegistrationCeremony.verify(response, challenge: challenge, relyingParty: relyingParty)
        } catch let error as WebAuthnError {
            logger.info("passkey_registration_failed", ["account": .string(owner.account.id), "reason": .string(error.code.rawValue)])
            throw Self.invalid(error.code.rawValue)
        } catch let error as LatchkeyError where error.code == .invalidPasskey {
            logger.info("passkey_registration_failed", ["account": .string(owner.account.id), "reason": .string(error.reasons.first ?? "")])
            throw error
        }
        guard let userHandle = try store.passkeyUserHandle(accountID: owner.account.id, creating: SecureRandom.bytes(32)) else {
            throw AccountSelfService.unauthenticated
        }
        let passkey = Passkey(
            credential: credential, accountID: owner.account.id, userHandle: userHandle, name: name, createdAt: now, lastUsedAt: nil)
        let added = try store.addPasskey(passkey, by: owner.login, limit: Self.maximumPasskeys) { account in
            try templates.notice(.passkeyChanged(.added, name: name, changedAt: now), to: account, acceptLanguage: acceptLanguage)
        }
        switch added {
        case .added:
            logger.info("passkey_registered", [
                "account": .string(owner.account.id), "algorithm": .string(credential.algorithm.name),
                "synced": .bool(credential.backupState),
            ])
            return passkey
        case .exists:
            throw LatchkeyError(.passkeyExists, "This passkey is registered already.")
        case .limitReached:
            throw Self.limitReached
        case .signInEnded:
            throw AccountSelfService.unauthenticated
        }
    }

    /// `owner`'s passkeys, newest first.
    package func passkeys(of owner: AccountOwner) throws -> [Passkey] {
        try store.passkeys(accountID: owner.account.id)
    }

    /// Renames `owner`'s passkey `credentialID` to `name`. Throws `passkey_not_found` or
    /// `invalid_request`.
    package func rename(_ credentialID: Data, of owner: AccountOwner, to name: String) throws -> Passkey {
        guard let renamed = try store.renamePasskey(accountID: owner.account.id, credentialID: credentialID, name: try Self.checkedName(name))
        else { throw Self.notFound }
        return renamed
    }

    /// Deletes `owner`'s passkey `credentialID`, from `clientIP`, after ``Reauthentication``,
    /// and mails the owner (in the account's language, else `acceptLanguage`'s). Throws what
    /// ``Reauthentication/confirm(account:assurance:currentPassword:code:clientIP:)`` throws,
    /// `passkey_not_found`, `last_sign_in_method`, or `invalid_credentials` (401) when `owner`'s
    /// login ended before the deletion.
    package func delete(
        _ credentialID: Data, of owner: AccountOwner, currentPassword: Redacted<String>?, code: Redacted<String>?, clientIP: String,
        acceptLanguage: String?
    ) throws {
        try reauthentication.confirm(
            account: owner.account, assurance: owner.assurance, currentPassword: currentPassword, code: code, clientIP: clientIP)
        let now = clock.now()
        let deletion = try store.deletePasskey(by: owner.login, credentialID: credentialID, now: now) { account, name in
            try templates.notice(.passkeyChanged(.removed, name: name, changedAt: now), to: account, acceptLanguage: acceptLanguage)
        }
        switch deletion {
        case .deleted:
            logger.info("passkey_deleted", ["account": .string(owner.account.id)])
        case .notFound:
            throw Self.notFound
        case .lastSignInMethod:
            throw LatchkeyError(
                .lastSignInMethod, "This is the account's only way to sign in: set a password or add another passkey first.")
        case .signInEnded:
            throw AccountSelfService.unauthenticated
        }
    }

    /// `name` trimmed, if it has 1 to ``maximumNameLength`` characters and no
    /// ``Unicode/Scalar/isLayoutControl`` scalar (a control or text-direction character).
    private static func checkedName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard (1...maximumNameLength).contains(trimmed.count), !trimmed.unicodeScalars.contains(where: \.isLayoutControl) else {
            throw LatchkeyError(
                .invalidRequest,
                "A passkey's name has 1 to \(maximumNameLength) characters, without control or text-direction characters.")
        }
        return trimmed
    }

    private static func invalid(_ reason: String) -> LatchkeyError {
        LatchkeyError(.invalidPasskey, "The passkey could not be verified.", reasons: [reason])
    }

    private static let notFound = LatchkeyError(.passkeyNotFound, "This account has no passkey with this id.")
    private static let limitReached = LatchkeyError(
        .passkeyLimitReached, "This account has as many passkeys as it may have (\(maximumPasskeys)); delete one first.")
}

/// What the options of a registration carry (`PublicKeyCredentialCreationOptions`).
package struct PasskeyRegistrationOptions: Sendable {
    /// The challenge's bytes.
    package let challenge: Data
    /// The RP ID.
    package let relyingPartyID: String
    /// The RP's name, which authenticators may show.
    package let relyingPartyName: String
    /// The account's user handle (`user.id`).
    package let userHandle: Data
    /// The account's address (`user.name` and `user.displayName`).
    package let userName: String
    /// The algorithms accepted, in order of preference.
    package let algorithms: [COSEAlgorithm]
    /// The account's passkeys, which the authenticator must not register again.
    package let excluded: [CredentialRecord]
    /// How long the ceremony may take.
    package let timeout: TimeInterval
}
