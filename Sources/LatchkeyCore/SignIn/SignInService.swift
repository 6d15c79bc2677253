import Foundation
package import LatchkeyCrypto

/// The one place that decides what a sign-in is: which methods exist, what a presented
/// credential proves, and when a second factor is needed. `/auth/login`, the sign-in form of
/// `/oauth/authorize` and ``Reauthentication`` ask it; none decides on its own.
///
/// Promises:
/// - A credential is checked by the method that takes its kind, with that method's limits and
///   its one refusal for every wrong credential; a success says what was proved (``Assurance``)
///   and when.
/// - An account with a second factor enrolled (any of ``secondFactors``) is signed in only
///   once a code of it was right too: the amr then lists both methods — unless the first
///   method stands for both factors (``SignInMethod/provesBothFactors``: a passkey). Whether it has one is
///   looked at only after the first credential proved the account, so a wrong password answers
///   alike for accounts with and without a second factor.
package struct SignInService: Sendable {
    /// An account that has just signed in, with what it proved.
    package struct SignedIn: Sendable {
        /// The account, as it was read during the sign-in.
        package let account: Account
        /// The methods used and the time of the sign-in.
        package let assurance: Assurance
    }

    /// A sign-in whose first credential was right, for an account that also needs its second
    /// factor: what was proved so far, and when.
    package struct FirstStep: Sendable {
        /// The account the first credential proved.
        package let account: Account
        /// The methods proved so far.
        package let methods: [AuthenticationMethodReference]
    }

    /// Where a sign-in stands after its first credential.
    package enum Progress: Sendable {
        /// Signed in: the account has no second factor.
        case signedIn(SignedIn)
        /// The first credential was right; the second factor is still to come.
        case needsSecondFactor(FirstStep)
    }

    private let methods: [any SignInMethod]
    private let secondFactors: [any SecondFactorMethod]
    private let devices: RecognisedDevices?
    private let clock: any WallClock

    /// A service offering `methods` (each credential kind taken by exactly one of them) and the
    /// second factors `secondFactors`, timed by `clock`, recording devices in `devices` (nil:
    /// devices are not recorded and ``recordDevice(_:presented:origin:)`` hands back none).
    package init(
        methods: [any SignInMethod], secondFactors: [any SecondFactorMethod] = [], devices: RecognisedDevices? = nil,
        clock: any WallClock
    ) {
        self.methods = methods
        self.secondFactors = secondFactors
        self.devices = devices
        self.clock = clock
    }

    /// Records the device of a complete sign-in (`signedIn`, by any method: password, passkey,
    /// with or without a second factor), which presented `presented` and started from `origin`,
    /// and returns the device token to hand back to it (to store, or to set as its cookie):
    /// every route that completes a sign-in calls this once, after the sign-in and before
    /// answering. Queues the new-device notice when due (``RecognisedDevices``).
    package func recordDevice(_ signedIn: SignedIn, presented: DeviceToken?, origin: LoginOrigin) throws -> DeviceToken? {
        try devices?.signedIn(signedIn.account, presented: presented, origin: origin)
    }

    /// Checks the first credential `credential` from `clientIP`: signed in, or (for an account
    /// with a second factor) the first step of a sign-in. Throws the method's refusal when it
    /// proves no account.
    package func begin(_ credential: SignInCredential, clientIP: String) throws -> Progress {
        let now = clock.now()
        let (account, method) = try authenticate(credential, clientIP: clientIP, now: now)
        if !method.provesBothFactors, try requiresSecondFactor(account) {
            return .needsSecondFactor(FirstStep(account: account, methods: method.references))
        }
        return .signedIn(SignedIn(account: account, assurance: Assurance(methods: method.references, authTime: now)))
    }

    /// Completes `first` with `code` (an authenticator code or a recovery code) from `clientIP`.
    /// Throws `invalid_otp` or `rate_limited`.
    package func complete(_ first: FirstStep, code: Redacted<String>, clientIP: String) throws -> SignedIn {
        let now = clock.now()
        let (account, method) = try authenticate(.oneTimeCode(account: first.account, code: code), clientIP: clientIP, now: now)
        return SignedIn(account: account, assurance: Assurance(methods: first.methods + [method.reference], authTime: now))
    }

    /// A sign-in in one request, as `/auth/login` takes it: `credential`, and `code` when the
    /// account has a second factor. Throws the first method's refusal, then `invalid_otp` when
    /// the account needs a code and `code` is missing or wrong, or `rate_limited`.
    package func signIn(_ credential: SignInCredential, code: Redacted<String>? = nil, clientIP: String) throws -> SignedIn {
        switch try begin(credential, clientIP: clientIP) {
        case .signedIn(let signedIn):
            return signedIn
        case .needsSecondFactor(let first):
            guard let code, !code.exposed.isEmpty else { throw Self.secondFactorRequired }
            return try complete(first, code: code, clientIP: clientIP)
        }
    }

    /// Whether `account` has a second factor enrolled, so that signing in needs its code.
    package func requiresSecondFactor(_ account: Account) throws -> Bool {
        try secondFactors.contains { try $0.isEnrolled(account) }
    }

    /// The account `credential` proves, with the method that took it.
    private func authenticate(_ credential: SignInCredential, clientIP: String, now: Date) throws -> (Account, any SignInMethod) {
        for method in methods + secondFactors.map({ $0 as any SignInMethod }) {
            if let account = try method.authenticate(credential, clientIP: clientIP, now: now) { return (account, method) }
        }
        preconditionFailure("no sign-in method takes this credential: the server was wired without it")
    }

    /// The one answer to wrong credentials of every kind.
    package static let invalidCredentials = LatchkeyError(.invalidCredentials, "Invalid user credentials.")

    /// The answer when the password was right and the account's second factor was not given.
    package static let secondFactorRequired = LatchkeyError(.invalidOTP, "Invalid user OTP.")
}
