public import Foundation

extension LatchkeyClientError {
    /// The error for a request that got no HTTP reply. Pure: no I/O.
    ///
    /// Conditions that pass by themselves (offline, timed out, host unreachable or
    /// refusing, connection lost) are `network_unavailable` (retryable), with a reason
    /// naming the condition (`offline`, `timed_out`, `cannot_connect`, `connection_lost`,
    /// `cannot_find_host`); a certificate the client did not trust — the system's TLS
    /// checks, or a session delegate that cancelled the connection at its trust challenge,
    /// as ``PinnedSessionDelegate`` does when no pin matches (a `cancelled` error that
    /// reaches this function was not the caller's cancellation) — is `untrusted_server`
    /// with reason `url_error_<code>`; anything else (bad URL, redirect loop) is
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
        let untrusted: Set<URLError.Code> = [
            .cancelled, .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
        ]
        if untrusted.contains(urlError.code) || isCurlCertificateFailure(urlError) {
            return LatchkeyClientError(.untrustedServer, reasons: ["url_error_\(urlError.code.rawValue)"])
        }
        return LatchkeyClientError(.unexpectedResponse, reasons: ["url_error_\(urlError.code.rawValue)"])
    }

    /// Whether `urlError` is a certificate the system did not trust, as swift-corelibs-foundation
    /// (Linux) reports it: code `unknown` with libcurl's message for a failed peer verification
    /// ("SSL certificate problem: …", "SSL: no alternative certificate subject name matches
    /// target host name …"), where Apple's URLSession has a code of its own.
    private static func isCurlCertificateFailure(_ urlError: URLError) -> Bool {
        guard urlError.code == .unknown, let message = urlError.userInfo[NSLocalizedDescriptionKey] as? String else { return false }
        return message.hasPrefix("SSL certificate problem") || message.hasPrefix("SSL: no alternative certificate subject name")
            || message.hasPrefix("SSL: certificate subject name")
    }
}
