import CQREncode
import Foundation
import LatchkeyCore

/// A QR code (ISO/IEC 18004) made by libqrencode, the one place that calls it, and drawn as
/// SVG for a page: an authenticator app's `otpauth://` URL scanned from the enrolment page.
///
/// Promises: the text is encoded as bytes (8-bit mode, case kept) at error correction level M,
/// in the smallest version that holds it; ``svg`` draws each dark module as part of one path
/// with a quiet zone of four modules, using only SVG attributes (no `style`), so it shows under
/// the pages' CSP (`default-src 'none'; style-src 'self'`).
package struct QRCode: Sendable {
    /// The modules per side.
    package let size: Int
    /// Row by row, whether each module is dark.
    package let modules: [[Bool]]

    /// The QR code of `text`'s UTF-8 bytes. Throws `invalid_request` for an empty text or one
    /// too long for any QR code.
    package init(_ text: String) throws {
        guard !text.isEmpty, let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else {
            throw LatchkeyError(.invalidRequest, "The text cannot be made into a QR code.")
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        size = width
        modules = (0..<width).map { row in (0..<width).map { column in data[row * width + column] & 0x01 == 1 } }
    }

    /// The code as an inline `<svg>` element, scaled by the page (`viewBox` in modules, four
    /// of them of quiet zone each side), labelled `label` for screen readers.
    package func svg(label: String) -> String {
        var path = ""
        for (row, line) in modules.enumerated() {
            for (column, dark) in line.enumerated() where dark {
                path += "M\(column + 4) \(row + 4)h1v1h-1z"
            }
        }
        let side = size + 8
        return """
            <svg xmlns="http://www.w3.org/2000/svg" class="qr" viewBox="0 0 \(side) \(side)" width="240" height="240" \
            role="img" aria-label="\(label.htmlEscaped)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }
}
