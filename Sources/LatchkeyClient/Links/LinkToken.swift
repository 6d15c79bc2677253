/// What every call that sends a mailed link's token checks before sending it.
enum LinkToken {
    /// The longest link token sent; longer ones are refused locally as `invalid_token`.
    static let maximumLength = 512

    /// Throws `invalid_token` for an empty token or one over ``maximumLength`` bytes: no
    /// server issues those, so asking one would only cost a round trip.
    static func checkShape(_ token: ClientSecret) throws {
        guard !token.exposed.isEmpty, token.exposed.utf8.count <= maximumLength else {
            throw LatchkeyClientError(.invalidToken)
        }
    }
}
