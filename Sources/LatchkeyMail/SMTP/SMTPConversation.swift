import Foundation
import LatchkeyCore

/// What an SMTP client and server said to each other during one delivery, as an operator
/// checking the mail settings reads it (`latchkey mail test`): the server's replies as they
/// came (`< 250 …`), the client's commands (`> MAIL FROM:<…>`) and libcurl's notes on the
/// connection and TLS (`* SSL connection using TLSv1.3 …`).
///
/// Never a secret: after `AUTH` only the mechanism is kept, and every client line until the
/// server's verdict is shown as `> (credentials, not shown)`; libcurl's notes have any
/// credential taken out by its form (``CredentialScrubber``: a URL's password, a password
/// parameter). The message itself (which may hold a reset link) is not recorded.
package struct SMTPConversation: Sendable, Equatable {
    /// The lines, in order, at most ``Recorder/maximumLines`` of at most
    /// ``Recorder/maximumLineLength`` characters each.
    package let lines: [String]

    /// The TLS version and cipher libcurl reports (`TLSv1.3 / TLS_AES_256_GCM_SHA384 / …`),
    /// or nil when the connection was never encrypted.
    package var tls: String? {
        for line in lines where line.hasPrefix("* SSL connection using ") {
            return String(line.dropFirst("* SSL connection using ".count))
        }
        return nil
    }

    /// The server's answer to `AUTH` (`235 …` accepted, `535 …` refused), or nil when the
    /// client did not authenticate.
    package var authentication: String? {
        guard let start = lines.firstIndex(where: { $0.hasPrefix("> AUTH ") }) else { return nil }
        return lines[start...].first { $0.hasPrefix("< ") && !$0.hasPrefix("< 334") }.map { String($0.dropFirst(2)) }
    }

    /// The server's last reply line, or nil when it said nothing.
    package var lastReply: String? {
        lines.last { $0.hasPrefix("< ") }.map { String($0.dropFirst(2)) }
    }

    /// Collects the lines from libcurl's debug callback, on the thread that delivers.
    final class Recorder {
        /// Who said it.
        enum Kind {
            /// libcurl's note about the connection.
            case note
            /// The server.
            case server
            /// The client (Latchkey).
            case client
        }

        /// The most lines kept; the rest of a long conversation is summed up in one line.
        static let maximumLines = 200
        /// The most characters kept of one line.
        static let maximumLineLength = 300
        /// The client's commands shown with their arguments (none of which is secret).
        private static let plainCommands: Set<String> = ["EHLO", "HELO", "STARTTLS", "MAIL", "RCPT", "DATA", "QUIT", "RSET", "NOOP"]

        private(set) var lines: [String] = []
        private var dropped = 0
        private var authenticating = false

        /// An empty recorder.
        init() {}

        /// Records `text` (one or more CRLF-ended lines) said by `kind`.
        func record(_ kind: Kind, _ text: String) {
            for raw in text.split(whereSeparator: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) where !raw.isEmpty {
                let line = String(raw)
                switch kind {
                case .server:
                    // Anything but a challenge ends the exchange of credentials.
                    if !line.hasPrefix("334") { authenticating = false }
                    append("< " + line)
                case .client:
                    let verb = line.prefix { $0 != " " }.uppercased()
                    if verb == "AUTH" {
                        authenticating = true
                        let mechanism = line.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                        append("> AUTH \(mechanism)")
                    } else if !authenticating, Self.plainCommands.contains(verb) {
                        append("> " + line)
                    } else {
                        append("> (credentials, not shown)")
                    }
                case .note:
                    // The TLS record-by-record trace says nothing an operator acts on.
                    guard !line.hasPrefix("TLSv1") else { continue }
                    // Credentials are taken out by their form (a URL's password, a password
                    // parameter), never by searching for the password's text.
                    append("* " + CredentialScrubber.scrub(String(line.drop { $0 == " " })))
                }
            }
        }

        /// The conversation recorded so far.
        var conversation: SMTPConversation {
            SMTPConversation(lines: dropped == 0 ? lines : lines + ["* (\(dropped) more lines not kept)"])
        }

        private func append(_ line: String) {
            guard lines.count < Self.maximumLines else {
                dropped += 1
                return
            }
            lines.append(String(line.prefix(Self.maximumLineLength)))
        }
    }
}
