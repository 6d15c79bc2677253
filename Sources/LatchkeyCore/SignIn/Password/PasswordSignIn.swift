package import Foundation
package import LatchkeyCrypto

/// The password as a ``SignInMethod``: checks an email and password wherever a person signs in
/// with them (through ``SignInService``: `/auth/login` and the `/oauth/authorize` sign-in form).
///
/// Promises:
/// - One error, `invalid_credentials`, for an unknown account, a wrong password, a disabled
///   account and an address that is not one, after Argon2 work of the same cost on every path
///   (an unknown address costs what a stored hash costs, see ``VerificationCostProfile``).
/// - Limits that stop guessing without locking the owner out (``Limits``): every attempt
///   counts against the client IP's budget; failures are limited per (account, IP) and per
///   IP, counted *before* the hash runs and refunded on success, so concurrent attempts
///   cannot exceed a limit. At the account level there is first a throttle: once the account
///   has drawn many failures from anywhere, each address may try it once every few seconds;
///   then the cap below, which a recognised device never meets, so the owner's own devices
///   get through at once however many addresses attack the account, and nothing ever locks
///   the account. Beyond a limit the error is `rate_limited` with the
///   seconds to wait; attempts while waiting are refused without being counted and never
///   lengthen the wait (not even the client's own), so the owner who mistyped ten times and
///   comes back when told gets in: accounts are throttled, never locked.
/// - An account-wide cap for devices it does not recognise (``Limits/failuresPerAccount``): past
///   20 failures in 15 minutes, or 100 in a day, on one account from any number of addresses,
///   a device that is not a recognised device of the account (``RecognisedDevices``) gets
///   `rate_limited` until the window has room, right password or not, so guessing one account
///   is held to 100 tries a day (NIST SP 800-63B §5.2.2). An address without an account is
///   counted under its keyed hash by the same rule, so the answer never tells whether it has
///   one.
/// - A recognised device of the account passes every limit above, whatever the attack: its
///   failures are counted per device instead (``Limits/failuresPerDevice``), so a copied
///   device token is no better than one address.
/// - The account's failure counts are kept per credential version and failure epoch, so a
///   completed reset and `latchkey users unlock` clear them at once, on every server.
/// - A success rehashes a password whose Argon2 parameters are below the configured ones.
package struct PasswordSignIn: SignInMethod {
    /// The limits of sign-in.
    package struct Limits: Sendable {
        /// Every attempt, right or wrong, from one client IP (`LATCHKEY_LOGIN_IP_LIMIT`).
        package var attemptsPerIP: RateLimitPolicy
        /// Failures for one account from one client IP: the hard limit on guessing.
        package var failuresPerAccountAndIP: RateLimitPolicy
        /// Failures from one client IP, whatever the account (password spraying).
        package var failuresPerIP: RateLimitPolicy
        /// Failures for one account from any IP before the account is throttled.
        package var failuresBeforeThrottle: RateLimitPolicy
        /// While the account is throttled: at most one attempt per window from each address.
        package var throttle: RateLimitPolicy
        /// Failures for one account from devices it does not recognise, from any address: the
        /// account-wide cap.
        package var failuresPerAccount: RateLimitPolicy
        /// Failures from one recognised device of an account.
        package var failuresPerDevice: RateLimitPolicy

        /// The limits with `attemptsPerIP` and `failuresPerAccountAndIP` as given (the latter 10
        /// failures in 15 minutes unless set) and the documented others: 50 failures per IP in
        /// 15 minutes; beyond a failure limit a wait until the window has room again, at least
        /// a minute (or the window, when shorter), that attempts while waiting never lengthen;
        /// after 10 failures in 15 minutes from anywhere, one attempt at the account every 2
        /// seconds from each address; the account-wide cap of 20 failures in 15 minutes and 100
        /// in a day from unrecognised devices; for a recognised device, the limit of
        /// `failuresPerAccountAndIP` on its own failures.
        package init(attemptsPerIP: RateLimitPolicy.Window, failuresPerAccountAndIP: RateLimitPolicy.Window = Self.defaultFailuresPerAccountAndIP) {
            self.attemptsPerIP = RateLimitPolicy(windows: [attemptsPerIP])
            self.failuresPerAccountAndIP = RateLimitPolicy(
                windows: [failuresPerAccountAndIP], basePenalty: min(Self.shortestWait, failuresPerAccountAndIP.seconds))
            failuresPerIP = RateLimitPolicy(windows: [.init(limit: 50, seconds: 900)], basePenalty: Self.shortestWait)
            failuresBeforeThrottle = RateLimitPolicy(windows: [.init(limit: 10, seconds: 900)])
            throttle = RateLimitPolicy(windows: [.init(limit: 1, seconds: 2)])
            failuresPerAccount = RateLimitPolicy(windows: [.init(limit: 20, seconds: 900), .init(limit: 100, seconds: 86_400)])
            failuresPerDevice = self.failuresPerAccountAndIP
        }

        /// 10 failures for one account from one IP in 15 minutes (`LATCHKEY_LOGIN_FAILURE_LIMIT`).
        package static let defaultFailuresPerAccountAndIP = RateLimitPolicy.Window(limit: 10, seconds: 900)
        /// The shortest wait beyond a failure limit, in seconds.
        static let shortestWait: TimeInterval = 60
    }

    private let store: any AccountStore
    private let hasher: PasswordHasher
    private let limiter: any RateLimiter
    private let limits: Limits
    private let costs: VerificationCostProfile
    private let addressKey: AddressKey
    private let logger: Logger
    private let metrics: any SignInMetrics
    private let devices: RecognisedDevices?
    /// The method's name in `latchkey_sign_ins_total`.
    static let methodName = "password"

    /// Creates it from its dependencies; `addressKey` keys the hashes of addresses in limiter
    /// keys; `devices` tells recognised devices (nil: none is, every device is capped).
    package init(
        store: any AccountStore, hasher: PasswordHasher, limiter: any RateLimiter, limits: Limits,
        costs: VerificationCostProfile, addressKey: Redacted<Data>, logger: Logger, metrics: any SignInMetrics,
        devices: RecognisedDevices? = nil
    ) {
        self.devices = devices
        self.metrics = metrics
        self.store = store
        self.hasher = hasher
        self.limiter = limiter
        self.limits = limits
        self.costs = costs
        self.addressKey = AddressKey(addressKey)
        self.logger = logger
    }

    package var reference: AuthenticationMethodReference { .password }

    /// Checks a ``SignInCredential/password(email:password:)`` credential (the password as
    /// typed; normalised here) and returns its account. Throws `invalid_credentials` (never
    /// why) or `rate_limited` with the seconds to wait, or `rate_limiter_unavailable`.
    package func authenticate(_ credential: SignInCredential, clientIP: String, now: Date) throws -> Account? {
        switch credential {
        case .password(let email, let password, let device):
            try attempt(email: email, password: PasswordPolicy.normalized(password), device: device, clientIP: clientIP, now: now)
        case .oneTimeCode, .passkey:
            nil
        }
    }

    /// Checks `password` (already NFC-normalised) for the account `email` from `clientIP` at
    /// `now`, and returns the account.
    private func attempt(email: String, password: Redacted<String>, device: DeviceToken?, clientIP: String, now: Date) throws
        -> Account
    {
        // An address that is not one is looked up nowhere; it is limited like any other.
        let address = try? EmailAddress(email)
        if let device, let devices, let address, let account = try store.account(email: address.normalized),
            try devices.isRecognised(device, of: account, now: now)
        {
            return try recognisedAttempt(account, password: password, device: device, clientIP: clientIP, now: now)
        }
        let ip = IPAddress.rateLimitKey(clientIP)
        try consume("login-ip:" + ip, limits.attemptsPerIP, now: now, clientIP: clientIP)
        let account = try address.map { try store.account(email: $0.normalized) } ?? nil
        let subject = account.map { "account:\($0.id).\($0.credentialVersion).\($0.failureEpoch)" }
            ?? "address:" + addressKey.hash(address?.normalized ?? email)

        // Counted before the hash, so no number of concurrent attempts gets past a limit.
        let pairKey = "login-fail:" + subject + "@" + ip
        try consume(pairKey, limits.failuresPerAccountAndIP, now: now, clientIP: clientIP)
        var counted = [(pairKey, limits.failuresPerAccountAndIP)]
        do {
            try consume("login-fail-ip:" + ip, limits.failuresPerIP, now: now, clientIP: clientIP)
            counted.append(("login-fail-ip:" + ip, limits.failuresPerIP))
            // Under attack, every address is slowed to one attempt per throttle window; each
            // address has its own turn, so an attacker's attempts take none from the owner.
            let accountFailures = "login-fail-account:" + subject
            if case .limited = try limiter.check(accountFailures, policy: limits.failuresBeforeThrottle, now: now) {
                try consume("login-throttle:" + subject + "@" + ip, limits.throttle, now: now, clientIP: clientIP)
            }
            // The account-wide cap: from any number of addresses, an unrecognised device is
            // held to the account's failure budget, counted before the hash like the others.
            try consume("login-cap:" + subject, limits.failuresPerAccount, now: now, clientIP: clientIP)
            counted.append(("login-cap:" + subject, limits.failuresPerAccount))
        } catch {
            try refund(counted, now: now)
            throw error
        }

        let (signedIn, hash) = try verify(password, account: account, address: address?.normalized ?? email, clientIP: clientIP) {
            _ = try limiter.consume("login-fail-account:" + subject, policy: limits.failuresBeforeThrottle, now: now)
        }
        try refund(counted, now: now)
        try rehashIfWeak(signedIn, hash: hash, password: password, now: now)
        return signedIn
    }

    /// An attempt from `device`, a recognised device of `account`: only the device's own
    /// failures are limited, counted before the hash and refunded on success.
    private func recognisedAttempt(_ account: Account, password: Redacted<String>, device: DeviceToken, clientIP: String, now: Date)
        throws -> Account
    {
        let deviceKey = "login-fail-device:" + device.digest
        try consume(deviceKey, limits.failuresPerDevice, now: now, clientIP: clientIP)
        let (signedIn, hash) = try verify(password, account: account, address: account.email, clientIP: clientIP) {}
        try limiter.refund(deviceKey, policy: limits.failuresPerDevice, now: now)
        try rehashIfWeak(signedIn, hash: hash, password: password, now: now)
        return signedIn
    }

    /// Checks `password` against `account` (nil: none has the address `address`, which then
    /// costs a dummy hash of the same work) and returns the account with its stored hash. A
    /// failure, whatever its cause, runs `countFailure` and throws `invalid_credentials`.
    private func verify(
        _ password: Redacted<String>, account: Account?, address: String, clientIP: String, countFailure: () throws -> Void
    ) throws -> (Account, String) {
        let passwordMatches: Bool
        if let account, let hash = account.passwordHash {
            passwordMatches = hasher.verify(password, against: hash)
        } else {
            _ = hasher.verifyAgainstDummy(password, cost: costs.cost(for: address))
            passwordMatches = false
        }
        guard let account, passwordMatches, account.status == .active, let hash = account.passwordHash else {
            try countFailure()
            logger.info("login_failed", ["ip": .string(IPAddress.truncatedForLogs(clientIP))])
            // For the operator's metrics only: every cause gets the same answer and the same work.
            let outcome: SignInOutcome =
                if account == nil {
                    .unknownAccount
                } else if passwordMatches || account?.passwordHash == nil {
                    .disabledAccount
                } else {
                    .wrongPassword
                }
            metrics.signIn(method: Self.methodName, outcome: outcome)
            throw SignInService.invalidCredentials
        }
        metrics.signIn(method: Self.methodName, outcome: .success)
        return (account, hash)
    }

    /// Rehashes `password` for `account` when its stored `hash` is below the configured cost.
    private func rehashIfWeak(_ account: Account, hash: String, password: Redacted<String>, now: Date) throws {
        if hasher.needsRehash(hash) {
            _ = try store.rehashPassword(accountID: account.id, currentHash: hash, newHash: try hasher.hash(password), now: now)
        }
    }

    /// Counts one event for `key`; throws `rate_limited` when it is over `policy`.
    private func consume(_ key: String, _ policy: RateLimitPolicy, now: Date, clientIP: String) throws {
        try limiter.consumeSignIn(key, policy, now: now, clientIP: clientIP, method: Self.methodName, metrics: metrics, logger: logger)
    }

    private func refund(_ counted: [(String, RateLimitPolicy)], now: Date) throws {
        for (key, policy) in counted { try limiter.refund(key, policy: policy, now: now) }
    }
}
