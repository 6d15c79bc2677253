/// Finds the `subjectPublicKeyInfo` of a DER-encoded X.509 certificate (RFC 5280 §4.1):
/// the bytes a public-key pin hashes. A bounded, read-only walk over definite-length DER
/// — nothing is decoded beyond the tags and lengths it must skip.
package enum SubjectPublicKeyInfo {
    /// The complete DER element (tag, length and contents) of the certificate's
    /// `subjectPublicKeyInfo`, or nil when `certificate` is not a well-formed certificate
    /// down to that field.
    package static func extract(fromCertificate certificate: [UInt8]) -> ArraySlice<UInt8>? {
        // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL,
        //   serialNumber INTEGER, signature SEQUENCE, issuer SEQUENCE, validity SEQUENCE,
        //   subject SEQUENCE, subjectPublicKeyInfo SEQUENCE, … }, … }
        var outer = DERReader(certificate[...])
        guard let certificateElement = outer.next(), certificateElement.tag == 0x30, outer.isAtEnd else { return nil }
        var fields = DERReader(certificateElement.contents)
        guard let tbs = fields.next(), tbs.tag == 0x30 else { return nil }
        var tbsFields = DERReader(tbs.contents)
        guard var element = tbsFields.next() else { return nil }
        if element.tag == 0xA0 {
            guard let next = tbsFields.next() else { return nil }
            element = next
        }
        guard element.tag == 0x02 else { return nil }  // serialNumber
        for _ in 0..<4 {  // signature, issuer, validity, subject
            guard let skipped = tbsFields.next(), skipped.tag == 0x30 else { return nil }
        }
        guard let spki = tbsFields.next(), spki.tag == 0x30 else { return nil }
        return spki.whole
    }
}

/// Reads consecutive DER elements (single-byte tags, definite lengths up to four length
/// bytes) from a byte slice, never past its end.
struct DERReader {
    /// One element: its tag, its contents, and the whole encoding.
    struct Element {
        let tag: UInt8
        let contents: ArraySlice<UInt8>
        let whole: ArraySlice<UInt8>
    }

    private var remaining: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        remaining = bytes
    }

    var isAtEnd: Bool { remaining.isEmpty }

    /// The next element, or nil when the bytes end or are not well-formed DER.
    mutating func next() -> Element? {
        let start = remaining.startIndex
        guard remaining.count >= 2 else { return nil }
        let tag = remaining[start]
        guard tag & 0x1F != 0x1F else { return nil }  // multi-byte tags do not occur here
        var index = start + 1
        let first = remaining[index]
        index += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard (1...4).contains(count), remaining.endIndex - index >= count else { return nil }  // 0x80: indefinite, not DER
            for byte in remaining[index..<index + count] { length = length << 8 | Int(byte) }
            index += count
        }
        guard length <= remaining.endIndex - index else { return nil }
        let end = index + length
        let element = Element(tag: tag, contents: remaining[index..<end], whole: remaining[start..<end])
        remaining = remaining[end...]
        return element
    }
}
