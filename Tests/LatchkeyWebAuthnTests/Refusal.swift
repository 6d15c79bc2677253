import LatchkeyWebAuthn
import Testing

/// The code of the ``WebAuthnError`` that `body` throws, or nil when it returns. Any other error
/// is recorded as an issue: every refusal of the WebAuthn module is a `WebAuthnError`.
func refusal<Value>(_ body: () throws -> Value) -> WebAuthnError.Code? {
    do {
        _ = try body()
        return nil
    } catch let error as WebAuthnError {
        return error.code
    } catch {
        Issue.record("not a WebAuthnError: \(error)")
        return nil
    }
}
