package import LatchkeyCore

/// How a request's body is delimited, once its head passed ``RequestFraming``.
package enum BodyFraming: Equatable, Sendable {
    /// No body (no `Content-Length`, no `Transfer-Encoding`).
    case none
    /// `Content-Length` bytes.
    case length(Int)
    /// The chunked transfer coding, length unknown until the last chunk.
    case chunked
}

/// Why a request's head is refused: every way RFC 9112 makes a message's framing ambiguous
/// (so that a proxy in front could read it differently, and a request be smuggled) or its
/// head invalid. Each is answered `400` (`501` for a transfer coding the server does not
/// implement) and the connection closed.
package enum FramingViolation: Error, Equatable, Sendable {
    /// More than one `Content-Length` value (RFC 9112 §6.3 item 5: identical duplicates may be
    /// accepted; Latchkey refuses every duplicate).
    case repeatedContentLength
    /// `Content-Length` is not a decimal number (sign, hexadecimal, spaces inside).
    case invalidContentLength
    /// `Content-Length` together with `Transfer-Encoding` (§6.3 item 3).
    case contentLengthWithTransferEncoding
    /// `Transfer-Encoding` whose final coding is not `chunked` (§6.3 item 4), or an empty one.
    case finalCodingNotChunked
    /// `chunked` applied more than once (§7).
    case chunkedTwice
    /// A coding before the final `chunked` that the server does not implement (§6.1: 501).
    case unsupportedTransferCoding
    /// `Transfer-Encoding` in an HTTP/1.0 request, whose framing is then faulty (§6.1).
    case transferEncodingInHTTP10
    /// HTTP/1.1 without `Host` (§3.2).
    case missingHost
    /// More than one `Host` field (§3.2).
    case repeatedHost
    /// A `Host` value that is not `host[:port]` (§3.2).
    case invalidHost
    /// A field name that is not a token: whitespace before the colon (§5.1), a leading space.
    case invalidFieldName
    /// A field value with a control character: a bare CR (§2.2), NUL, …
    case invalidFieldValue
    /// A field line folded onto the next (obs-fold, §5.2), which the HTTP library merges
    /// into the name of the field before it.
    case foldedFieldLine
    /// More than one space between the parts of the request line, or whitespace inside the
    /// request target (§3).
    case invalidRequestLine

    /// What the client is told: `invalid_request` (400), or `unsupported_transfer_coding` (501).
    package var error: LatchkeyError {
        switch self {
        case .repeatedContentLength: LatchkeyError(.invalidRequest, "The request has more than one Content-Length.")
        case .invalidContentLength: LatchkeyError(.invalidRequest, "The request's Content-Length is not a decimal number.")
        case .contentLengthWithTransferEncoding:
            LatchkeyError(.invalidRequest, "The request has both Content-Length and Transfer-Encoding.")
        case .finalCodingNotChunked:
            LatchkeyError(.invalidRequest, "The request's Transfer-Encoding does not end with chunked.")
        case .chunkedTwice: LatchkeyError(.invalidRequest, "The request's Transfer-Encoding applies chunked more than once.")
        case .unsupportedTransferCoding:
            LatchkeyError(.unsupportedTransferCoding, "The request's Transfer-Encoding may only be chunked.")
        case .transferEncodingInHTTP10: LatchkeyError(.invalidRequest, "An HTTP/1.0 request cannot have a Transfer-Encoding.")
        case .missingHost: LatchkeyError(.invalidRequest, "An HTTP/1.1 request must have a Host header.")
        case .repeatedHost: LatchkeyError(.invalidRequest, "The request has more than one Host header.")
        case .invalidHost: LatchkeyError(.invalidRequest, "The request's Host header is not a host name and port.")
        case .invalidFieldName: LatchkeyError(.invalidRequest, "A header name in the request is not valid.")
        case .invalidFieldValue: LatchkeyError(.invalidRequest, "A header value in the request has a control character.")
        case .foldedFieldLine: LatchkeyError(.invalidRequest, "The request has a header folded onto several lines.")
        case .invalidRequestLine: LatchkeyError(.invalidRequest, "The request line is not method, target and version separated by single spaces.")
        }
    }
}

/// The checks RFC 9112 asks of a request head that the HTTP library (libmicrohttpd 0.9.75)
/// does not make, gathered one field at a time as the library hands them over, then decided
/// once by ``bodyFraming(http11:)``.
///
/// What the library already refuses with its own `400` and a closed connection: a
/// `Content-Length` that is not digits (or holds a comma list), a line without a colon, a
/// malformed chunk size, a bad version. What it accepts and this refuses: everything in
/// ``FramingViolation``. What both accept, as RFC 9112 allows: a bare LF as line end (§2.2),
/// empty lines before the request line (§2.2), chunk extensions (§7.1.1, ignored), leading
/// zeros in `Content-Length`, trailer fields (never used for framing).
package struct RequestFraming: Sendable {
    private var violation: FramingViolation?
    private var contentLength: Int?
    private var contentLengthCount = 0
    private var transferCodings: [Substring]?
    private var hostCount = 0

    /// Nothing gathered yet.
    package init() {}

    /// The farthest apart, in bytes, two parts of one line of the head can be in the
    /// library's buffer (more than any connection's memory limit): parts farther apart, or in
    /// the wrong order, were not parsed in place.
    private static let lineSpan = 1 << 16

    /// Notes the raw request target, which must hold no whitespace: the library (not strict,
    /// see below) takes everything up to the last space before the version as the target.
    package mutating func target(_ target: UnsafeRawBufferPointer) {
        if target.contains(where: { $0 == 0x20 || $0 == 0x09 }) {
            record(.invalidRequestLine)
        }
    }

    /// Notes where the library found the request target: `targetOffset` bytes after the
    /// start of the method, which is `methodLength` bytes long. The library parses the line
    /// in place and skips any spaces after the method, so the target starts more than one
    /// byte after the method exactly when more than one space came between them.
    ///
    /// libmicrohttpd's own strict mode (`MHD_OPTION_STRICT_FOR_CLIENT` 1, in 0.9.75) would not
    /// help here: it allows these spaces too, closes the connection without an answer on a
    /// space inside the target, and otherwise only adds the `Host` check made here, with an
    /// HTML body. So the library stays at its default and the checks are made here.
    package mutating func methodSeparation(methodLength: Int, targetOffset: Int) {
        if targetOffset > methodLength + 1, targetOffset <= Self.lineSpan {
            record(.invalidRequestLine)
        }
    }

    /// Notes one header field as the library parsed it, its value starting `valueOffset`
    /// bytes after its name (nil: no value). A field line folded onto the next (obs-fold)
    /// shows as a name the library moved out of the line to join the continuation to it (in
    /// 0.9.75 the continuation ends up in the name): a value that does not follow its name.
    package mutating func field(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, valueOffset: Int?) {
        if let valueOffset, !Self.isInPlace(valueOffset: valueOffset, nameLength: name.count) {
            return record(.foldedFieldLine)
        }
        guard !name.isEmpty, Self.allIn(Self.tokenBytes, name) else { return record(.invalidFieldName) }
        // HTAB is the only control character a field value may hold (RFC 9110 §5.5).
        for byte in value where (byte < 0x20 && byte != 0x09) || byte == 0x7F {
            return record(.invalidFieldValue)
        }
        switch name.count {
        case 4 where Self.isName(name, "host"):
            hostCount += 1
            // The library keeps trailing whitespace in values (RFC 9110 OWS, not part of them).
            var end = value.count
            while end > 0, value[end - 1] == 0x20 || value[end - 1] == 0x09 { end -= 1 }
            if !Self.allIn(Self.hostBytes, UnsafeRawBufferPointer(rebasing: value[..<end])) { record(.invalidHost) }
        case 14 where Self.isName(name, "content-length"):
            contentLengthCount += 1
            // The library refused anything but digits around optional whitespace already.
            var length = 0
            for byte in value where byte != 0x20 && byte != 0x09 {
                guard (0x30...0x39).contains(byte) else { return record(.invalidContentLength) }
                let (times, overflow) = length.multipliedReportingOverflow(by: 10)
                guard !overflow, times <= Int.max - Int(byte - 0x30) else { return record(.invalidContentLength) }
                length = times + Int(byte - 0x30)
            }
            contentLength = length
        case 17 where Self.isName(name, "transfer-encoding"):
            let text = String(decoding: value, as: UTF8.self).lowercased()
            let codings = text.split(separator: ",").map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
            transferCodings = (transferCodings ?? []) + codings
        default:
            break
        }
    }

    /// Whether a value that starts `valueOffset` bytes after its name of `nameLength` bytes
    /// was parsed in place, on its name's line, after the colon.
    package static func isInPlace(valueOffset: Int, nameLength: Int) -> Bool {
        valueOffset > nameLength && valueOffset <= lineSpan
    }

    /// Notes that the next field's name starts `gap` bytes after the end of the value before
    /// it, both parsed in place. The library parses each line where it lies, writing a NUL over
    /// its line end (CR LF or LF), and takes a value as a C string: a value with a NUL inside
    /// ends at that NUL, the rest of its line unseen (`pt\0xx` read as `pt`). So between a
    /// value's end and the next name lies only a line end, 1 or 2 bytes; more is a value cut at
    /// a NUL. A gap of none or beyond one line was not parsed in place and is not judged.
    package mutating func lineEnd(gap: Int) {
        if gap > 2, gap <= Self.lineSpan { record(.invalidFieldValue) }
    }

    /// Notes `byte`, the second byte after the end of the head's last field value (parsed in
    /// place). The first is that line's end, or the NUL the value was cut at; the second is in
    /// the head either way (the empty line that ends it follows), and is the rest of a CR LF or
    /// the empty line — NUL, CR or LF — unless the value was cut at a NUL with more after it.
    /// (NULs that only end a value are not seen here: what follows is the line end.)
    package mutating func lastLineEnd(following byte: UInt8) {
        if byte != 0, byte != 0x0D, byte != 0x0A { record(.invalidFieldValue) }
    }

    /// How the body of a request in HTTP/1.1 (`http11`, else HTTP/1.0) is delimited, or the
    /// first violation noted.
    package func bodyFraming(http11: Bool) throws(FramingViolation) -> BodyFraming {
        if let violation { throw violation }
        if hostCount > 1 { throw .repeatedHost }
        if http11, hostCount == 0 { throw .missingHost }
        if contentLengthCount > 1 { throw .repeatedContentLength }
        if let codings = transferCodings {
            if contentLengthCount > 0 { throw .contentLengthWithTransferEncoding }
            if !http11 { throw .transferEncodingInHTTP10 }
            guard codings.last == "chunked" else { throw .finalCodingNotChunked }
            if codings.dropLast().contains("chunked") { throw .chunkedTwice }
            if codings.count > 1 { throw .unsupportedTransferCoding }
            return .chunked
        }
        return contentLength.map { .length($0) } ?? .none
    }

    private mutating func record(_ found: FramingViolation) {
        if violation == nil { violation = found }
    }

    /// Whether the token `name` is `lowercased` (as long) but for the case of ASCII letters:
    /// setting bit 0x20 lowers a letter and changes no other token byte into a letter or `-`.
    private static func isName(_ name: UnsafeRawBufferPointer, _ lowercased: StaticString) -> Bool {
        let expected = lowercased.utf8Start
        for index in 0..<name.count where name[index] | 0x20 != expected[index] {
            return false
        }
        return true
    }

    /// Whether every byte of `bytes` is in `set` (one bit per ASCII byte: 0–63 in the first
    /// word, 64–127 in the second).
    private static func allIn(_ set: (UInt64, UInt64), _ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes {
            let member = byte < 64 ? set.0 >> UInt64(byte) & 1 == 1 : byte < 128 && set.1 >> UInt64(byte - 64) & 1 == 1
            if !member { return false }
        }
        return true
    }

    /// The bit set of `characters`, for ``allIn(_:_:)``.
    private static func byteSet(_ characters: String) -> (UInt64, UInt64) {
        var bits: (UInt64, UInt64) = (0, 0)
        for byte in characters.utf8 {
            if byte < 64 { bits.0 |= 1 << UInt64(byte) } else { bits.1 |= 1 << UInt64(byte - 64) }
        }
        return bits
    }

    /// RFC 9110 `tchar`: letters, digits and ``!#$%&'*+-.^_`|~``.
    private static let tokenBytes = byteSet("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&'*+-.^_`|~")

    /// The bytes of RFC 3986 `host [ ":" port ]`: unreserved, percent signs, sub-delims, `:`
    /// and the brackets of an IPv6 literal.
    private static let hostBytes = byteSet("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-._~%!$&'()*+,;=:[]")
}

extension Substring {
    /// Without leading and trailing spaces and tabs (RFC 9110 OWS).
    fileprivate var trimmingWhitespace: Substring {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) }) else { return "" }
        return self[first...last]
    }
}
