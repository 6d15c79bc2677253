#if os(iOS) || os(macOS)
    public import Foundation
    import Security

    /// A `URLSessionDelegate` that enforces ``PublicKeyPins`` on the pinned host: the
    /// system evaluates the server's trust as usual (`SecTrustEvaluateWithError`), then the
    /// presented chain (`SecTrustCopyCertificateChain`, each certificate's DER from
    /// `SecCertificateCopyData`) goes to ``PublicKeyPins/evaluate(chain:)``, which decides.
    /// A chain that fails either is cancelled at the challenge — the request fails, and
    /// the SDK reports `untrusted_server` (see ``LatchkeyClientError/from(urlError:)``).
    /// Other hosts and other challenges get the system's default handling.
    ///
    /// Give the SDK's clients a session made by ``session(pins:configuration:)``:
    /// `PasswordRecovery(baseURL:session:)`, `OAuthClient(issuer:…session:)`,
    /// `FirstPartyLogin(baseURL:session:)` and `AuthSession(…urlSession:)`.
    public final class PinnedSessionDelegate: NSObject, URLSessionDelegate, Sendable {
        /// The pins enforced.
        public let pins: PublicKeyPins

        /// A delegate enforcing `pins`.
        public init(pins: PublicKeyPins) {
            self.pins = pins
        }

        /// A session whose delegate enforces `pins` (ephemeral by default: the SDK's
        /// requests need no cache or cookie store).
        public static func session(pins: PublicKeyPins, configuration: URLSessionConfiguration = .ephemeral) -> URLSession {
            URLSession(configuration: configuration, delegate: PinnedSessionDelegate(pins: pins), delegateQueue: nil)
        }

        /// Answers the server-trust challenge of the pinned host as described on the type.
        public func urlSession(
            _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            let space = challenge.protectionSpace
            guard space.authenticationMethod == NSURLAuthenticationMethodServerTrust, pins.applies(toHost: space.host),
                let trust = space.serverTrust
            else {
                completionHandler(.performDefaultHandling, nil)
                return
            }
            // The system's checks first: a pinned key in an expired or misnamed chain is
            // still refused.
            guard SecTrustEvaluateWithError(trust, nil),
                let certificates = SecTrustCopyCertificateChain(trust) as? [SecCertificate],
                (try? pins.evaluate(chain: certificates.map { SecCertificateCopyData($0) as Data })) != nil
            else {
                completionHandler(.cancelAuthenticationChallenge, nil)
                return
            }
            completionHandler(.useCredential, URLCredential(trust: trust))
        }
    }
#endif
