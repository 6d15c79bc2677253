// Stand-in for the one AppKit type the SDK names on macOS: the window an
// `ASPresentationAnchor` is there. Copied from Apple's declarations; never run.
@_exported public import AppleFoundation

/// `NSResponder`.
@MainActor open class NSResponder: NSObject {}
/// `NSWindow`.
@MainActor open class NSWindow: NSResponder {}
