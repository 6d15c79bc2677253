import Foundation

/// Whether `condition` holds within 10 s, checked every millisecond: for what other threads
/// bring about, such as a transaction queueing or a job starting.
package func eventually(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
        if condition() { return true }
        usleep(1000)
    }
    return condition()
}
