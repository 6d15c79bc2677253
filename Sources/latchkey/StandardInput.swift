import Foundation
import LatchkeyClient

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard input, a line at a time, for the secrets the client commands never take as
/// arguments (passwords, mailed links): piped — read at once, at most ``maximumSize`` bytes of
/// UTF-8 — or typed at a terminal, each line asked for with a prompt on standard error and,
/// for a secret, not echoed.
struct StandardInput {
    static let maximumSize = 8192

    /// Whether standard input is a terminal (a person typing) rather than a pipe or file.
    let isTerminal: Bool
    /// The piped lines not taken yet; empty for a terminal.
    private var lines: ArraySlice<String>

    /// Standard input as it is: a terminal is read line by line later, anything else now.
    static func open() throws -> StandardInput {
        guard isatty(STDIN_FILENO) == 0 else { return StandardInput(isTerminal: true, lines: []) }
        let data = FileHandle.standardInput.readData(ofLength: maximumSize + 1)
        guard data.count <= maximumSize, let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure.failure("standard input must be UTF-8 text of at most \(maximumSize) bytes")
        }
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map(String.init)
        if lines.last == "" { lines.removeLast() }
        return StandardInput(isTerminal: false, lines: lines[...])
    }

    /// The next piped line, as typed; nil when there is none, when it is empty, and always at
    /// a terminal (where nothing was typed ahead).
    mutating func next() -> ClientSecret? {
        guard let line = lines.popFirst(), !line.isEmpty else { return nil }
        return ClientSecret(line)
    }

    /// A secret: the next piped line, or at a terminal a line typed after `prompt` without echo.
    ///
    /// - Throws: `missing` as the failure when there is none or it is empty.
    mutating func required(_ prompt: String, missing: String) throws -> ClientSecret {
        let value = isTerminal ? Self.typed(prompt, echo: false).map(ClientSecret.init) : next()
        guard let value, !value.exposed.isEmpty else { throw CommandFailure.failure(missing) }
        return value
    }

    /// A line typed at the terminal after `prompt`, echoed; "" when none was.
    func line(_ prompt: String) -> String {
        Self.typed(prompt, echo: true) ?? ""
    }

    /// Writes `prompt` to standard error and reads one line from the terminal, with the
    /// terminal's echo off while it is typed unless `echo` (``TerminalEcho``: the mode is
    /// restored on every way out, Ctrl-C included).
    private static func typed(_ prompt: String, echo: Bool) -> String? {
        guard !echo else {
            FileHandle.standardError.write(Data(prompt.utf8))
            return readLine(strippingNewline: true)
        }
        // The Return typed is not echoed either: end the prompt's line.
        defer { FileHandle.standardError.write(Data("\n".utf8)) }
        // The prompt shows once the echo is off, so nothing typed after it is echoed.
        return TerminalEcho.off {
            FileHandle.standardError.write(Data(prompt.utf8))
            return readLine(strippingNewline: true)
        }
    }
}
