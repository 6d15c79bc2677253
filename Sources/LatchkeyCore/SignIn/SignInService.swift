import Foundation

/// The one place that decides what a sign-in is: which methods exist and what a presented
/// credential proves. `/auth/login` and the sign-in form of `/oauth/authorize` ask it; neither
/// decides on its own.
///
/// Promises: a credential is checked by the method that takes its kind, with that method's
/// limits and its one refusal for every wrong credential; a success says what was proved
/// (``Assurance``) and when.
package struct SignInService: Sendable {
    /// An account that has just signed in, with what it proved.
    package struct SignedIn: Sendable {
        /// The account, as it was read during the sign-in.
        package let account: Account
        /// The methods used and the time of the sign-in.
        package let assurance: Assurance
    }

    private let methods: [any SignInMethod]
    private let clock: any WallClock

    /// A service offering `methods` (each credential kind taken by exactly one of them), timed by `clock`.
    package init(methods: [any SignInMethod], clock: any WallClock) {
        self.methods = methods
        self.clock = clock
    }

    /// Checks `credential` from `clientIP` with the method that takes it. Throws that method's
    /// refusal when it proves no account.
    package func signIn(_ credential: SignInCredential, clientIP: String) throws -> SignedIn {
        let now = clock.now()
        for method in methods {
            if let account = try method.authenticate(credential, clientIP: clientIP, now: now) {
                return SignedIn(account: account, assurance: Assurance(methods: [method.reference], authTime: now))
            }
        }
        preconditionFailure("no sign-in method takes this credential: the server was wired without it")
    }

    /// The one answer to wrong credentials of every kind.
    package static let invalidCredentials = LatchkeyError(.invalidCredentials, "Invalid user credentials.")
}
