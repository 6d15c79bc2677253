/// A secret value (token, password, code, verifier) that never prints.
///
/// Every textual form — `description`, `debugDescription`, string interpolation,
/// `dump` and `Mirror` reflection — is `<redacted>`. The wrapped value is reachable
/// only through ``exposed``, so a reviewer can search for every place a secret leaves
/// its wrapper.
package struct Redacted<Value: Sendable>: Sendable, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The secret itself. Read it only to hash it, compare it or send it where it belongs.
    package let exposed: Value

    /// Wraps `value` so that it cannot be printed or logged by accident.
    package init(_ value: Value) {
        self.exposed = value
    }

    /// Always `<redacted>`.
    package var description: String { "<redacted>" }

    /// Always `<redacted>`.
    package var debugDescription: String { "<redacted>" }

    /// A mirror with no children, so `dump` and reflection show nothing of the value.
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension Redacted: Equatable where Value: Equatable {}
extension Redacted: Hashable where Value: Hashable {}
