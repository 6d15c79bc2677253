import Foundation

/// Runs `body(index)` on `count` threads released together; returns when all are done.
package func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread.detachNewThread {
            start.wait()
            body(index)
            done.leave()
        }
    }
    for _ in 0..<count { start.signal() }
    done.wait()
}
