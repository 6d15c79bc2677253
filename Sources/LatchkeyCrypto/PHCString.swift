package import Foundation

/// An Argon2 hash in the PHC string format, as written by libargon2, node-argon2 (Directus),
/// argon2-cffi and Latchkey:
///
///     $argon2id$v=19$m=65536,t=3,p=4$<salt>$<tag>
///
/// `v=` may be absent (then version 1.0, as libargon2 reads it); node-argon2 may append
/// `,data=<associated data>` to the parameters. Salt, tag and data are standard base64
/// without padding.
package struct PHCString: Sendable {
    /// Longer strings are refused before any parsing.
    package static let maximumLength = 1024

    /// The Argon2 variant (`argon2id`, `argon2i`, `argon2d`).
    package let variant: Argon2Variant
    /// The version: 1.3 (`v=19`), or 1.0 (`v=16`, or no `v=`).
    package let version: Argon2Version
    /// Memory, passes and lanes.
    package let parameters: Argon2Parameters
    /// The associated data (`data=`), empty when there is none.
    package let associatedData: Data
    /// The salt.
    package let salt: Data
    /// The tag.
    package let tag: Data

    init(variant: Argon2Variant, parameters: Argon2Parameters, salt: Data, tag: Data) {
        self.variant = variant
        self.version = .v13
        self.parameters = parameters
        self.associatedData = Data()
        self.salt = salt
        self.tag = tag
    }

    /// Parses `text`, or returns nil if it is not a well-formed Argon2 PHC string with
    /// acceptable parameters, a salt of at least 8 bytes and a tag of 4 to 1024 bytes.
    package init?(parsing text: String) {
        guard text.utf8.count <= Self.maximumLength, text.hasPrefix("$") else { return nil }
        var fields = text.utf8.dropFirst().split(separator: UInt8(ascii: "$"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 4 || fields.count == 5,
            let variant = Argon2Variant(rawValue: fields.removeFirst())
        else { return nil }

        var version = Argon2Version.v10
        if fields.count == 4 {
            let field = fields.removeFirst()
            guard field.hasPrefix("v="),
                let number = Self.decimal(field.dropFirst(2)),
                let parsed = Argon2Version(rawValue: number)
            else { return nil }
            version = parsed
        }

        let settings = fields[0].split(separator: ",", omittingEmptySubsequences: false)
        guard settings.count == 3 || settings.count == 4,
            let memory = Self.value(of: "m", in: settings[0]).flatMap(Self.decimal),
            let iterations = Self.value(of: "t", in: settings[1]).flatMap(Self.decimal),
            let parallelism = Self.value(of: "p", in: settings[2]).flatMap(Self.decimal),
            let parameters = try? Argon2Parameters(
                memoryKiB: Int(memory), iterations: Int(iterations), parallelism: Int(parallelism))
        else { return nil }

        var associatedData = Data()
        if settings.count == 4 {
            guard let encoded = Self.value(of: "data", in: settings[3]),
                let decoded = Base64Codec.standard.decode(String(encoded))
            else { return nil }
            associatedData = decoded
        }

        guard let salt = Base64Codec.standard.decode(fields[1]), salt.count >= 8,
            let tag = Base64Codec.standard.decode(fields[2]), (4...1024).contains(tag.count)
        else { return nil }

        self.variant = variant
        self.version = version
        self.parameters = parameters
        self.associatedData = associatedData
        self.salt = salt
        self.tag = tag
    }

    /// The PHC string, with `v=` always present.
    package var encoded: String {
        var settings = "m=\(parameters.memoryKiB),t=\(parameters.iterations),p=\(parameters.parallelism)"
        if !associatedData.isEmpty {
            settings += ",data=" + Base64Codec.standard.encode(associatedData)
        }
        return "$\(variant.rawValue)$v=\(version.rawValue)$\(settings)$"
            + Base64Codec.standard.encode(salt) + "$" + Base64Codec.standard.encode(tag)
    }

    private static func value(of key: String, in setting: Substring) -> Substring? {
        let prefix = key + "="
        return setting.hasPrefix(prefix) ? setting.dropFirst(prefix.count) : nil
    }

    /// A decimal without sign or leading zeros that fits in 32 bits.
    private static func decimal(_ text: Substring) -> UInt32? {
        guard !text.isEmpty, text.count <= 10, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            text == "0" || !text.hasPrefix("0")
        else { return nil }
        return UInt32(text)
    }
}
