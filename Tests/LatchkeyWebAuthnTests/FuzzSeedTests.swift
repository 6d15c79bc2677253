import Foundation
import LatchkeyWebAuthn
import Testing

/// The seed inputs under Fuzz/Corpus/ for the WebAuthn parsers do what their names say: a
/// `refused-…` seed (and the COSE keys of kinds Latchkey does not take) is refused with a
/// WebAuthnError, every other one parses, so the fuzzers start from both sides of each check.
@Suite struct FuzzSeedTests {
    private static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    private static func seeds(_ target: String) throws -> [(name: String, bytes: Data)] {
        let directory = corpus.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
            ($0, try Data(contentsOf: directory.appendingPathComponent($0)))
        }
    }

    /// Whether `parse` accepts `bytes`; records an issue for an error other than WebAuthnError.
    private func parses(_ bytes: Data, _ parse: (Data) throws -> Void) -> Bool {
        do {
            try parse(bytes)
            return true
        } catch is WebAuthnError {
            return false
        } catch {
            Issue.record("not a WebAuthnError: \(error)")
            return false
        }
    }

    @Test("each parser's seeds parse, or are refused when their name says so", arguments: [
        "FuzzCBOR", "FuzzCOSEKey", "FuzzAuthenticatorData", "FuzzClientData",
    ])
    func seedsBehaveAsNamed(_ target: String) throws {
        let parse: (Data) throws -> Void = switch target {
        case "FuzzCBOR": { _ = try CBOR.parse(bytes: $0) }
        case "FuzzCOSEKey": { _ = try COSEKey.parse(bytes: $0) }
        case "FuzzAuthenticatorData": { _ = try AuthenticatorData.parse(bytes: $0) }
        default: { _ = try ClientData.parse(bytes: $0) }
        }
        let seeds = try Self.seeds(target)
        #expect(seeds.count >= 3)
        for seed in seeds {
            let refused = seed.name.hasPrefix("refused-")
                || (target == "FuzzCOSEKey" && !["es256", "eddsa", "rs256"].contains(seed.name))
            #expect(parses(seed.bytes, parse) == !refused, "\(target)/\(seed.name)")
        }
    }
}
