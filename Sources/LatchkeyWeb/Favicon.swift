package import Foundation

/// The site icon browsers ask every site for (`GET /favicon.ico`): a white keyhole on the
/// pages' blue, 32 × 32, as an ICO file holding one PNG image (335 bytes), which every
/// current browser reads. Without it each first visit to a page logs a 404.
package enum Favicon {
    /// The media type of ``data``.
    package static let contentType = "image/x-icon"

    /// The icon file's bytes. Made by a script (a keyhole of a circle and a widening stem on
    /// a rounded square, drawn at 4 × 4 samples a pixel), kept as base64 so the source stays text.
    package static let data: Data = Data(base64Encoded: base64Lines.joined())!

    private static let base64Lines = [
        "AAABAAEAICAAAAEAIAA5AQAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAQBJREFUeNpj4Eo+yYCEFYC4",
        "H4jPA/F/KuPzULMVkO1EtjwBiN/TwGJ0/B5qF4oDEuhgMTpOgDlAgU4+xxYSCgzQePk/QLifgUYJjuiEyTCAloMxWQ7QKDv/v3T5",
        "g/8Hb3wEYxAbJEYXB6TOvfv//dff/9EBSAwkR1MHuHdd+08IgNTQzAEXH34h6ACQGpo4ABTHxAJS0gMDNYOfnGgYOiEw4GlgUOSC",
        "AS8HYLhl4xMMB4DE6FYULz7yCsMBIDG6OQBU/qMDkBjdHIArDdDNAbgAXRyALyuSmgWHpgOwZUFKsiJZIQCyCBsmNwQGvFE64M3y",
        "Ae+YDHjXbFB0Tgesew4AsWGZkspBmqoAAAAASUVORK5CYII=",
    ]
}
