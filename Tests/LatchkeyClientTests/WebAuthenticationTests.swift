import Foundation
import LatchkeyClient
import Testing

/// The decisions behind ``WebAuthenticationSignIn`` and the SwiftUI entry point, driven
/// here the way `ASWebAuthenticationSession` has been seen to behave on devices.
@Suite struct WebAuthenticationTests {
    static let callback = URL(string: "com.example.app:/oauth?code=c&state=s")!

    @Test("the redirect URI decides the callback: custom scheme, or https host and path", arguments: [
        ("com.example.app:/oauth", WebAuthenticationCallback.customScheme("com.example.app")),
        ("Com.Example.App://oauth/callback", .customScheme("com.example.app")),
        ("https://Auth.Example.com/oauth/callback/ios", .https(host: "auth.example.com", path: "/oauth/callback/ios")),
        ("https://auth.example.com", .https(host: "auth.example.com", path: "/")),
    ])
    func callbacks(redirect: String, expected: WebAuthenticationCallback) throws {
        let callback = try WebAuthenticationCallback(redirectURI: try #require(URL(string: redirect)))
        #expect(callback == expected)
        #expect(callback.needsCallbackMatching == (redirect.lowercased().hasPrefix("https")))
    }

    @Test("redirect URIs the sheet cannot watch for are refused before anything is shown", arguments: [
        ("http://127.0.0.1:8080/callback", "http_redirect"),
        ("https://auth.example.com:8443/callback", "https_redirect_port"),
        ("https:///callback", "invalid_redirect_uri"),
    ])
    func refusedCallbacks(redirect: String, reason: String) throws {
        let url = try #require(URL(string: redirect))
        #expect(throws: LatchkeyClientError(.invalidConfiguration, reasons: [reason])) { try WebAuthenticationCallback(redirectURI: url) }
    }

    @Test("the session's outcomes map to the SDK's errors", arguments: [
        (1, LatchkeyClientError(.signInCancelled)),
        (2, LatchkeyClientError(.authorizationFailed, reasons: ["presentation_context_not_provided"])),
        (3, LatchkeyClientError(.authorizationFailed, reasons: ["presentation_context_invalid"])),
        (99, LatchkeyClientError(.authorizationFailed, reasons: ["web_session_failed"])),
    ])
    func outcomes(code: Int, expected: LatchkeyClientError) throws {
        #expect(throws: expected) { try WebAuthenticationFlow.result(callbackURL: nil, errorCode: code).get() }
        #expect(try WebAuthenticationFlow.result(callbackURL: Self.callback, errorCode: nil).get() == Self.callback)
    }

    @Test("a completion handler called twice, from two threads at once, resumes the caller once with the first result")
    func doubleCompletion() async throws {
        for _ in 0..<50 {
            let flow = WebAuthenticationFlow()
            let url = try await flow.callbackURL(start: { finish in
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    finish(index == 0 ? .success(Self.callback) : .failure(LatchkeyClientError(.signInCancelled)))
                }
                return true
            }, cancel: {})
            #expect(url == Self.callback)
        }
    }

    @Test("start() returning false ends the wait; a completion that comes after it is ignored")
    func startFails() async throws {
        let flow = WebAuthenticationFlow()
        let late = Flag()
        await #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: ["web_session_not_started"])) {
            try await flow.callbackURL(start: { finish in
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
                    finish(.failure(LatchkeyClientError(.signInCancelled)))
                    late.set(true)
                }
                return false
            }, cancel: {})
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(late.value)
        // When the handler already reported (false after a cancelled sheet), its error wins.
        await #expect(throws: LatchkeyClientError(.signInCancelled)) {
            try await flow.callbackURL(start: { finish in
                finish(.failure(LatchkeyClientError(.signInCancelled)))
                return false
            }, cancel: {})
        }
    }

    @Test("cancelling the caller's task ends the wait with CancellationError and closes the sheet")
    func cancellation() async throws {
        let flow = WebAuthenticationFlow()
        let closed = Flag()
        let started = Flag()
        let caller = Task {
            try await flow.callbackURL(start: { _ in
                started.set(true)
                return true  // the sheet stays up: no completion ever comes
            }, cancel: { closed.set(true) })
        }
        while !started.value { try await Task.sleep(nanoseconds: 1_000_000) }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(closed.value)

        // A task cancelled before it starts never shows the sheet.
        let shown = Flag()
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await flow.callbackURL(start: { _ in
                shown.set(true)
                return true
            }, cancel: {})
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        #expect(!shown.value)
    }

    @Test("a second sign-in while one is showing is refused, not swapped in; afterwards a new one runs")
    func oneAtATime() async throws {
        let flow = WebAuthenticationFlow()
        let pending = PendingCompletion<URL>()
        let first = Task {
            try await flow.callbackURL(start: { finish in
                pending.set(finish)
                return true
            }, cancel: {})
        }
        while !pending.isSet { try await Task.sleep(nanoseconds: 1_000_000) }
        await #expect(throws: LatchkeyClientError(.authorizationFailed, reasons: ["sign_in_in_progress"])) {
            try await flow.callbackURL(start: { _ in true }, cancel: {})
        }
        pending.finish(.success(Self.callback))
        #expect(try await first.value == Self.callback)
        let next = try await flow.callbackURL(start: { finish in
            finish(.success(Self.callback))
            return true
        }, cancel: {})
        #expect(next == Self.callback)
    }
}
