public import Foundation

extension LatchkeyClientError: LocalizedError {
    /// ``message(for:)`` in the first of the person's preferred languages the SDK has
    /// (`Locale.preferredLanguages`, else English), so `error.localizedDescription` and
    /// SwiftUI's `alert(isPresented:error:…)` show the same sentence as ``message(for:)``.
    public var errorDescription: String? {
        message(for: ClientLanguage(preferredLanguages: Locale.preferredLanguages))
    }
}
