import Foundation
import LatchkeyMail
import Testing

/// Line ends of a written mail's text body: found by the FuzzMIME target. Foundation's
/// `replacingOccurrences(of: "\r\n", …)` left a CRLF followed by a combining mark in place, so
/// the body did not read back with LF line ends as promised.
@Suite struct WrittenMailLineEndTests {
    @Test("every CRLF of the body reads as LF, also before a combining mark")
    func crlfBeforeCombiningMark() {
        let message = "Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
            + "Hello.\r\n\r\n\u{7A9}\r\n\u{301}x\r\n"
        let mail = WrittenMail(id: "m", message: Data(message.utf8), writtenAt: Date(timeIntervalSince1970: 0))
        #expect(mail.textBody == "Hello.\n\n\u{7A9}\n\u{301}x\n")
    }
}
