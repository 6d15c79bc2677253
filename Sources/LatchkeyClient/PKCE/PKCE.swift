/// A PKCE pair (RFC 7636): the secret code verifier the app keeps and the S256 challenge
/// it sends with the authorization request.
public struct PKCE: Sendable {
    /// The shortest verifier RFC 7636 allows.
    public static let minimumVerifierLength = 43
    /// The longest verifier RFC 7636 allows.
    public static let maximumVerifierLength = 128
    /// The `code_challenge_method` this SDK uses: always `S256`.
    public static let challengeMethod = "S256"

    /// The unreserved characters a verifier is drawn from (RFC 7636 §4.1).
    static let verifierAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The code verifier, sent only with the token request.
    public let verifier: ClientSecret
    /// `BASE64URL(SHA256(ASCII(verifier)))`, sent with the authorization request.
    public let challenge: String

    /// A fresh pair whose verifier has `length` characters drawn uniformly from the
    /// unreserved set by `SystemRandomNumberGenerator` (64 characters ≈ 384 bits).
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_configuration` unless 43 ≤ `length` ≤ 128.
    public init(length: Int = 64) throws {
        guard (Self.minimumVerifierLength...Self.maximumVerifierLength).contains(length) else {
            throw LatchkeyClientError(.invalidConfiguration)
        }
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<length).map { _ in 
            Self.verifierAlphabet[Int.random(in: 0..<Self.verifierAlphabet.count, using: &generator)]
        }
        self.init(checkedVerifier: ClientSecret(String(characters)))
    }

    /// The pair for an existing verifier, e.g. one restored after the app was relaunched.
    ///
    /// - Throws: ``LatchkeyClientError`` `invalid_configuration` unless the verifier has
    ///   43–128 characters, all unreserved.
    public init(verifier: ClientSecret) throws {
        let alphabet = Set(Self.verifierAlphabet)
        guard (Self.minimumVerifierLength...Self.maximumVerifierLength).contains(verifier.exposed.count),
            verifier.exposed.allSatisfy({ alphabet.contains($0) })
        else { throw LatchkeyClientError(.invalidConfiguration) }
        self.init(checkedVerifier: verifier)
    }

    private init(checkedVerifier verifier: ClientSecret) {
        self.verifier = verifier
        self.challenge = Base64URL.encode(SHA256Digest(hashing: verifier.exposed.utf8).bytes)
    }
}
