import Foundation
import Testing

/// RFC 8252 §8.12: a native app must not sign in through an embedded user-agent. The Apple
/// adapter cannot run here, so its source is what is checked: it opens the system's
/// authentication sheet (`ASWebAuthenticationSession`), and no file of the SDK brings in a web
/// view an app could read the password from.
@Suite struct SystemBrowserTests {
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/LatchkeyClient")

    @Test("the SDK signs in through ASWebAuthenticationSession and uses no embedded web view")
    func systemBrowserOnly() throws {
        let files = try #require(FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 20)
        var adapter = ""
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for embedded in ["WKWebView", "UIWebView", "WebView(", "import WebKit", "SFSafariViewController", "SafariServices"] {
                #expect(!text.contains(embedded), "\(file.lastPathComponent) uses \(embedded)")
            }
            if file.lastPathComponent == "WebAuthenticationSignIn.swift" { adapter = text }
        }
        #expect(adapter.contains("import AuthenticationServices"))
        #expect(adapter.contains("ASWebAuthenticationSession(url: url"))
    }
}
