public import Foundation
public import LatchkeyClient

/// Decides what a URL the app was opened with means: one of the app's mailed links to
/// follow (a reset, a sign-up's confirmation, an address change's confirmation or undo), one
/// of them that cannot be used (say so, on that link's screen), or nothing for this screen
/// flow (ignore it — the browser sign-in's callback, for one, is handled by the web
/// authentication session).
public struct LinkRouter: Sendable {
    /// What to do with an opened URL.
    public enum Route: Sendable, Equatable {
        /// Follow this link: the screen of its kind.
        case open(AccountLink)
        /// The app's link of this kind, but broken (a truncated or doubled token): show why.
        case unusable(AccountLink.Kind, LatchkeyClientError)
        /// Not a link of this app.
        case ignore
    }

    private let parser: AccountLinkParser

    /// A router for `configuration`'s hosts and scheme, and every kind of link on its server path.
    public init(configuration: ExampleConfiguration) {
        parser = AccountLinkParser(universalLinkHosts: configuration.universalLinkHosts, customSchemes: [configuration.urlScheme])
    }

    /// The route for `url`. Links to other hosts, schemes or paths are not this app's
    /// (``AccountLinkParser/kind(of:)`` is nil); the app's link whose token is missing,
    /// malformed or given twice is the person's and gets a message.
    public func route(_ url: URL) -> Route {
        do {
            return .open(try parser.parse(url))
        } catch {
            guard let kind = parser.kind(of: url) else { return .ignore }
            return .unusable(kind, error as? LatchkeyClientError ?? LatchkeyClientError(.invalidLink))
        }
    }
}
