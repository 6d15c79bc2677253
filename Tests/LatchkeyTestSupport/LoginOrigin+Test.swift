package import LatchkeyCore

extension LoginOrigin {
    /// Where the logins tests start come from: a documentation address (RFC 5737), truncated
    /// as the server keeps it, and a user agent family.
    package static let test = LoginOrigin(ip: "203.0.113.0", userAgent: "Tests")
}
