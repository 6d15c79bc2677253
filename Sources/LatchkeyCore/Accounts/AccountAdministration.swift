import Foundation
package import LatchkeyCrypto

/// What an operator does to accounts from the command line: create, list, enable, disable,
/// unlock, set a password or an address, list and end signed-in devices, delete.
package struct AccountAdministration: Sendable {
    private let store: any Store
    private let hasher: PasswordHasher
    private let policy: PasswordPolicy
    private let templates: MailTemplates
    private let clock: any WallClock

    /// Creates the service from its dependencies; `templates` write the mail an address change sends.
    package init(store: any Store, hasher: PasswordHasher, policy: PasswordPolicy, templates: MailTemplates, clock: any WallClock) {
        self.store = store
        self.hasher = hasher
        self.policy = policy
        self.templates = templates
        self.clock = clock
    }

    /// Moves the account with the address `current` to the address `new`, as an operator does
    /// it (the owner asked another way, or lost the old mailbox): every session of the account
    /// ends and its reset links stop working, and a mail to the old address says so, in the
    /// account's language, in the same transaction. Returns the new address, normalised.
    /// Throws `invalid_email`, `account_not_found` or `account_exists`.
    package func setEmail(current: String, new: String) throws -> String {
        let old = try EmailAddress(current)
        let moved = try EmailAddress(new)
        guard old.normalized != moved.normalized else {
            throw LatchkeyError(.invalidRequest, "The account has the address \(moved.normalized) already.")
        }
        let now = clock.now()
        let changed = try store.replaceEmail(current: old.normalized, new: moved.normalized, now: now) { account in
            try templates.notice(.operatorEmailChange(newAddressHint: moved.hint, changedAt: now), to: account)
        }
        guard changed != nil else { throw LatchkeyError(.accountNotFound, "No such account: \(old.normalized).") }
        return moved.normalized
    }

    /// Creates an active account after checking the address and the password policy.
    /// Throws `invalid_email`, `weak_password` or `account_exists`.
    @discardableResult
    package func createAccount(email: String, password: Redacted<String>, locale: String? = nil) throws -> Account {
        let address = try EmailAddress(email)
        let normalized = try policy.check(password, email: address)
        let account = Account(
            id: SecureRandom.identifier(), email: address.normalized, passwordHash: try hasher.hash(normalized),
            status: .active, credentialVersion: 1, locale: locale, createdAt: clock.now())
        try store.createAccount(account)
        return account
    }

    /// Every account, oldest first.
    package func accounts() throws -> [Account] {
        try store.allAccounts()
    }

    /// Disables the account with this address. Throws `account_not_found`.
    package func disable(email: String) throws {
        let address = try EmailAddress(email)
        guard try store.setStatus(.disabled, email: address.normalized) else {
            throw LatchkeyError(.accountNotFound, "No account has the address \(address.normalized).")
        }
    }

    /// Enables the account with this address again. Throws `account_not_found`.
    package func enable(email: String) throws {
        let address = try EmailAddress(email)
        guard try store.setStatus(.active, email: address.normalized) else {
            throw LatchkeyError(.accountNotFound, "No account has the address \(address.normalized).")
        }
    }

    /// Sets a new password for the account with this address after checking it against the
    /// password policy, and ends every session of the account, as a completed reset does.
    /// Throws `invalid_email`, `account_not_found` (decided first: an operator who mistyped
    /// the address learns that, not what is wrong with a password that would go nowhere) or
    /// `weak_password`.
    package func setPassword(email: String, password: Redacted<String>) throws {
        let address = try EmailAddress(email)
        let noSuchAccount = LatchkeyError(.accountNotFound, "No such account: \(address.normalized).")
        guard try store.account(email: address.normalized) != nil else { throw noSuchAccount }
        let normalized = try policy.check(password, email: address)
        // Deleted meanwhile.
        guard try store.replacePassword(email: address.normalized, newPasswordHash: try hasher.hash(normalized), now: clock.now()) else {
            throw noSuchAccount
        }
    }

    /// Deletes the account with this address and everything that belongs to it (tokens,
    /// sessions, mail not yet sent). Throws `account_not_found`.
    package func delete(email: String) throws {
        let address = try EmailAddress(email)
        guard try store.deleteAccount(email: address.normalized) else {
            throw LatchkeyError(.accountNotFound, "No account has the address \(address.normalized).")
        }
    }

    /// Ends every sign-in lockout of the account with this address, on every server at once
    /// (its failure counts start again from zero). Throws `account_not_found`.
    package func unlock(email: String) throws {
        let address = try EmailAddress(email)
        guard try store.clearSignInFailures(email: address.normalized, now: clock.now()) else {
            throw LatchkeyError(.accountNotFound, "No account has the address \(address.normalized).")
        }
    }

    /// Removes the second factor (authenticator app and recovery codes) of the account with this
    /// address, for a person who lost their phone and their recovery codes and proved who they
    /// are to the operator, and mails the owner in the same transaction. The next sign-in needs
    /// the password only; the owner can enrol again. Throws `account_not_found`, or
    /// `invalid_request` when the account has no second factor.
    package func resetSecondFactor(email: String) throws {
        let account = try existingAccount(email)
        let now = clock.now()
        let removed = try store.removeSecondFactor(.byOperator(accountID: account.id), now: now) { owner in
            try templates.notice(.secondFactorChanged(.removedByOperator, changedAt: now), to: owner)
        }
        guard removed == .changed else {
            throw LatchkeyError(.invalidRequest, "The account \(account.email) has no second factor.")
        }
    }

    /// The live logins (signed-in devices) of the account with this address, most recently used
    /// first. Throws `account_not_found`.
    package func logins(email: String) throws -> [LiveLogin] {
        try store.liveLogins(accountID: try existingAccount(email).id, now: clock.now())
    }

    /// Ends the login `id` of the account with this address, on every server at once. Throws
    /// `account_not_found`, or `login_not_found` when `id` is not one of its live logins.
    package func endLogin(email: String, id: String) throws {
        guard try store.endLogin(id: id, accountID: try existingAccount(email).id, now: clock.now()) else {
            throw LatchkeyError(.loginNotFound, "The account has no live login with the id \(id).")
        }
    }

    /// The account with this address. Throws `invalid_email` or `account_not_found`.
    private func existingAccount(_ email: String) throws -> Account {
        let address = try EmailAddress(email)
        guard let account = try store.account(email: address.normalized) else {
            throw LatchkeyError(.accountNotFound, "No account has the address \(address.normalized).")
        }
        return account
    }

    /// Whether `password` is the account's current password (for tests and operators).
    package func verifyPassword(email: String, password: Redacted<String>) throws -> Bool {
        let address = try EmailAddress(email)
        guard let hash = try store.account(email: address.normalized)?.passwordHash else { return false }
        return hasher.verify(PasswordPolicy.normalized(password), against: hash)
    }
}
