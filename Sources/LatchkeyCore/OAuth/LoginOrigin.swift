/// Where a login was started from, as the account's list of signed-in devices shows it: the
/// client's IP address truncated as the logs truncate it, and its user agent reduced to a
/// family ("Safari on iOS"). Recorded when a login starts (`/auth/login`, a code redeemed at
/// `/oauth/token`) and kept by every rotation; never the full address or the raw header.
package struct LoginOrigin: Sendable, Equatable {
    /// The client's address with its host part zeroed (``IPAddress/truncatedForLogs``); nil
    /// when it was not an address or is not known (a login started before origins were kept).
    package let ip: String?
    /// The user agent's family (``UserAgentFamily``); nil when the request named none we know.
    package let userAgent: String?

    /// The origin of a request from `clientIP` with the `User-Agent` header `userAgentHeader`.
    package init(clientIP: String, userAgentHeader: String?) {
        let truncated = IPAddress.truncatedForLogs(clientIP)
        self.init(ip: truncated == "invalid" ? nil : truncated, userAgent: UserAgentFamily.describe(userAgentHeader))
    }

    /// An origin as stored.
    package init(ip: String?, userAgent: String?) {
        self.ip = ip
        self.userAgent = userAgent
    }
}
