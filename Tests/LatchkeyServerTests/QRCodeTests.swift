import Foundation
import LatchkeyWeb
import Testing

/// The QR codes of the enrolment page, checked as a reader reads them: the size of their version,
/// the three finder patterns, the timing patterns, and the format information (error correction
/// level M, a valid BCH(15,5) codeword, the same in both of its copies).
@Suite struct QRCodeTests {
    private static let url =
        "otpauth://totp/Latchkey:jane@example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Latchkey&algorithm=SHA1&digits=6&period=30"

    @Test("an otpauth URL makes a QR code a reader accepts: version size, finders, timing, format M")
    func structure() throws {
        let code = try QRCode(Self.url)
        let n = code.size
        #expect((n - 17) % 4 == 0 && (21...177).contains(n))
        // 135 bytes at level M need version 6 or more (version 6 M holds 106 bytes, 7 holds 122, 8 holds 152).
        #expect((n - 17) / 4 == 8)
        #expect(code.modules.count == n && code.modules.allSatisfy { $0.count == n })
        for (top, left) in [(0, 0), (0, n - 7), (n - 7, 0)] {
            for row in 0..<7 {
                for column in 0..<7 {
                    let ring = max(abs(row - 3), abs(column - 3))
                    #expect(code.modules[top + row][left + column] == (ring != 2), "finder at \(top),\(left)")
                }
            }
        }
        for index in 8..<(n - 8) {
            #expect(code.modules[6][index] == (index % 2 == 0))
            #expect(code.modules[index][6] == (index % 2 == 0))
        }
        #expect(code.modules[n - 8][8], "the dark module")
        let first = [(8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 7), (8, 8), (7, 8), (5, 8), (4, 8), (3, 8), (2, 8), (1, 8), (0, 8)]
        let second = (0..<7).map { (n - 1 - $0, 8) } + (0..<8).map { (8, n - 8 + $0) }
        let format = Self.bits(first, in: code) ^ 0x5412
        #expect(Self.bits(second, in: code) ^ 0x5412 == format)
        #expect(format >> 13 == 0b00, "error correction level M")
        var remainder = format
        for shift in stride(from: 4, through: 0, by: -1) where remainder & (1 << (shift + 10)) != 0 {
            remainder ^= 0x537 << shift
        }
        #expect(remainder == 0, "a BCH(15,5) codeword")
    }

    @Test("the SVG draws every dark module once, inside a quiet zone, without a style attribute")
    func svg() throws {
        let code = try QRCode(Self.url)
        let svg = code.svg(label: "Add <to> my app")
        let dark = code.modules.joined().filter { $0 }.count
        #expect(svg.components(separatedBy: "h1v1h-1z").count - 1 == dark)
        #expect(svg.contains("viewBox=\"0 0 \(code.size + 8) \(code.size + 8)\""))
        #expect(svg.contains("aria-label=\"Add &lt;to&gt; my app\""))
        #expect(!svg.contains("style"))
        #expect(svg.contains("M4 4h1v1h-1z"), "the top-left finder's corner sits inside the four-module quiet zone")
    }

    @Test("an empty text makes no QR code")
    func empty() {
        #expect(throws: (any Error).self) { try QRCode("") }
    }

    /// The modules at `positions` (row, column) read as bits, the first the most significant.
    private static func bits(_ positions: [(Int, Int)], in code: QRCode) -> Int {
        positions.reduce(0) { ($0 << 1) | (code.modules[$1.0][$1.1] ? 1 : 0) }
    }
}
