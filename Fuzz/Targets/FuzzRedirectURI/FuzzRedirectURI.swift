import LatchkeyCore
import LatchkeyFuzzSupport

// Redirect URIs as clients register and requests name them (RedirectURI, matches(_:)). The
// input's first line is registered, the second requested. Properties: an accepted URI is 1
// to 2048 bytes of printable ASCII without space, `#`, `*`, `"`, `<`, `>`, `\`, `^`, `` ` ``,
// `{`, `|` or `}`; plain http only to 127.0.0.1 or [::1]; it matches itself; a match of
// another string is only a loopback URI with another port; every refusal is
// invalid_redirect_uri.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRedirectURI(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let lines = FuzzInput(data, size).lines(limit: 2)
    let registered: RedirectURI
    do {
        registered = try RedirectURI(lines[0])
    } catch let error as LatchkeyError {
        expect(error.code == .invalidRedirectURI, "RedirectURI threw \(error.code)")
        return 0
    } catch {
        expect(false, "RedirectURI threw \(type(of: error))")
        return 0
    }
    let text = registered.value
    expect(!text.isEmpty && text.utf8.count <= RedirectURI.maximumLength, "a URI of the wrong length")
    expect(
        text.utf8.allSatisfy { (0x21...0x7E).contains($0) && !Array("#*\"<>\\^`{|}".utf8).contains($0) },
        "a URI with a character it must not hold")
    if text.hasPrefix("http:") {
        expect(
            registered.kind == .loopback && (text.hasPrefix("http://127.0.0.1") || text.hasPrefix("http://[::1]")),
            "plain http to a host other than loopback")
    }
    expect(registered.matches(text), "a URI does not match itself")
    if lines.count > 1, lines[1] != text, registered.matches(lines[1]) {
        let requested = try? RedirectURI(lines[1])
        expect(registered.kind == .loopback && requested?.kind == .loopback, "a different URI matched, not by its port")
    }
    return 0
}
