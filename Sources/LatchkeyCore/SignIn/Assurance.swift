package import Foundation

/// What a sign-in proved and when: the state a browser session, an authorization code and a
/// login (a refresh-token family) keep, from which ID tokens take `amr` and `auth_time`, and
/// which the rules for account changes read.
package struct Assurance: Sendable, Equatable {
    /// The methods the person used, each once, in the order used.
    package let methods: [AuthenticationMethodReference]
    /// When the person signed in (`auth_time`); refreshes and reused sessions keep it.
    package let authTime: Date

    /// The assurance of a sign-in with `methods` at `authTime`; a method listed twice counts once.
    package init(methods: [AuthenticationMethodReference], authTime: Date) {
        var seen = Set<AuthenticationMethodReference>()
        self.methods = methods.filter { seen.insert($0).inserted }
        self.authTime = authTime
    }

    /// Whether the sign-in proved a second factor: a one-time code (`otp`), or a passkey, which
    /// stands for both factors (`hwk` with `user`).
    package var includesSecondFactor: Bool {
        methods.contains(.oneTimePassword) || (methods.contains(.hardwareKey) && methods.contains(.userVerification))
    }

    /// The methods as stored: their names separated by spaces (no name contains one).
    package var storedMethods: String {
        methods.map(\.rawValue).joined(separator: " ")
    }

    /// The assurance kept as `storedMethods` (nil: a row written before methods were kept,
    /// when the password was the only way to sign in) and `authTime`.
    package init(storedMethods: String?, authTime: Date) {
        let names = storedMethods.map { $0.split(separator: " ").map(String.init) } ?? []
        self.init(
            methods: names.isEmpty ? [.password] : names.map(AuthenticationMethodReference.init(rawValue:)), authTime: authTime)
    }
}
