// Stand-in for the part of Combine the sample app touches: a publisher SwiftUI's
// `onReceive(_:perform:)` subscribes to. Copied from Apple's declarations; never run.

/// `Publisher` (iOS 13.0, macOS 10.15).
@available(iOS 13.0, macOS 10.15, *)
public protocol Publisher<Output, Failure> {
    /// The kind of values published.
    associatedtype Output
    /// The kind of errors published.
    associatedtype Failure: Error
}
