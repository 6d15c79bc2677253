public import LatchkeyClient

/// The screen a sign-up's confirmation link, or an address change's confirmation or undo
/// link, opens, as a state machine: the link is used at once (these links do one thing) →
/// done; an unusable link says to get a new one; other failures may be retried.
public struct EmailLinkFlow: Sendable, Equatable {
    /// Where the flow is.
    public enum Step: Sendable, Equatable {
        /// The link's token is on its way to the server.
        case working
        /// The link did what it is for (``EmailLinkFlow/kind`` says what).
        case done
        /// The link cannot be used (unknown, used, expired, superseded, damaged).
        case unusable(String)
        /// Using it failed for now (offline, rate limited); the message says why: retry.
        case failed(String)
    }

    /// What the link is for: ``AccountLink/Kind/verifyEmail``, ``AccountLink/Kind/confirmEmailChange``
    /// or ``AccountLink/Kind/undoEmailChange``.
    public let kind: AccountLink.Kind
    /// The link's token.
    public let token: ClientSecret
    /// Where the flow is.
    public private(set) var step: Step

    /// A flow for `link`, starting by using it.
    public init(link: AccountLink) {
        kind = link.kind
        token = link.token
        step = .working
    }

    /// A flow for a link of `kind` that cannot be used at all (see ``LinkRouter``).
    public init(unusable kind: AccountLink.Kind, error: LatchkeyClientError, language: ClientLanguage) {
        self.kind = kind
        token = ClientSecret("")
        step = .unusable(error.message(for: language))
    }

    /// The server did what the link is for.
    public mutating func completed() {
        guard step == .working else { return }
        step = .done
    }

    /// Using the link failed: `invalid_token` (and a damaged link) ends the flow, anything
    /// else may be retried.
    public mutating func failed(_ error: LatchkeyClientError, language: ClientLanguage) {
        guard step == .working else { return }
        step = error.code == .invalidToken || error.code == .invalidLink
            ? .unusable(error.message(for: language)) : .failed(error.message(for: language))
    }

    /// Back to using the link after a failure that allows it; false otherwise.
    public mutating func retry() -> Bool {
        guard case .failed = step else { return false }
        step = .working
        return true
    }
}
