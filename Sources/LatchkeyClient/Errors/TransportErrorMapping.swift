public import Foundation

extension LatchkeyClientError {
    /// The error for a request that got no HTTP reply. Pure: no I/O.
    ///
    /// Conditions that pass by themselves (offline, timed out, host unreachable or
    /// refusing, connection lost) are `network_unavailable` (retryable), with a reason
    /// naming the condition (`offline`, `timed_out`, `cannot_connect`, `connection_lost`,
    /// `cannot_find_host`); anything else (TLS failure, bad URL, redirect loop) is
    /// `unexpected_response` with reason `url_error_<code>`.
    public static func from(urlError: URLError) -> LatchkeyClientError {
        let reason: String? =
            switch urlError.code {
            case .notConnectedToInternet, .internationalRoamingOff, .dataNotAllowed, .callIsActive: "offline"
            case .timedOut: "timed_out"
            case .cannotConnectToHost: "cannot_connect"
            case .networkConnectionLost: "connection_lost"
            case .cannotFindHost, .dnsLookupFailed: "cannot_find_host"
            default: nil
            }
        if let reason { return LatchkeyClientError(.networkUnavailable, reasons: [reason]) }
        return LatchkeyClientError(.unexpectedResponse, reasons: ["url_error_\(urlError.code.rawValue)"])
    }
}
