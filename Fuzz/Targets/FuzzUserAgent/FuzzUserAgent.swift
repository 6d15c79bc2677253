import LatchkeyCore
import LatchkeyFuzzSupport

// The User-Agent header as the device list shows it (UserAgentFamily.describe). Properties:
// the description is short, holds no control character, and is the same for the header and
// for its first 1024 characters (the rest is never read).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUserAgent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let header = FuzzInput(data, size).lossyText
    guard let family = UserAgentFamily.describe(header) else { return 0 }
    expect(family.count <= 80, "a description of \(family.count) characters")
    expect(!family.containsControlCharacter, "a description holds a control character")
    expect(UserAgentFamily.describe(String(header.prefix(1024))) == family, "characters past 1024 changed the description")
    return 0
}
