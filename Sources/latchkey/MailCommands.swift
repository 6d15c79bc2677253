import Foundation
import LatchkeyCore
import LatchkeyMail
import LatchkeyServer

/// `latchkey mail test ADDRESS`: one message through the configured transport, now, with what
/// the mail server said — TLS, authentication, its replies — and never a secret.
func mail(_ arguments: ArraySlice<String>) throws {
    guard let subcommand = arguments.first else { throw CommandFailure.usage("missing subcommand; run `latchkey mail --help`") }
    let parsed = try ParsedArguments(arguments.dropFirst())
    guard subcommand == "test" else { throw unknownSubcommand("mail", subcommand, known: ["test"]) }
    let address = try onePositional(parsed, "ADDRESS")
    let configuration = try loadConfiguration()
    switch try ServerApplication.sendTestMail(to: address, configuration) {
    case .written(let path):
        print("LATCHKEY_MAIL_TRANSPORT is file: nothing leaves this machine. The test mail is \(path)")
    case .smtp(let server, let security, let conversation, let failure):
        let protection = switch security {
        case .implicitTLS: "TLS from the first byte"
        case .startTLS: "STARTTLS required"
        case .plainTextLoopback: "plain text to a loopback host allowed"
        }
        let user = configuration.smtp?.username.map { ", signing in as \($0)" } ?? ", without signing in"
        print("Sending a test mail to \(address) through \(server) (\(protection)\(user)):")
        for line in conversation.lines { print("  " + line) }
        print("TLS: \(conversation.tls ?? "none")")
        print("authentication: \(conversation.authentication ?? (configuration.smtp?.username == nil ? "none" : "not reached"))")
        print("the server's last reply: \(conversation.lastReply ?? "none")")
        if let failure {
            let detail = failure.detail.map { " (\($0))" } ?? ""
            throw CommandFailure.failure("not sent: \(failure.message)\(detail)")
        }
        print("sent: the server accepted the message")
    }
}
