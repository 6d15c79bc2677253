public import Foundation
public import LatchkeyClient

/// Decides what a URL the app was opened with means: a reset link to show, a reset
/// link that cannot be used (say so), or nothing for this screen flow (ignore it — the
/// browser sign-in's callback, for one, is handled by the web authentication session).
public struct LinkRouter: Sendable {
    /// What to do with an opened URL.
    public enum Route: Sendable, Equatable {
        /// Show the reset screen for this link.
        case resetPassword(ResetLink)
        /// The app's reset link, but broken (a truncated or doubled token): show why.
        case unusableResetLink(LatchkeyClientError)
        /// Not a reset link of this app.
        case ignore
    }

    private let parser: ResetLinkParser

    /// A router for `configuration`'s hosts and scheme.
    public init(configuration: ExampleConfiguration) {
        parser = ResetLinkParser(universalLinkHosts: configuration.universalLinkHosts, customSchemes: [configuration.urlScheme])
    }

    /// The route for `url`. Links to other hosts, schemes or paths are not this flow's
    /// (`wrong_*`, `insecure_scheme`, `user_info`); a reset link whose token is missing,
    /// malformed or given twice is the person's and gets a message.
    public func route(_ url: URL) -> Route {
        do {
            return .resetPassword(try parser.parse(url))
        } catch let error as LatchkeyClientError {
            let tokenProblems: Set<String> = ["missing_token", "malformed_token", "conflicting_tokens"]
            return error.reasons.contains(where: tokenProblems.contains) ? .unusableResetLink(error) : .ignore
        } catch {
            return .ignore
        }
    }
}
