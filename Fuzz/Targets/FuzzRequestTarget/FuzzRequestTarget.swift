import LatchkeyCore
import LatchkeyFuzzSupport
import LatchkeyHTTP

// The request target of a request line (RequestTarget): origin form, absolute form, a
// fragment. Properties: the path is never empty and holds no `?` or `#` byte; for the origin
// form (`/…`), the path is the bytes before the first `?` and the query what the form decoder
// makes of the bytes after it (up to a `#`), and a target is refused only when that query is
// not validly encoded.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let raw = FuzzInput(data, size).lossyText
    let target = RequestTarget(raw)
    if let target {
        expect(!target.path.isEmpty, "an empty path")
        expect(!target.path.utf8.contains { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }, "the path holds a ? or #")
    }
    guard raw.utf8.first == UInt8(ascii: "/") else { return 0 }

    // Byte searches, as the characters looked for are ASCII: a `?` followed by a combining
    // mark is still a `?` byte.
    var bytes = Array(raw.utf8)
    if let fragment = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes = Array(bytes[..<fragment]) }
    let question = bytes.firstIndex(of: UInt8(ascii: "?"))
    let path = String(decoding: bytes[..<(question ?? bytes.count)], as: UTF8.self)
    let query = question.map { bytes[($0 + 1)...] }.map { Array($0) }
    let decoded = query.map { query in query.withUnsafeBytes { FormParameters.decode(urlencoded: $0) } }

    guard let target else {
        expect(decoded != nil && decoded! == nil, "a target with a valid query was refused")
        return 0
    }
    expect(target.path == path, "the path is not the bytes before the first ?")
    let expected = (decoded ?? []) ?? []
    expect(
        target.query.elementsEqual(expected) { $0.name == $1.name && $0.value == $1.value },
        "the query is not the form decoding of the bytes after ?")
    return 0
}
