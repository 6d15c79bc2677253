package import Foundation

/// The registered claims of a JWT (RFC 7519 §4.1) and their validation.
///
/// Times are NumericDate (seconds since the epoch). Validation takes the current time as a
/// parameter and never reads a clock.
package struct JWTClaims: Sendable, Hashable, Codable {
    /// The `aud` claim: a single string or an array of strings.
    package enum Audience: Sendable, Hashable, Codable {
        /// One audience, encoded as a string.
        case single(String)
        /// Several audiences, encoded as an array.
        case multiple([String])

        /// Every audience named.
        package var values: [String] {
            switch self {
            case .single(let value): [value]
            case .multiple(let values): values
            }
        }

        /// Decodes a string or an array of strings.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(String.self) {
                self = .single(value)
            } else {
                self = .multiple(try container.decode([String].self))
            }
        }

        /// Encodes a string or an array, as it was given.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .single(let value): try container.encode(value)
            case .multiple(let values): try container.encode(values)
            }
        }
    }

    /// The issuer.
    package var iss: String?
    /// The subject.
    package var sub: String?
    /// The audience.
    package var aud: Audience?
    /// The expiry time, seconds since the epoch.
    package var exp: Int64?
    /// The time before which the token is not valid, seconds since the epoch.
    package var nbf: Int64?
    /// The issue time, seconds since the epoch.
    package var iat: Int64?
    /// The token ID.
    package var jti: String?

    /// Creates a claims set.
    package init(
        iss: String? = nil, sub: String? = nil, aud: Audience? = nil, exp: Int64? = nil,
        nbf: Int64? = nil, iat: Int64? = nil, jti: String? = nil
    ) {
        self.iss = iss
        self.sub = sub
        self.aud = aud
        self.exp = exp
        self.nbf = nbf
        self.iat = iat
        self.jti = jti
    }

    /// Decodes the claims from a verified payload; throws ``JOSEError/Code/malformed`` if it
    /// is not a JSON object or a registered claim has the wrong type.
    package static func decode(from payload: Data) throws -> JWTClaims {
        do {
            return try JSONDecoder().decode(JWTClaims.self, from: payload)
        } catch {
            throw JOSEError(.malformed, "The token claims are not valid JSON of the expected shape.")
        }
    }

    /// Checks the claims at time `now`, allowing `leeway` seconds of clock skew
    /// (`expiryLeeway` for `exp`, the same unless given).
    ///
    /// Requires `exp` (``JOSEError/Code/missingClaim``) and `now <= exp + expiryLeeway`
    /// (`expired`); if present, `nbf <= now + leeway` (`notYetValid`) and
    /// `iat <= now + leeway` (`issuedInFuture`). `iss` must equal `issuer`
    /// (`invalidIssuer`) and `aud` must contain `audience` (`invalidAudience`).
    package func validate(
        now: Date, issuer: String, audience: String, leeway: TimeInterval = 60, expiryLeeway: TimeInterval? = nil
    ) throws {
        let seconds = now.timeIntervalSince1970
        guard let exp else { throw JOSEError(.missingClaim, "The token has no exp claim.") }
        guard seconds <= Double(exp) + (expiryLeeway ?? leeway) else { throw JOSEError(.expired, "The token has expired.") }
        if let nbf, Double(nbf) > seconds + leeway {
            throw JOSEError(.notYetValid, "The token is not valid yet.")
        }
        if let iat, Double(iat) > seconds + leeway {
            throw JOSEError(.issuedInFuture, "The token was issued in the future.")
        }
        guard iss == issuer else { throw JOSEError(.invalidIssuer, "The token's issuer is not accepted.") }
        guard let aud, aud.values.contains(audience) else {
            throw JOSEError(.invalidAudience, "The token is not meant for this audience.")
        }
    }
}
