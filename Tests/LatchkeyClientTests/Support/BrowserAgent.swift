import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plays the person's browser on Latchkey's sign-in page: opens the authorization URL,
/// keeps the cookies the server sets, submits the sign-in form, and returns the redirect
/// `Location` instead of following it.
final class BrowserAgent: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var cookies: [String: String] = [:]
    private lazy var session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }()

    /// Signs in on the page at `authorizationURL` and returns where the server redirects to.
    func signIn(at authorizationURL: URL, email: String, password: String) async throws -> URL {
        let (page, pageResponse) = try await send(URLRequest(url: authorizationURL))
        guard pageResponse.statusCode == 200 else { throw HarnessError("sign-in page: \(pageResponse.statusCode)") }
        let html = String(decoding: page, as: UTF8.self)
        guard let actionRange = html.range(of: #"<form (id="[^"]*" )?method="post" action="[^"]*""#, options: .regularExpression) else {
            throw HarnessError("no sign-in form")
        }
        let action = html[actionRange].split(separator: "\"").last.map(String.init) ?? ""
        var fields: [(String, String)] = []
        let hidden = try NSRegularExpression(pattern: #"<input type="hidden" name="([^"]*)" value="([^"]*)">"#)
        for match in hidden.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            guard let name = Range(match.range(at: 1), in: html), let value = Range(match.range(at: 2), in: html) else { continue }
            fields.append((Self.unescape(String(html[name])), Self.unescape(String(html[value]))))
        }
        fields += [("email", email), ("password", password)]
        var post = URLRequest(url: URL(string: Self.unescape(action), relativeTo: authorizationURL)!.absoluteURL)
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(fields.map { Self.formEncode($0.0) + "=" + Self.formEncode($0.1) }.joined(separator: "&").utf8)
        let (_, answer) = try await send(post)
        guard (300...399).contains(answer.statusCode), let location = answer.value(forHTTPHeaderField: "Location"),
            let url = URL(string: location)
        else { throw HarnessError("sign-in answered \(answer.statusCode), not a redirect") }
        return url
    }

    private func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        var request = request
        let cookieHeader = lock.withLock { cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }
        if !cookieHeader.isEmpty { request.setValue(cookieHeader, forHTTPHeaderField: "Cookie") }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw HarnessError("not HTTP") }
        if let setCookie = http.value(forHTTPHeaderField: "Set-Cookie") {
            // Several cookies may arrive folded into one header; each starts with `name=value;`.
            for part in setCookie.components(separatedBy: ",") {
                let pair = part.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) ?? ""
                let nameValue = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if nameValue.count == 2, nameValue[0].hasPrefix("latchkey_") { lock.withLock { cookies[nameValue[0]] = nameValue[1] } }
            }
        }
        return (data, http)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    private static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
