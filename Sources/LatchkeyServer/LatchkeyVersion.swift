/// The version of this Latchkey build, as `latchkey --version` prints it and the
/// `server_started` log names it.
package enum LatchkeyVersion {
    /// Semantic version of the server and its command line.
    package static let current = "0.1.0"
}
