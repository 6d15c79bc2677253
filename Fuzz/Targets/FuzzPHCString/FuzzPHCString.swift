import LatchkeyCrypto
import LatchkeyFuzzSupport

// Argon2 PHC strings as stored password hashes hold them, including Directus's
// (PHCString(parsing:), PasswordHasher.verificationCost(of:), needsRehash(_:)). Properties:
// a parsed string is within the length limit, its costs within Argon2Parameters' limits, its
// salt at least 8 bytes and its tag 4 to 1024; its encoding (which always writes `v=`) parses
// back to the same values unless that field took it past the length limit;
// the hasher's answers agree with the parser's.

private let hasher = PasswordHasher()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPHCString(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = FuzzInput(data, size).lossyText
    let cost = hasher.verificationCost(of: text)
    guard let phc = PHCString(parsing: text) else {
        expect(cost == nil, "the hasher costs a string the parser refuses")
        expect(hasher.needsRehash(text), "a malformed hash does not need a rehash")
        return 0
    }
    expect(text.utf8.count <= PHCString.maximumLength, "a string over the limit was parsed")
    expect(phc.parameters.memoryKiB <= Argon2Parameters.maximumMemoryKiB, "a memory cost over the limit")
    expect(phc.parameters.iterations <= Argon2Parameters.maximumIterations, "iterations over the limit")
    expect(phc.parameters.parallelism <= Argon2Parameters.maximumParallelism, "lanes over the limit")
    expect(phc.salt.count >= 8 && (4...1024).contains(phc.tag.count), "a salt or tag of the wrong length")
    expect(cost?.parameters == phc.parameters && cost?.tagLength == phc.tag.count, "the hasher's cost is not the string's")
    // The encoding always writes `v=`: for a string without it that is up to 5 bytes more, past
    // the length limit for a string at the limit. Latchkey encodes only hashes it made, which
    // are far shorter, so only the version field may take the encoding past the limit.
    guard phc.encoded.utf8.count <= PHCString.maximumLength else {
        expect(!text.contains("$v=") && phc.encoded.utf8.count <= text.utf8.count + 5, "an encoding longer than its string and a version field")
        return 0
    }
    let again = PHCString(parsing: phc.encoded)
    expect(
        again?.variant == phc.variant && again?.version == phc.version && again?.parameters == phc.parameters
            && again?.salt == phc.salt && again?.tag == phc.tag && again?.associatedData == phc.associatedData,
        "the encoding does not parse back to the same hash")
    expect(again?.encoded == phc.encoded, "encoding is not stable")
    return 0
}
