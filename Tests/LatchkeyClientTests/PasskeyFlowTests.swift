import Foundation
import LatchkeyClient
import Testing

/// The rules around the system's passkey requests (PasskeyAuthorizationFlow), with real
/// concurrency: what ASAuthorizationController's adapter relies on.
@Suite struct PasskeyFlowTests {
    /// A request shown by `flow` in `style` that stays up until `pending` is finished.
    static func waiting(_ flow: PasskeyAuthorizationFlow, _ style: PasskeyAuthorizationFlow.Style, _ pending: PendingCompletion<String>, cancelled: Flag)
        -> Task<String, any Error>
    {
        Task {
            try await flow.perform(style: style, start: { finish in pending.set(finish) }, cancel: { cancelled.set(true) })
        }
    }

    @Test("a delegate answering twice, from two threads at once, resumes the caller once with the first answer")
    func doubleAnswer() async throws {
        for _ in 0..<50 {
            let flow = PasskeyAuthorizationFlow()
            let value: String = try await flow.perform(style: .modal, start: { finish in
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    finish(index == 0 ? .success("credential") : .failure(LatchkeyClientError(.passkeyCancelled)))
                }
            }, cancel: {})
            #expect(value == "credential")
        }
    }

    @Test("a second sheet while one is up is refused, not swapped in; afterwards a new one runs")
    func oneSheetAtATime() async throws {
        let flow = PasskeyAuthorizationFlow()
        let pending = PendingCompletion<String>()
        let cancelled = Flag()
        let first = Self.waiting(flow, .modal, pending, cancelled: cancelled)
        while !pending.isSet { try await Task.sleep(nanoseconds: 1_000_000) }
        for style in [PasskeyAuthorizationFlow.Style.modal, .autoFill] {
            await #expect(throws: LatchkeyClientError(.passkeyRefused, reasons: ["passkey_request_in_progress"])) {
                let _: String = try await flow.perform(style: style, start: { _ in }, cancel: {})
            }
        }
        pending.finish(.success("first"))
        #expect(try await first.value == "first")
        #expect(!cancelled.value)
        let next: String = try await flow.perform(style: .modal, start: { $0(.success("next")) }, cancel: {})
        #expect(next == "next")
    }

    @Test("a sheet withdraws a waiting AutoFill request: its caller gets passkey_cancelled, the controller is cancelled")
    func sheetReplacesAutoFill() async throws {
        let flow = PasskeyAuthorizationFlow()
        let pending = PendingCompletion<String>()
        let autoFillCancelled = Flag()
        let autoFill = Self.waiting(flow, .autoFill, pending, cancelled: autoFillCancelled)
        while !pending.isSet { try await Task.sleep(nanoseconds: 1_000_000) }
        let sheet: String = try await flow.perform(style: .modal, start: { $0(.success("sheet")) }, cancel: {})
        #expect(sheet == "sheet")
        await #expect(throws: LatchkeyClientError(.passkeyCancelled, reasons: ["replaced_by_another_request"])) { try await autoFill.value }
        #expect(autoFillCancelled.value)
        // The withdrawn controller's own late "canceled" changes nothing.
        pending.finish(.failure(PasskeyAuthorizationFlow.error(authorizationErrorCode: 1001)))
        // A new AutoFill request replaces an older one the same way.
        let second = PendingCompletion<String>()
        let older = Self.waiting(flow, .autoFill, second, cancelled: Flag())
        while !second.isSet { try await Task.sleep(nanoseconds: 1_000_000) }
        let third = PendingCompletion<String>()
        let newer = Self.waiting(flow, .autoFill, third, cancelled: Flag())
        await #expect(throws: LatchkeyClientError(.passkeyCancelled, reasons: ["replaced_by_another_request"])) { try await older.value }
        while !third.isSet { try await Task.sleep(nanoseconds: 1_000_000) }
        third.finish(.success("picked"))
        #expect(try await newer.value == "picked")
    }

    @Test("cancelling the caller's task ends the wait with CancellationError and cancels the request")
    func cancellation() async throws {
        let flow = PasskeyAuthorizationFlow()
        let pending = PendingCompletion<String>()
        let cancelled = Flag()
        let caller = Self.waiting(flow, .autoFill, pending, cancelled: cancelled)
        while !pending.isSet { try await Task.sleep(nanoseconds: 1_000_000) }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(cancelled.value)
        // The flow is free again.
        let next: String = try await flow.perform(style: .modal, start: { $0(.success("next")) }, cancel: {})
        #expect(next == "next")
    }
}
