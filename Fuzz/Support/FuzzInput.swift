package import Foundation

/// The bytes libFuzzer hands a target, in the forms the parsers take.
package struct FuzzInput {
    /// The input as given.
    package let bytes: [UInt8]

    /// Copies the `size` bytes at `data` (libFuzzer passes a null pointer for an empty input).
    package init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    /// The input as `Data`.
    package var data: Data { Data(bytes) }

    /// The input as text when it is valid UTF-8; nil otherwise (a `String` cannot hold
    /// invalid UTF-8, and every parser of text is handed a `String` by its caller).
    package var text: String? { String(validating: bytes, as: UTF8.self) }

    /// The input as text, invalid UTF-8 replaced by U+FFFD, as a header value or URL that
    /// went through a lossy decoding would be.
    package var lossyText: String { String(decoding: bytes, as: UTF8.self) }

    /// The input split at each line feed into at most `limit` pieces, decoded as
    /// ``lossyText`` is: several fields (a header and its repeats, an address and the hops
    /// after it) from one input.
    package func lines(limit: Int = 16) -> [String] {
        lossyText.split(separator: "\n", maxSplits: limit - 1, omittingEmptySubsequences: false).map(String.init)
    }
}

/// Stops the run with `property` when `condition` is false: a broken property is a crash
/// to libFuzzer, which keeps the input that broke it (docs/fuzzing.md).
package func expect(
    _ condition: Bool, _ property: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
    if !condition {
        fatalError("property broken: \(property())", file: file, line: line)
    }
}
