import Foundation
import LatchkeyClient
import LatchkeyTestSupport
import Testing

private func permissions(of url: URL) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
}

private let sampleTokens = StoredTokens(
    accessToken: ClientSecret("access-1"), refreshToken: ClientSecret("refresh-1"),
    expiresAt: Date(timeIntervalSince1970: 1_790_000_000.25))

private let otherTokens = StoredTokens(
    accessToken: ClientSecret("access-2"), refreshToken: nil, expiresAt: Date(timeIntervalSince1970: 1_790_003_600))

/// The contract every ``TokenStore`` keeps, run against each implementation.
@Suite struct TokenStoreContractTests {
    static func stores(in directory: URL) throws -> [any TokenStore] {
        [InMemoryTokenStore(), FileTokenStore(directory: directory.appendingPathComponent("store")),
         try KeychainStoreTests.store(KeychainStoreTests.plain, InMemoryKeychain().process())]
    }

    @Test("an empty store loads nil; save then load round-trips; a second save replaces; clear empties")
    func contract() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        for store in try Self.stores(in: temporary.url) {
            #expect(try store.load() == nil)
            try store.clear()
            try store.save(sampleTokens)
            #expect(try store.load() == sampleTokens)
            try store.save(otherTokens)
            #expect(try store.load() == otherTokens)
            try store.clear()
            #expect(try store.load() == nil)
        }
    }
}

@Suite struct FileTokenStoreTests {
    @Test("the directory is created 0700 and the token file 0600")
    func permissionsOnCreate() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(directory: temporary.url.appendingPathComponent("a/b/latchkey"))
        try store.save(sampleTokens)
        #expect(try permissions(of: store.directory) == 0o700)
        #expect(try permissions(of: store.fileURL) == 0o600)
        try store.save(otherTokens)
        #expect(try permissions(of: store.fileURL) == 0o600)
    }

    @Test("an existing directory open to others is tightened to 0700")
    func tightensDirectory() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let directory = temporary.url.appendingPathComponent("latchkey")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o755])
        #expect(try permissions(of: directory) == 0o755)
        try FileTokenStore(directory: directory).save(sampleTokens)
        #expect(try permissions(of: directory) == 0o700)
    }

    @Test("the file holds the documented JSON, with the tokens only there")
    func fileFormat() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(directory: temporary.url)
        try store.save(sampleTokens)
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: store.fileURL)) as? [String: Any])
        #expect(object["access_token"] as? String == "access-1")
        #expect(object["refresh_token"] as? String == "refresh-1")
        #expect(object["expires_at"] as? Double == 1_790_000_000.25)
        #expect(!String(describing: sampleTokens).contains("access-1"))
    }

    @Test("tokens saved before subject and metadata were stored still load; new ones keep both")
    func formatCompatibility() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(directory: temporary.url)
        try FileManager.default.createDirectory(at: temporary.url, withIntermediateDirectories: true)
        try Data(#"{"access_token":"a","refresh_token":"r","expires_at":1790000000}"#.utf8).write(to: store.fileURL)
        let old = try #require(try store.load())
        #expect(old.subject == nil && old.metadata == nil && old.refreshToken == ClientSecret("r"))

        let metadata = try AuthorizationServerMetadata(
            issuer: URL(string: "https://id.example.com")!, authorizationEndpoint: URL(string: "https://id.example.com/a")!,
            tokenEndpoint: URL(string: "https://id.example.com/t")!)
        let full = StoredTokens(
            accessToken: ClientSecret("a"), refreshToken: nil, expiresAt: Date(timeIntervalSince1970: 1_790_000_000),
            subject: "user-1", metadata: metadata)
        try store.save(full)
        #expect(try store.load() == full)
    }

    @Test("a save replaces the file by rename: a reader of the old file still sees whole old tokens, no temp file stays")
    func atomicReplace() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(directory: temporary.url)
        try store.save(sampleTokens)
        let oldFile = try FileHandle(forReadingFrom: store.fileURL)
        defer { try? oldFile.close() }
        try store.save(otherTokens)
        let oldContents = try #require(try oldFile.readToEnd())
        #expect(try JSONDecoder().decode(StoredTokens.self, from: oldContents) == sampleTokens)
        #expect(try store.load() == otherTokens)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path) == [FileTokenStore.fileName])
    }

    @Test("concurrent saves and loads never see a partial file")
    func concurrentSavesAndLoads() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(directory: temporary.url)
        try store.save(sampleTokens)
        let failures = FailureCount()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<25 {
                do {
                    if worker % 2 == 0 {
                        try store.save(round % 2 == 0 ? sampleTokens : otherTokens)
                    } else if let loaded = try store.load(), loaded != sampleTokens, loaded != otherTokens {
                        failures.add()
                    }
                } catch {
                    failures.add()
                }
            }
        }
        #expect(failures.value == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path) == [FileTokenStore.fileName])
    }

    @Test("a corrupted, empty or oversized token file is reported as corrupted, not as signed out", arguments: [
        Data("not json".utf8), Data(), Data(#"{"access_token":"a"}"#.utf8),
        Data(repeating: UInt8(ascii: " "), count: 64 * 1024 + 1),
    ])
    func corruptedFile(contents: Data) throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(directory: temporary.url)
        try contents.write(to: store.fileURL)
        #expect(throws: LatchkeyClientError(.tokenStoreCorrupted)) { try store.load() }
        try store.save(sampleTokens)
        #expect(try store.load() == sampleTokens)
    }

    @Test("a file that cannot be read is a storage failure")
    func unreadable() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(directory: temporary.url)
        try FileManager.default.createDirectory(at: store.fileURL, withIntermediateDirectories: false)
        let error = #expect(throws: LatchkeyClientError.self) { try store.load() }
        #expect(error?.code == .tokenStoreFailed)
    }

    @Test("the default directory is $XDG_STATE_HOME/latchkey, else ~/.local/state/latchkey", arguments: [
        (["XDG_STATE_HOME": "/srv/state", "HOME": "/home/jane"], "/srv/state/latchkey"),
        (["XDG_STATE_HOME": "relative/state", "HOME": "/home/jane"], "/home/jane/.local/state/latchkey"),
        (["XDG_STATE_HOME": "", "HOME": "/home/jane"], "/home/jane/.local/state/latchkey"),
        (["HOME": "/home/jane"], "/home/jane/.local/state/latchkey"),
    ])
    func defaultDirectory(environment: [String: String], expected: String) {
        #expect(FileTokenStore.defaultDirectory(environment: environment).path == expected)
    }

    @Test("a store made from an environment with XDG_STATE_HOME writes there")
    func environmentStore() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(environment: ["XDG_STATE_HOME": temporary.url.path, "HOME": "/nonexistent"])
        try store.save(sampleTokens)
        let file = temporary.url.appendingPathComponent("latchkey/\(FileTokenStore.fileName)")
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(try FileTokenStore(directory: temporary.url.appendingPathComponent("latchkey")).load() == sampleTokens)
    }
}

/// A thread-safe counter for failures seen on worker threads.
private final class FailureCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() {
        lock.lock()
        defer { lock.unlock() }
        count += 1
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

@Suite struct FileTokenStoreLockTests {
    @Test("the lock excludes a second holder of the same store, even in one process, until released")
    func exclusive() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let first = FileTokenStore(directory: temporary.url)
        let second = FileTokenStore(directory: temporary.url)
        try await first.withExclusiveLock(timeout: 1) {
            let error = await #expect(throws: LatchkeyClientError.self) {
                try await second.withExclusiveLock(timeout: 0.05) { () }
            }
            #expect(error?.code == .tokenStoreLocked)
            #expect(error?.reasons == ["lock_timeout"])
        }
        #expect(try await second.withExclusiveLock(timeout: 1) { 42 } == 42)
        #expect(try permissions(of: temporary.url.appendingPathComponent(FileTokenStore.lockFileName)) == 0o600)
    }

    @Test("the lock is released when the body throws")
    func releasedOnThrow() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let store = FileTokenStore(directory: temporary.url)
        await #expect(throws: LatchkeyClientError(.tokenStoreFailed)) {
            try await store.withExclusiveLock(timeout: 1) { throw LatchkeyClientError(.tokenStoreFailed) }
        }
        #expect(try await store.withExclusiveLock(timeout: 0.05) { true })
    }
}
