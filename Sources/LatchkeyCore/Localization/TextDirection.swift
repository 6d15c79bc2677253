/// The direction a language's text runs in; the raw value is the HTML `dir` attribute.
package enum TextDirection: String, Sendable {
    /// Left to right (`ltr`): English, Portuguese, Spanish.
    case leftToRight = "ltr"
    /// Right to left (`rtl`): Arabic.
    case rightToLeft = "rtl"
}
