package import LatchkeyCore
import LatchkeyCrypto
/// Delivers mail to an SMTP server (through libcurl), with TLS or STARTTLS and AUTH as the
/// ``SMTPConfiguration`` says.
///
/// Each message is rendered by the same writer as ``FileMailTransport`` and sent on a new
/// connection. Safe to call from any thread.
package struct SMTPMailTransport: MailTransport {
    /// The validated server settings.
    package let configuration: SMTPConfiguration
    private let writer: MIMEMessageWriter
    private let clock: any WallClock

    /// Creates the transport; `clock` dates the messages.
    package init(configuration: SMTPConfiguration, clock: any WallClock = SystemClock()) {
        self.configuration = configuration
        self.writer = MIMEMessageWriter(sender: configuration.sender)
        self.clock = clock
    }

    /// Sends `message`. Throws ``LatchkeyError`` `invalid_mail_header` for an unsafe header
    /// value and `mail_delivery_failed` when the server could not be reached, refused TLS,
    /// the login or the message; the error's detail holds curl's explanation, never the
    /// password or the message body.
    package func send(_ message: MailMessage) throws {
        let payload = try writer.render(message, date: clock.now())
        try CurlSMTPSession().deliver(payload, to: message.to, configuration: configuration)
    }

    /// Sends `message` as ``send(_:)`` does, recording what client and server said, for an
    /// operator checking the settings (`latchkey mail test`). Returns the conversation and the
    /// error the delivery failed with (nil: the server accepted the message).
    package func sendRecordingConversation(_ message: MailMessage) -> (conversation: SMTPConversation, failure: LatchkeyError?) {
        let recorder = SMTPConversation.Recorder()
        do {
            let payload = try writer.render(message, date: clock.now())
            try CurlSMTPSession().deliver(payload, to: message.to, configuration: configuration, conversation: recorder)
            return (recorder.conversation, nil)
        } catch let error as LatchkeyError {
            return (recorder.conversation, error)
        } catch {
            return (recorder.conversation, LatchkeyError(.mailDelivery, "The message was not sent.", detail: "\(type(of: error))"))
        }
    }
}
