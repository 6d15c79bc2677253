import LatchkeyCore
import LatchkeyCrypto
import LatchkeyHTTP

/// `{token}`: the body of every route a mailed link's page posts its token to (the reset
/// link's check, a sign-up's confirmation, an address change's confirm and undo). The token is a secret: no error quotes it.
struct LinkTokenBody: Decodable {
    let token: Redacted<String>

    private enum CodingKeys: String, CodingKey { case token }

    init(from decoder: any Decoder) throws {
        token = try decoder.container(keyedBy: CodingKeys.self).secret(.token, maxBytes: TokenService.maximumOpaqueTokenLength)
    }
}
