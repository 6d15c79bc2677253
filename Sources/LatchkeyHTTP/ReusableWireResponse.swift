import CMicroHTTPD
import Synchronization

/// libmicrohttpd's form of one response sent many times exactly as it is (the health answer,
/// the key set until it changes): built on first use, once for each `Strict-Transport-Security`
/// setting it is sent with, then queued as it is for every request that gets the response —
/// libmicrohttpd counts its references, so connections still sending it keep it alive — and
/// released with this object. Each request is spared building the header fields and copying
/// the body again.
package final class ReusableWireResponse: Sendable {
    /// The built responses; touched only under the lock.
    private struct Built: @unchecked Sendable {
        var plain: OpaquePointer?
        var strict: OpaquePointer?
    }

    private let built = Mutex(Built())

    /// An empty holder: nothing is built until the response is first sent.
    package init() {}

    /// Whether a wire form was built: the response it holds went on the wire once.
    var isBuilt: Bool {
        built.withLock { $0.plain != nil || $0.strict != nil }
    }

    /// The response for `strictTransportSecurity`, from `build` the first time; nil when
    /// `build` fails (nothing is kept then, so the next request tries again).
    func wire(strictTransportSecurity: Bool, build: () -> OpaquePointer?) -> OpaquePointer? {
        built.withLock { built in
            if let existing = strictTransportSecurity ? built.strict : built.plain { return existing }
            let made = build()
            if strictTransportSecurity { built.strict = made } else { built.plain = made }
            return made
        }
    }

    deinit {
        built.withLock { built in
            for wire in [built.plain, built.strict].compactMap({ $0 }) {
                MHD_destroy_response(wire)
            }
        }
    }
}
