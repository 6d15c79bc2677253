import LatchkeyCrypto
import LatchkeyHTTP

/// `{current_password?, otp?}` (or no body at all): what re-authenticates an account change
/// that carries nothing else (`DELETE /users/me`, a passkey's registration or deletion) —
/// the password at most 4096 bytes, the code 64.
struct ReauthenticationBody: Decodable {
    let currentPassword: Redacted<String>?
    let otp: Redacted<String>?

    private enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password", otp
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        currentPassword = try fields.optionalText(.currentPassword, maxBytes: 4096).map(Redacted.init)
        otp = try fields.optionalText(.otp, maxBytes: 64).map(Redacted.init)
    }
}
