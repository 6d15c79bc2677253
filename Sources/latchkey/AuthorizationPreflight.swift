import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `latchkey login --client-id`'s look before the browser: asks the server's authorization
/// endpoint for the very URL the browser will open, without following a redirect, so that a
/// client the server does not know, a redirect URI not registered for it, or a scope it may
/// not request fails at once with the server's reason, instead of after the callback wait
/// (300 s by default) with nobody told why. Nothing is signed in or stored by the look: the
/// server answers it with its sign-in page.
enum AuthorizationPreflight {
    /// How long the look may take.
    static let timeout: TimeInterval = 15
    /// The most of the answer read (the sign-in page, or the error page).
    static let maximumAnswerBytes = 256 * 1024

    /// Returns when the server would show the sign-in (or consent) page for `url`; throws a
    /// ``CommandFailure`` saying what the server refused and how to fix it otherwise.
    static func check(_ url: URL, clientID: String, redirectURI: URL) throws {
        let answer = try fetch(url)
        switch answer.status {
        case 200:
            return
        case 300..<400:
            // The request was refused after the client and redirect URI were found good: the
            // error goes to the redirect URI (RFC 6749 §4.1.2.1).
            let items = answer.location.flatMap { URLComponents(string: $0)?.queryItems } ?? []
            let error = items.first { $0.name == "error" }?.value ?? "a redirect"
            let description = items.first { $0.name == "error_description" }?.value.map { ": \($0)" } ?? ""
            throw CommandFailure.failure("the server refused the sign-in request (\(error)\(description))")
        default:
            // An unknown client or redirect URI: the server shows an error page and redirects
            // nowhere; its detail says which (in English, whatever the page's language).
            let detail = Self.detail(inErrorPage: answer.body).map { ": \($0)" } ?? ""
            let registered = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false).map { components -> String in
                var components = components
                components.port = nil
                return components.string ?? redirectURI.absoluteString
            } ?? redirectURI.absoluteString
            throw CommandFailure.failure(
                "the server refused the sign-in request (HTTP \(answer.status)\(detail)). The client must be registered "
                    + "with this redirect URI (any port): `latchkey clients create \(clientID) --redirect-uri \(registered)`")
        }
    }

    /// The detail the server's error page gives after its message (the `<bdi lang="en">` in
    /// its problem paragraph), with HTML's escapes undone.
    static func detail(inErrorPage html: String) -> String? {
        guard let start = html.range(of: "<bdi dir=\"ltr\" lang=\"en\">"),
            let end = html.range(of: "</bdi>", range: start.upperBound..<html.endIndex)
        else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// What the server answered `GET url`: its status, `Location` and body (at most
    /// ``maximumAnswerBytes`` of it).
    private static func fetch(_ url: URL) throws -> (status: Int, location: String?, body: String) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.setValue("text/html", forHTTPHeaderField: "Accept")
        request.setValue("en", forHTTPHeaderField: "Accept-Language")
        let sent = request
        do {
            let (data, response) = try runAsync { try await session.data(for: sent) }
            guard let http = response as? HTTPURLResponse else { throw CommandFailure.failure("the server's answer is not HTTP") }
            return (http.statusCode, http.value(forHTTPHeaderField: "Location"), String(decoding: data.prefix(maximumAnswerBytes), as: UTF8.self))
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure.failure("cannot reach the authorization endpoint \(url.host ?? "") (\(error.localizedDescription))")
        }
    }
}

/// A session delegate that follows no redirect: the preflight wants the redirect itself.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
