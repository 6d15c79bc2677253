import Dispatch
import Foundation
import LatchkeyCore
import LatchkeyTestSupport
import Synchronization
import Testing

/// A job that counts its runs and, while running, works in small steps until told to stop.
private final class SteppingJob: BackgroundJob {
    let name = "stepping_job"
    let schedule = JobSchedule(interval: 0.01)
    let runs = Atomic<Int>(0)
    let started = DispatchSemaphore(value: 0)

    func run(isStopping: () -> Bool) {
        runs.add(1, ordering: .relaxed)
        started.signal()
        // A long run (an hour of 10 ms steps) that only a stop request ends.
        for _ in 0..<360_000 where !isStopping() {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}

@Suite struct JobRunnerTests {
    @Test("stop ends a long run early, waits for it, and logs each job's start and stop once")
    func stopEndsARunEarly() throws {
        let logs = MemoryLogSink()
        let job = SteppingJob()
        let runner = JobRunner(jobs: [job], logger: Logger(sink: logs))
        runner.start()
        runner.start()
        #expect(job.started.wait(timeout: .now() + 30) == .success)
        runner.stop()
        runner.stop()
        let runsAfterStop = job.runs.load(ordering: .relaxed)
        #expect(runsAfterStop == 1)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(job.runs.load(ordering: .relaxed) == runsAfterStop)
        #expect(logs.lines.filter { $0.contains("stepping_job_started") }.count == 1)
        #expect(logs.lines.filter { $0.contains("stepping_job_stopped") }.count == 1)
    }

    @Test("a schedule's rest is its interval plus at most its jitter")
    func jitterStaysInBounds() {
        let schedule = JobSchedule(interval: 2, jitter: 0.5)
        let rests = (0..<1000).map { _ in schedule.nextRest() }
        #expect(rests.allSatisfy { (2...2.5).contains($0) })
        #expect(Set(rests).count > 1)
        #expect(JobSchedule(interval: 3).nextRest() == 3)
    }
}
