import LatchkeyCore
import LatchkeyFuzzSupport

// Accept-Language and language tags (SupportedLanguage): the header kept with a pending
// reset, the negotiation, a request's `locale` field. Properties: the kept header is a prefix
// of at most 256 printable ASCII characters, or nil; negotiation answers the same for the
// header and for the header as kept; an explicit tag naming a language wins; a tag names a
// language only by its primary subtag.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAcceptLanguage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let header = FuzzInput(data, size).lossyText
    let kept = SupportedLanguage.acceptLanguage(header)
    if let kept {
        expect(kept.utf8.count <= 256 && header.hasPrefix(kept), "the kept header is not a short prefix")
        expect(kept.utf8.allSatisfy { (0x20...0x7E).contains($0) }, "the kept header is not printable ASCII")
    } else {
        expect(header.utf8.contains { !(0x20...0x7E).contains($0) }, "a printable ASCII header was refused")
    }
    let negotiated = SupportedLanguage.negotiate(explicit: nil, acceptLanguage: header, accountLocale: nil)
    expect(
        negotiated == SupportedLanguage.negotiate(explicit: nil, acceptLanguage: kept, accountLocale: nil),
        "the header and the header as kept negotiate differently")
    for language in SupportedLanguage.allCases {
        expect(
            SupportedLanguage.negotiate(explicit: language.rawValue, acceptLanguage: header, accountLocale: header) == language,
            "an explicit language lost to the header")
    }
    if let language = SupportedLanguage(tag: header) {
        let primary = header.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() }
        expect(primary == language.rawValue, "a tag names a language its primary subtag does not")
    }
    return 0
}
