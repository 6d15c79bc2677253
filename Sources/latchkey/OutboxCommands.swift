import Foundation
import LatchkeyCore
import LatchkeyMail
import LatchkeyServer

/// `latchkey outbox list | show ID`: the mail the file transport wrote under
/// `DATA_DIR/outbox`, for trying Latchkey without a mail server.
func outbox(_ arguments: ArraySlice<String>) throws {
    guard let subcommand = arguments.first else { throw CommandFailure.usage("missing subcommand; run `latchkey outbox --help`") }
    let parsed = try ParsedArguments(arguments.dropFirst())
    switch subcommand {
    case "list":
        guard parsed.positional.isEmpty else { throw CommandFailure.usage("outbox list takes no arguments") }
        let directory = try outboxDirectory(try loadConfiguration())
        let formatter = ISO8601DateFormatter()
        for mail in try WrittenMail.all(in: directory) {
            print([mail.id, formatter.string(from: mail.writtenAt), mail.recipient, mail.subject].joined(separator: "\t"))
        }
    case "show":
        let id = try onePositional(parsed, "ID")
        let mail = try writtenMail(id, in: try outboxDirectory(try loadConfiguration()))
        print("""
            From: \(mail.sender)
            To: \(mail.recipient)
            Subject: \(mail.subject)
            Date: \(mail.dateText)

            \(mail.textBody)
            """)
    default:
        throw unknownSubcommand("outbox", subcommand, known: ["list", "show"])
    }
}

/// The file transport's folder, which must exist: the outbox commands read the server's
/// mail and never start a folder of their own.
private func outboxDirectory(_ configuration: Configuration) throws -> URL {
    guard configuration.mailTransport == .file else {
        throw CommandFailure.failure(
            "the outbox commands read the mail files of LATCHKEY_MAIL_TRANSPORT=file, but this configuration sends mail by "
                + configuration.mailTransport.rawValue)
    }
    let directory = configuration.outboxDirectory
    guard try FileAccess.exists(directory.path, what: "The outbox", code: .invalidConfiguration) else {
        throw CommandFailure.failure(
            "there is no outbox at \(directory.path) (LATCHKEY_DATA_DIR is \(configuration.dataDirectory.path)); "
                + "`latchkey serve` creates it. Point the command at the server's data with --data-dir, LATCHKEY_DATA_DIR or "
                + "LATCHKEY_CONFIG_FILE")
    }
    return directory
}

/// The mail whose id is `id`, or starts with it when only one does (ids are long).
private func writtenMail(_ id: String, in directory: URL) throws -> WrittenMail {
    // An id is a file name, never a path.
    guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
        throw CommandFailure.usage("ID must be a mail id as `latchkey outbox list` prints it")
    }
    let matches = try WrittenMail.all(in: directory).filter { $0.id.hasPrefix(id) }
    if let exact = matches.first(where: { $0.id == id }) { return exact }
    guard !matches.isEmpty else { throw CommandFailure.failure("no mail \(id) in \(directory.path); `latchkey outbox list` shows the ids") }
    guard matches.count == 1 else { throw CommandFailure.failure("\(matches.count) mails start with \(id); give more of the id") }
    return matches[0]
}
