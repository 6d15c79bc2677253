/// `application/x-www-form-urlencoded` as OAuth uses it: every byte outside the
/// unreserved set (`A–Z a–z 0–9 - . _ ~`) percent-encoded, so `+`, `&`, `=` and
/// spaces in a value survive the trip.
enum FormEncoding {
    static func encode(_ fields: [(name: String, value: String)]) -> String {
        fields.map { percentEncode($0.name) + "=" + percentEncode($0.value) }.joined(separator: "&")
    }

    static func percentEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var result = ""
        for byte in text.utf8 {
            if (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "~")
            {
                result.append(Character(Unicode.Scalar(byte)))
            } else {
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }
}
