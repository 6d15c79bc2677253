/// Turns a list of ``MailBlock``s into the plain-text and HTML bodies of a message.
///
/// Every interpolated value is HTML-escaped in the HTML body; the HTML root always carries
/// `lang` and `dir`, so right-to-left languages display correctly.
struct MailLayout {
    let language: SupportedLanguage
    let title: String
    let blocks: [MailBlock]

    /// The longest line of a plain-text paragraph, in characters: what a terminal or a mail
    /// client shows without wrapping it again.
    static let textLineLength = 72

    /// The plain-text body: paragraphs wrapped at ``textLineLength`` characters (between
    /// words; a longer word keeps a line of its own) and separated by blank lines, URLs whole
    /// on lines of their own, so `cat` shows a link that can be copied as it is.
    var text: String {
        var parts: [String] = []
        for block in blocks {
            switch block {
            case .paragraph(let text): parts.append(Self.wrapped(text))
            case .button(_, let url): parts.append(url)
            case .brand, .linkFallback: continue
            }
        }
        return parts.joined(separator: "\n\n") + "\n"
    }

    /// `paragraph` broken into lines of at most ``textLineLength`` characters at spaces, but
    /// never inside an isolated name or time (FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE),
    /// which must open and close on one line.
    static func wrapped(_ paragraph: String) -> String {
        var words: [String] = []
        var openIsolates = 0
        for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
            if openIsolates > 0, let last = words.popLast() {
                words.append(last + " " + word)
            } else {
                words.append(String(word))
            }
            openIsolates += word.unicodeScalars.count { $0 == "\u{2068}" } - word.unicodeScalars.count { $0 == "\u{2069}" }
        }
        var lines: [String] = []
        var line = ""
        for word in words {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= textLineLength {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The HTML body: one centred card with inline styles (mail clients drop `<style>`).
    var html: String {
        var body = ""
        for block in blocks {
            switch block {
            case .brand(let name):
                body += "<p style=\"margin:0 0 24px 0;font-size:18px;font-weight:700;\">\(name.htmlEscaped)</p>\n"
            case .paragraph(let text):
                body += "<p style=\"margin:0 0 16px 0;\">\(text.htmlEscaped)</p>\n"
            case .button(let label, let url):
                body += """
                <p style="margin:24px 0;"><a href="\(url.htmlEscaped)" style="display:inline-block;padding:12px 24px;\
                background:#1a56db;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600;">\
                \(label.htmlEscaped)</a></p>\n
                """
            case .linkFallback(let label, let url):
                // A URL reads left to right even inside right-to-left text.
                body += """
                <p style="margin:24px 0 4px 0;font-size:13px;color:#555555;">\(label.htmlEscaped)</p>
                <p dir="ltr" style="margin:0;font-size:13px;text-align:left;word-break:break-all;">\
                <a href="\(url.htmlEscaped)" style="color:#1a56db;">\(url.htmlEscaped)</a></p>\n
                """
            }
        }
        let lang = language.rawValue
        let dir = language.direction
        return """
        <!DOCTYPE html>
        <html lang="\(lang)" dir="\(dir)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title.htmlEscaped)</title>
        </head>
        <body style="margin:0;padding:24px;background:#f4f4f5;color:#18181b;\
        font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;">
        <div lang="\(lang)" dir="\(dir)" style="max-width:480px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px;text-align:start;">
        \(body)</div>
        </body>
        </html>

        """
    }
}
