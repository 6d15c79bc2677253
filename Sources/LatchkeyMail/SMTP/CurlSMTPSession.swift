import LatchkeyCore
import CCurl
import Foundation
import LatchkeyCrypto

/// One SMTP delivery over a libcurl easy handle: the only code that touches libcurl.
///
/// The handle, the recipient list and the error buffer belong to this object and are freed
/// in `deinit`; no pointer or curl type leaves it. The message is uploaded from memory by a
/// C read callback that finds its data through curl's user-data pointer (it captures
/// nothing). Failures become ``LatchkeyError`` `mail_delivery_failed` with a message safe
/// for anyone and curl's own error text as detail; neither ever holds the password.
final class CurlSMTPSession {
    /// `curl_global_init` must run once per process before any handle exists; a static
    /// `let` is initialised exactly once, thread-safely.
    private static let globalInitialisation: CURLcode = curl_global_init(latchkey_curl_global_default())

    private let handle: UnsafeMutableRawPointer
    private var recipients: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// Creates a handle. Throws `mail_delivery_failed` if libcurl cannot start.
    init() throws {
        guard Self.globalInitialisation == CURLE_OK, let handle = curl_easy_init() else {
            throw LatchkeyError(.mailDelivery, "The SMTP client could not start.", detail: "curl initialisation failed")
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(recipients)
        errorBuffer.deallocate()
    }

    /// Sends `payload` (a complete RFC 5322 message) to `recipient` through the server in
    /// `configuration`. A session delivers once; create a new one per message. With
    /// `conversation`, what client and server said is recorded in it (credentials left out).
    func deliver(
        _ payload: Data, to recipient: String, configuration: SMTPConfiguration, conversation: SMTPConversation.Recorder? = nil
    ) throws {
        try setOption(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try setOption(CURLOPT_NOSIGNAL, 1)
        try setOption(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
        try setOption(CURLOPT_URL, configuration.url)
        switch configuration.security {
        case .implicitTLS, .startTLS:
            try setOption(CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue))
        case .plainTextLoopback:
            try setOption(CURLOPT_USE_SSL, Int(CURLUSESSL_NONE.rawValue))
        }
        try setOption(CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2))
        try setOption(CURLOPT_SSL_VERIFYPEER, 1)
        try setOption(CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = configuration.caFile {
            try setOption(CURLOPT_CAINFO, caFile)
        }
        if let username = configuration.username, let password = configuration.password {
            try setOption(CURLOPT_USERNAME, username)
            try setOption(CURLOPT_PASSWORD, password.exposed)
        }
        let milliseconds = Int(min(configuration.timeout * 1000, Double(Int32.max)))
        try setOption(CURLOPT_TIMEOUT_MS, milliseconds)
        try setOption(CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        try setOption(CURLOPT_MAIL_FROM, "<\(configuration.sender.address)>")
        recipients = curl_slist_append(nil, "<\(recipient)>")
        guard recipients != nil else {
            throw LatchkeyError(.mailDelivery, "The SMTP client could not start.", detail: "curl_slist_append failed")
        }
        try check(latchkey_curl_setopt_slist(handle, CURLOPT_MAIL_RCPT, recipients))

        if let conversation {
            try setOption(CURLOPT_VERBOSE, 1)
            try check(latchkey_curl_setopt_debug_callback(handle, recordConversation))
            try setOption(CURLOPT_DEBUGDATA, pointer: Unmanaged.passUnretained(conversation).toOpaque())
        }
        let upload = UploadCursor(bytes: Array(payload))
        try setOption(CURLOPT_UPLOAD, 1)
        try check(latchkey_curl_setopt_read_callback(handle, readUploadChunk))
        try setOption(CURLOPT_READDATA, pointer: Unmanaged.passUnretained(upload).toOpaque())
        let result = withExtendedLifetime((upload, conversation)) { curl_easy_perform(handle) }
        try check(result)
    }

    private func setOption(_ option: CURLoption, _ value: Int) throws {
        try check(latchkey_curl_setopt_long(handle, option, value))
    }

    private func setOption(_ option: CURLoption, _ value: String) throws {
        // libcurl copies string options, so the temporary C string may go away afterwards.
        try check(latchkey_curl_setopt_string(handle, option, value))
    }

    private func setOption(_ option: CURLoption, pointer: UnsafeMutableRawPointer) throws {
        try check(latchkey_curl_setopt_pointer(handle, option, pointer))
    }

    /// Turns a curl result into a thrown ``LatchkeyError`` with a safe message.
    private func check(_ code: CURLcode) throws {
        guard code != CURLE_OK else { return }
        let message = switch code {
        case CURLE_LOGIN_DENIED:
            "The mail server rejected the SMTP username or password."
        case CURLE_USE_SSL_FAILED:
            "The mail server does not offer STARTTLS; the message was not sent unencrypted."
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE:
            "A verified TLS connection to the mail server could not be established."
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT:
            "The mail server could not be reached."
        default:
            "The mail server did not accept the message."
        }
        var detail = "curl error \(code.rawValue): \(String(cString: curl_easy_strerror(code)))"
        let bufferText = String(cString: errorBuffer)
        if !bufferText.isEmpty { detail += " (\(CredentialScrubber.scrub(bufferText)))" }
        var reply = 0
        if latchkey_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &reply) == CURLE_OK, reply != 0 {
            detail += "; last SMTP reply \(reply)"
        }
        throw LatchkeyError(.mailDelivery, message, detail: detail)
    }
}

/// The message being uploaded and how much of it curl has read so far. Used only on the
/// thread running `curl_easy_perform`.
private final class UploadCursor {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }
}

/// curl's read callback: copies the next part of the message into `buffer`; 0 means done.
private func readUploadChunk(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userData: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let userData else { return latchkey_curl_readfunc_abort() }
    let upload = Unmanaged<UploadCursor>.fromOpaque(userData).takeUnretainedValue()
    let length = min(size * count, upload.bytes.count - upload.offset)
    guard length > 0 else { return 0 }
    upload.bytes.withUnsafeBufferPointer { source in
        UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + upload.offset, byteCount: length)
    }
    upload.offset += length
    return length
}

/// curl's debug callback: hands what was said to the ``SMTPConversation/Recorder`` behind the
/// debug-data pointer. Always 0 (go on).
private func recordConversation(
    _ handle: UnsafeMutableRawPointer?, _ type: curl_infotype, _ data: UnsafeMutablePointer<CChar>?, _ size: Int,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let data, let userData else { return 0 }
    let kind: SMTPConversation.Recorder.Kind
    switch type {
    case CURLINFO_TEXT: kind = .note
    case CURLINFO_HEADER_IN: kind = .server
    case CURLINFO_HEADER_OUT: kind = .client
    default: return 0  // the message itself and raw TLS bytes
    }
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    Unmanaged<SMTPConversation.Recorder>.fromOpaque(userData).takeUnretainedValue().record(kind, String(decoding: bytes, as: UTF8.self))
    return 0
}
