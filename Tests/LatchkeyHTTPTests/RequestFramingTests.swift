import LatchkeyCore
import LatchkeyHTTP
import Testing

/// A request head given as field lines, checked as the server checks what libmicrohttpd parsed.
private func framing(
    _ fields: [(String, String)], version: String = "HTTP/1.1", target: String = "/", methodGap: Int = 1,
    folded: Set<String> = []
) throws(FramingViolation) -> BodyFraming {
    var check = RequestFraming()
    var target = target
    target.withUTF8 { check.target(UnsafeRawBufferPointer($0)) }
    check.methodSeparation(methodLength: 4, targetOffset: 4 + methodGap)
    for (name, value) in fields {
        var name = name
        var value = value
        // In place, the value follows ": " after the name; a folded line's name was moved after it.
        let offset = folded.contains(name) ? -100 : name.utf8.count + 2
        name.withUTF8 { name in
            value.withUTF8 { value in
                check.field(name: UnsafeRawBufferPointer(name), value: UnsafeRawBufferPointer(value), valueOffset: offset)
            }
        }
    }
    return try check.bodyFraming(http11: version == "HTTP/1.1")
}

private func violation(_ body: () throws(FramingViolation) -> BodyFraming) -> FramingViolation? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

@Suite struct RequestFramingTests {
    @Test("a plain request, a Content-Length body and a chunked body are framed as they say")
    func validHeads() throws {
        #expect(try framing([("Host", "example.com")]) == BodyFraming.none)
        #expect(try framing([("Host", "example.com:8443"), ("Content-Length", "42")]) == .length(42))
        #expect(try framing([("host", "[::1]:80"), ("content-length", "007")]) == .length(7))
        #expect(try framing([("Host", "x"), ("Transfer-Encoding", "Chunked")]) == .chunked)
        #expect(try framing([("Host", "x"), ("Transfer-Encoding", " chunked ")]) == .chunked)
        // HTTP/1.0 needs no Host; an empty Host is what a client sends for a target without one.
        #expect(try framing([], version: "HTTP/1.0") == BodyFraming.none)
        #expect(try framing([("Host", "")]) == BodyFraming.none)
        // Trailing whitespace (which the library keeps in values) is not part of the host.
        #expect(try framing([("Host", "x \t")]) == BodyFraming.none)
        #expect(try framing([("Host", "x"), ("X-Tab", "a\tb")]) == BodyFraming.none)
    }

    @Test(
        "every ambiguous Content-Length or Transfer-Encoding is refused with its reason",
        arguments: [
            ([("Content-Length", "5"), ("Content-Length", "6")], FramingViolation.repeatedContentLength),
            ([("Content-Length", "5"), ("Content-Length", "5")], .repeatedContentLength),
            ([("Content-Length", "5"), ("Transfer-Encoding", "chunked")], .contentLengthWithTransferEncoding),
            ([("Transfer-Encoding", "chunked"), ("Content-Length", "0")], .contentLengthWithTransferEncoding),
            ([("Transfer-Encoding", "identity, chunked")], .unsupportedTransferCoding),
            ([("Transfer-Encoding", "gzip, chunked")], .unsupportedTransferCoding),
            ([("Transfer-Encoding", "gzip"), ("Transfer-Encoding", "chunked")], .unsupportedTransferCoding),
            ([("Transfer-Encoding", "chunked, chunked")], .chunkedTwice),
            ([("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")], .chunkedTwice),
            ([("Transfer-Encoding", "gzip")], .finalCodingNotChunked),
            ([("Transfer-Encoding", "chunked, gzip")], .finalCodingNotChunked),
            ([("Transfer-Encoding", "chunked;q=1")], .finalCodingNotChunked),
            ([("Transfer-Encoding", "")], .finalCodingNotChunked),
            ([("Transfer-Encoding", " , ")], .finalCodingNotChunked),
            ([("Content-Length", "99999999999999999999")], .invalidContentLength),
        ])
    func bodyLength(fields: [(String, String)], expected: FramingViolation) {
        #expect(violation { () throws(FramingViolation) in try framing([("Host", "x")] + fields) } == expected)
    }

    @Test("Transfer-Encoding in an HTTP/1.0 request is refused, chunked or not")
    func transferEncodingInHTTP10() {
        #expect(violation { () throws(FramingViolation) in try framing([("Transfer-Encoding", "chunked")], version: "HTTP/1.0") } == .transferEncodingInHTTP10)
    }

    @Test("HTTP/1.1 needs exactly one Host, and it must be a host and port")
    func host() {
        #expect(violation { () throws(FramingViolation) in try framing([]) } == .missingHost)
        #expect(violation { () throws(FramingViolation) in try framing([("Host", "a"), ("Host", "b")]) } == .repeatedHost)
        #expect(violation { () throws(FramingViolation) in try framing([("Host", "a"), ("host", "a")], version: "HTTP/1.0") } == .repeatedHost)
        for bad in ["a b", "a/b", "a?b", "a@b", "a\"b"] {
            #expect(violation { () throws(FramingViolation) in try framing([("Host", bad)]) } == .invalidHost)
        }
    }

    @Test("a field name with whitespace (before the colon, leading) or empty is refused; so is a control character in a value")
    func fieldSyntax() {
        for name in ["Transfer-Encoding ", "Transfer-Encoding\t", " Host", "X A", "", "X\u{7F}"] {
            #expect(violation { () throws(FramingViolation) in try framing([("Host", "x"), (name, "v")]) } == .invalidFieldName)
        }
        for value in ["a\rb", "a\0b", "a\u{1}b", "a\u{7F}", "x\rX-Other: y"] {
            #expect(violation { () throws(FramingViolation) in try framing([("Host", "x"), ("X-A", value)]) } == .invalidFieldValue)
        }
    }

    @Test("a folded field line, whose name the library moved away from its value, is refused")
    func obsFold() {
        #expect(violation { () throws(FramingViolation) in try framing([("Host", "x"), ("X-Long-Namefolded", "v")], folded: ["X-Long-Namefolded"]) } == .foldedFieldLine)
        var check = RequestFraming()
        check.field(name: UnsafeRawBufferPointer(start: nil, count: 0), value: UnsafeRawBufferPointer(start: nil, count: 0), valueOffset: 1 << 20)
        #expect(violation { () throws(FramingViolation) in try check.bodyFraming(http11: false) } == .foldedFieldLine)
    }

    @Test("a value the library cut at a NUL leaves more than a line end before the next name, or a byte after the last one's")
    func valueCutAtNUL() {
        func lineEnds(gaps: [Int], last: UInt8?) -> FramingViolation? {
            var check = RequestFraming()
            for gap in gaps { check.lineEnd(gap: gap) }
            if let last { check.lastLineEnd(following: last) }
            return violation { () throws(FramingViolation) in try check.bodyFraming(http11: false) }
        }
        // CR LF or LF between a value and the next name; NUL, CR or LF after the last value's end.
        #expect(lineEnds(gaps: [2, 1, 2], last: 0) == nil)
        #expect(lineEnds(gaps: [], last: 0x0A) == nil)
        #expect(lineEnds(gaps: [], last: 0x0D) == nil)
        // `pt\0xx\r\n`: 5 bytes from the cut to the next name; `a\0b` last: `b` follows the NUL.
        #expect(lineEnds(gaps: [2, 5], last: 0) == .invalidFieldValue)
        #expect(lineEnds(gaps: [3], last: nil) == .invalidFieldValue)
        #expect(lineEnds(gaps: [2], last: UInt8(ascii: "b")) == .invalidFieldValue)
        // Parts not parsed in place (a name before its value, beyond a line) are not judged.
        #expect(lineEnds(gaps: [0, -40, 1 << 20], last: nil) == nil)
        #expect(RequestFraming.isInPlace(valueOffset: 6, nameLength: 4))
        #expect(!RequestFraming.isInPlace(valueOffset: 4, nameLength: 4))
        #expect(!RequestFraming.isInPlace(valueOffset: 1 << 20, nameLength: 4))
    }

    @Test("more than one space after the method, or whitespace inside the target, is refused; a far-off target is not judged")
    func requestLine() {
        #expect(violation { () throws(FramingViolation) in try framing([("Host", "x")], methodGap: 2) } == .invalidRequestLine)
        #expect(violation { () throws(FramingViolation) in try framing([("Host", "x")], target: "/a ") } == .invalidRequestLine)
        #expect(violation { () throws(FramingViolation) in try framing([("Host", "x")], target: "/a\tb") } == .invalidRequestLine)
        // A target the library did not parse in place (outside the line) says nothing either way.
        #expect(violation { () throws(FramingViolation) in try framing([("Host", "x")], methodGap: 1 << 20) } == nil)
        #expect(violation { () throws(FramingViolation) in try framing([("Host", "x")], methodGap: -64) } == nil)
    }

    @Test("each violation is a 400 invalid_request, but a transfer coding the server lacks is a 501")
    func statuses() {
        #expect(FramingViolation.repeatedContentLength.error.httpStatus == 400)
        #expect(FramingViolation.repeatedContentLength.error.code == .invalidRequest)
        #expect(FramingViolation.unsupportedTransferCoding.error.httpStatus == 501)
        #expect(FramingViolation.foldedFieldLine.error.isClientError)
    }
}
