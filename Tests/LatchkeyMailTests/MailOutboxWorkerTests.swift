import Foundation
import LatchkeyCore
import LatchkeyStorage
import LatchkeyMail
import Synchronization
import Testing
import LatchkeyTestSupport

/// A real transport (``FileMailTransport``) behind a failure counter: each message fails
/// `failuresPerMessage` times before it is written, and every accepted send is recorded.
final class FlakyFileTransport: MailTransport {
    private let files: FileMailTransport
    private let failuresPerMessage: Int
    private let attempts = Mutex<[String: Int]>([:])
    private let accepted = Mutex<[String]>([])
    private let onDelivery: DispatchSemaphore?

    init(files: FileMailTransport, failuresPerMessage: Int, onDelivery: DispatchSemaphore? = nil) {
        self.files = files
        self.failuresPerMessage = failuresPerMessage
        self.onDelivery = onDelivery
    }

    func send(_ message: MailMessage) throws {
        let attempt = attempts.withLock { counts -> Int in
            counts[message.id, default: 0] += 1
            return counts[message.id, default: 0]
        }
        if attempt <= failuresPerMessage {
            throw LatchkeyError(.mailDelivery, "The mail server did not accept the message.", detail: "attempt \(attempt) refused")
        }
        try files.send(message)
        accepted.withLock { $0.append(message.id) }
        onDelivery?.signal()
    }

    /// Ids of the messages delivered, in order, once per accepted send.
    var deliveredIDs: [String] { accepted.withLock { $0 } }
    /// How many times `id` was tried.
    func attemptCount(_ id: String) -> Int { attempts.withLock { $0[id, default: 0] } }
}

@Suite struct MailOutboxWorkerTests {
    let clock = ManualClock()
    let store: SQLiteStore
    let logs = MemoryLogSink()
    let metrics = MailDeliveryCounters()
    let folder: TemporaryDirectory
    let databaseFolder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory()
        databaseFolder = try TemporaryDirectory()
        store = try SQLiteStore.migrated(in: databaseFolder.url, clock: clock)
    }

    func makeTransport(failures: Int, onDelivery: DispatchSemaphore? = nil) throws -> FlakyFileTransport {
        let files = try FileMailTransport(
            directory: folder.url, sender: MailSender(address: "no-reply@latchkey.example"), clock: clock
        )
        return FlakyFileTransport(files: files, failuresPerMessage: failures, onDelivery: onDelivery)
    }

    func makeWorker(_ transport: any MailTransport, policy: OutboxRetryPolicy = OutboxRetryPolicy(), batchSize: Int = 10) -> OutboxWorker {
        OutboxWorker(
            store: store, transport: transport, clock: clock, logger: Logger(sink: logs, clock: clock),
            addressKey: { "key-\($0.utf8.count)" }, metrics: metrics, retryPolicy: policy, batchSize: batchSize
        )
    }

    func enqueue(_ ids: [String], to: String = "alice@example.com") throws {
        for id in ids {
            try store.enqueue(makeResetMail(id: id, to: to, link: longResetLink), now: clock.now())
        }
    }

    @Test("each due message is sent exactly once across two runs")
    func exactlyOnce() throws {
        let transport = try makeTransport(failures: 0)
        let worker = makeWorker(transport, batchSize: 2)
        try enqueue(["m1", "m2", "m3", "m4", "m5"])
        #expect(worker.runOnce() == 5)
        #expect(worker.runOnce() == 0)
        #expect(transport.deliveredIDs == ["m1", "m2", "m3", "m4", "m5"])
        #expect(try store.pendingMailCount() == 0)
        #expect(store.row("m3")?.sentAt == clock.now())
        #expect(metrics.sent == 5 && metrics.failed == 0)
        #expect(try folder.fileNames() == ["m1.eml", "m2.eml", "m3.eml", "m4.eml", "m5.eml"])
    }

    @Test("a failing message is retried after 30 s, 60 s, 120 s, and sent once it succeeds")
    func backoff() throws {
        let transport = try makeTransport(failures: 3)
        let worker = makeWorker(transport)
        let start = clock.now()
        try enqueue(["m1"])

        #expect(worker.runOnce() == 0)
        #expect(store.row("m1")?.attempts == 1)
        #expect(store.row("m1")?.dueAt == start.addingTimeInterval(30))
        #expect(store.row("m1")?.lastError?.contains("mail_delivery_failed") == true)

        // Not due yet: nothing is tried.
        clock.advance(by: 29)
        #expect(worker.runOnce() == 0)
        #expect(transport.attemptCount("m1") == 1)

        clock.advance(by: 1)
        #expect(worker.runOnce() == 0)
        #expect(store.row("m1")?.dueAt == start.addingTimeInterval(30 + 60))

        clock.advance(by: 60)
        #expect(worker.runOnce() == 0)
        #expect(store.row("m1")?.dueAt == start.addingTimeInterval(30 + 60 + 120))

        clock.advance(by: 119)
        #expect(worker.runOnce() == 0)
        #expect(transport.attemptCount("m1") == 3)
        clock.advance(by: 1)
        #expect(worker.runOnce() == 1)
        #expect(transport.attemptCount("m1") == 4)
        #expect(transport.deliveredIDs == ["m1"])
        #expect(try store.pendingMailCount() == 0)
        #expect(metrics.sent == 1 && metrics.failed == 3 && metrics.gaveUp == 0 && metrics.retried == 3)

        let failures = logs.lines.filter { $0.contains("\"event\":\"mail_failed\"") }
        #expect(failures.count == 3)
        #expect(failures[0].contains("\"retry_in_seconds\":30"))
        #expect(failures[1].contains("\"retry_in_seconds\":60"))
        #expect(failures[2].contains("\"retry_in_seconds\":120"))
        #expect(logs.lines.contains { $0.contains("\"event\":\"mail_sent\"") && $0.contains("\"attempt\":4") })
    }

    @Test("a message that keeps failing is given up after the last attempt")
    func givesUp() throws {
        let transport = try makeTransport(failures: .max)
        let worker = makeWorker(transport, policy: OutboxRetryPolicy(baseDelay: 30, maximumDelay: 3600, maximumAttempts: 3))
        try enqueue(["m1"])
        for _ in 0..<10 {
            worker.runOnce()
            clock.advance(by: 3600)
        }
        #expect(transport.attemptCount("m1") == 3)
        #expect(store.row("m1")?.gaveUp == true)
        #expect(try store.pendingMailCount() == 0)
        #expect(metrics.failed == 3 && metrics.gaveUp == 1 && metrics.sent == 0)
        #expect(logs.lines.filter { $0.contains("\"gave_up\":true") }.count == 1)
    }

    @Test("the backoff doubles up to one hour and stops at the attempt limit")
    func retryPolicy() {
        let policy = OutboxRetryPolicy()
        let now = Date(timeIntervalSince1970: 0)
        let delays = (0..<9).map { policy.retryDate(previousFailures: $0, now: now)?.timeIntervalSince1970 }
        #expect(delays == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600])
        #expect(policy.retryDate(previousFailures: 9, now: now) == nil)
        #expect(OutboxRetryPolicy(maximumAttempts: 100).retryDate(previousFailures: 90, now: now)?.timeIntervalSince1970 == 3600)
    }

    @Test("a message with an unsafe recipient is given up at once, not retried")
    func unsafeRecipient() throws {
        let transport = try makeTransport(failures: 0)
        let worker = makeWorker(transport)
        // The templates refuse such an address; a row queued by other means must not loop.
        let unsafe = try MailMessage(id: "bad", to: "a@example.com, b@example.com", subject: "Hi", textBody: "x", htmlBody: "x", locale: "en")
        try store.enqueue(unsafe, now: clock.now())
        #expect(worker.runOnce() == 0)
        #expect(store.row("bad")?.gaveUp == true)
        #expect(store.row("bad")?.lastError?.contains("invalid_mail_header") == true)
        #expect(metrics.gaveUp == 1)
    }

    @Test("logs name the recipient only by its key and never show the link")
    func logsArePseudonymous() throws {
        let transport = try makeTransport(failures: 1)
        let worker = makeWorker(transport)
        try enqueue(["m1"])
        worker.runOnce()
        clock.advance(by: 30)
        worker.runOnce()
        #expect(logs.lines.count == 2)
        for line in logs.lines {
            #expect(!line.contains("alice@example.com"))
            #expect(!line.contains("token="))
            #expect(line.contains("\"recipient_key\":\"key-17\""))
            #expect(line.contains("\"message_id\":\"m1\""))
        }
    }

    @Test("the background loop delivers queued mail and stop waits for it to end")
    func backgroundLoop() throws {
        let delivered = DispatchSemaphore(value: 0)
        let transport = try makeTransport(failures: 0, onDelivery: delivered)
        let worker = makeWorker(transport)
        try enqueue(["m1"])
        let runner = JobRunner(jobs: [worker], logger: Logger(sink: logs, clock: clock))
        runner.start()
        runner.start()
        #expect(delivered.wait(timeout: .now() + 60) == .success)
        runner.stop()
        runner.stop()

        // The loop has ended, so a message queued now waits for the next run.
        try enqueue(["m2"])
        #expect(try store.pendingMailCount() == 1)
        #expect(worker.runOnce() == 1)
        #expect(transport.deliveredIDs == ["m1", "m2"])
        #expect(logs.lines.filter { $0.contains("outbox_worker_started") }.count == 1)
        #expect(logs.lines.filter { $0.contains("outbox_worker_stopped") }.count == 1)
    }
}
