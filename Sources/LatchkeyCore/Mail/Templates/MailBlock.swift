/// One piece of a message body, rendered both as plain text and as HTML by ``MailLayout``.
enum MailBlock {
    /// The product's name at the top of the card (HTML only; the plain text names it in its
    /// sentences).
    case brand(String)
    /// A paragraph of text.
    case paragraph(String)
    /// A call to action: a button in HTML, the bare URL on its own line in plain text.
    case button(label: String, url: String)
    /// The raw URL under a button, for mail clients that do not show buttons (HTML only;
    /// the plain text already shows the URL).
    case linkFallback(label: String, url: String)
}
