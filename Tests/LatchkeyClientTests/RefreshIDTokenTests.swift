import Foundation
@testable import LatchkeyClient
import Testing

/// e2e/expired_id_token_server.py: a token endpoint that rotates the refresh token and
/// answers with an ID token that expired an hour ago.
private final class ExpiredIDTokenServer: Sendable {
    struct StartFailed: Error {}

    static let python = ProcessInfo.processInfo.environment["LATCHKEY_TEST_PYTHON"]

    let port: Int
    private let process: Process
    /// Closing it stops the server.
    private let lifeline = Pipe()

    init() throws {
        guard let python = Self.python else { throw StartFailed() }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("e2e/expired_id_token_server.py")
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path]
        let output = Pipe()
        process.standardInput = lifeline
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count == 2, words[0] == "READY", let port = Int(words[1]) else {
            process.terminate()
            throw StartFailed()
        }
        self.port = port
    }

    deinit {
        try? lifeline.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

@Suite(.enabled(if: ExpiredIDTokenServer.python != nil, "LATCHKEY_TEST_PYTHON names a Python (make test sets it)"))
struct RefreshIDTokenTests {
    @Test("a refresh whose ID token fails its checks still returns the rotated tokens, without the ID token")
    func rotatedTokensAreKept() async throws {
        let server = try ExpiredIDTokenServer()
        let base = URL(string: "http://127.0.0.1:\(server.port)")!
        let metadata = try AuthorizationServerMetadata(
            issuer: base, authorizationEndpoint: base.appendingPathComponent("authorize"),
            tokenEndpoint: base.appendingPathComponent("token"))
        let client = OAuthClient(issuer: base, clientID: "app")
        let response = try await client.refresh(ClientSecret("refresh-1"), metadata: metadata)
        #expect(response.refreshToken == ClientSecret("refresh-2"))
        #expect(response.accessToken == ClientSecret("access-2"))
        #expect(response.idToken == nil)
    }
}
