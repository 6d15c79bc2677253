import Foundation
import LatchkeyCore
import LatchkeyMail
import LatchkeyServer

/// `latchkey outbox …`: the mail outbox in the database, whatever the transport (`list`,
/// `retry ID`, `drop ID`), and the `.eml` files the file transport wrote (`show ID`).
func outbox(_ arguments: ArraySlice<String>) throws {
    guard let subcommand = arguments.first else { throw CommandFailure.usage("missing subcommand; run `latchkey outbox --help`") }
    let statusFlags = OutboxListing.Status.allCases.map { "--\($0.rawValue)" }
    let parsed = try ParsedArguments(
        arguments.dropFirst(), flags: subcommand == "list" ? Set(statusFlags) : [], options: subcommand == "list" ? ["--limit"] : [])
    switch subcommand {
    case "list":
        guard parsed.positional.isEmpty else { throw CommandFailure.usage("outbox list takes no arguments") }
        let chosen = OutboxListing.Status.allCases.filter { parsed.flags.contains("--\($0.rawValue)") }
        guard chosen.count <= 1 else { throw CommandFailure.usage("give at most one of \(statusFlags.joined(separator: ", "))") }
        let limit = try parsed.options["--limit"].map { text in
            guard let limit = Int(text), (1...outboxListLimit).contains(limit) else {
                throw CommandFailure.usage("--limit must be a number from 1 to \(outboxListLimit)")
            }
            return limit
        } ?? 1000
        let store = try ServerApplication.openExistingStore(try loadConfiguration())
        let listing = try store.outboxListing(status: chosen.first, limit: limit)
        let formatter = ISO8601DateFormatter()
        for mail in listing {
            print(
                [
                    mail.id, mail.status.rawValue, formatter.string(from: mail.createdAt), String(mail.attempts), mail.recipient,
                    mail.subject, mail.lastError.map(oneLine) ?? "-",
                ].joined(separator: "\t"))
        }
        if listing.count == limit {
            FileHandle.standardError.write(Data("latchkey: the oldest \(limit) mails are shown; --limit N shows more\n".utf8))
        }
    case "retry", "drop":
        let id = try onePositional(parsed, "ID")
        let store = try ServerApplication.openExistingStore(try loadConfiguration())
        let mail = try undeliveredMail(id, in: store)
        let change = subcommand == "retry" ? try store.retryMail(id: mail.id, now: Date()) : try store.dropMail(id: mail.id, now: Date())
        switch change {
        case .done where subcommand == "retry":
            print("\(mail.id) to \(mail.recipient) is due now: a running server sends it within a second (`latchkey outbox list` shows how it went)")
        case .done:
            print("dropped \(mail.id) to \(mail.recipient): it will not be sent")
        case .noSuchMail: throw CommandFailure.failure("no mail \(mail.id) in the outbox any more")
        case .alreadySent: throw CommandFailure.failure("\(mail.id) has been sent meanwhile")
        case .beingSent: throw CommandFailure.failure("\(mail.id) is being sent right now; try again in a minute if it fails")
        case .textErased: throw CommandFailure.failure("\(mail.id) was given up by an older version, which erased its text: nothing left to send")
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
        throw unknownSubcommand("outbox", subcommand, known: ["list", "show", "retry", "drop"])
    }
}

/// The most rows `outbox list --limit` shows, and looks through for an id's prefix.
private let outboxListLimit = 100_000

/// `text` on one line (a last error may hold curl's text with line breaks).
private func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).joined(separator: " ").replacingOccurrences(of: "\t", with: " ")
}

/// The pending or failed mail whose id is `id`, or starts with it when only one does.
private func undeliveredMail(_ id: String, in store: any Store) throws -> OutboxListing {
    guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
        throw CommandFailure.usage("ID must be a mail id as `latchkey outbox list` prints it")
    }
    let candidates = try store.outboxListing(status: .pending, limit: outboxListLimit)
        + store.outboxListing(status: .failed, limit: outboxListLimit)
    let matches = candidates.filter { $0.id.hasPrefix(id) }
    if let exact = matches.first(where: { $0.id == id }) { return exact }
    guard !matches.isEmpty else {
        throw CommandFailure.failure("no pending or failed mail \(id); `latchkey outbox list --pending` and `--failed` show them")
    }
    guard matches.count == 1 else { throw CommandFailure.failure("\(matches.count) mails start with \(id); give more of the id") }
    return matches[0]
}

/// The file transport's folder, which must exist: `outbox show` reads the server's mail and
/// never starts a folder of its own.
private func outboxDirectory(_ configuration: Configuration) throws -> URL {
    guard configuration.mailTransport == .file else {
        throw CommandFailure.failure(
            "outbox show reads the mail files of LATCHKEY_MAIL_TRANSPORT=file; under \(configuration.mailTransport.rawValue) a mail's "
                + "text is not kept once sent. `latchkey outbox list` shows every mail's status")
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
