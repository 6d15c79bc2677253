import CMicroHTTPD
import LatchkeyCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One open connection as the server follows it from start to close: where its current
/// request is (receiving, waiting for a worker, answered) and since when, so that a request
/// that takes too long to arrive is cut off, a stop can hand back connections waiting for a
/// worker, and at the connection limit the one that has sent nothing for longest can be
/// closed to make room (``evict()``).
///
/// Every change happens under the record's lock, and so do the libmicrohttpd calls that must
/// not race with it: suspending the connection (so a resume never overtakes its suspension)
/// and shutting its socket down (only while the library has not closed it).
final class ConnectionRecord: Sendable {
    /// Where the connection is.
    private enum Phase {
        /// A request's head (or the TLS handshake before it) is arriving; it must be complete
        /// by the request deadline counted from `since`.
        case receiving(since: ContinuousClock.Instant)
        /// The request's head is in, its body arriving; the same deadline applies.
        case receivingBody(since: ContinuousClock.Instant)
        /// The request is complete and being answered on the event thread, or its response
        /// is being sent.
        case answering
        /// Suspended until a worker has the response.
        case awaitingWorker
        /// The worker's response, for the event thread to send once the connection resumes.
        case answered(HTTPResponse)
        /// The server stopped waiting for the worker; the connection resumes to be closed.
        case abandoned
        /// Between requests since the last response was sent; the idle timeout applies, not
        /// the request deadline.
        case idle(since: ContinuousClock.Instant)
        /// Shut down at the request deadline, or to make room; the library is closing it.
        case cutOff
        /// Closed by the library: the socket must not be touched any more.
        case closed
    }

    /// How much later than the last response the client's last bytes must have arrived to
    /// count as a new request: the kernel keeps their time in scheduler ticks (up to 10 ms).
    private static let receiveTimeSlack = Duration.milliseconds(20)

    /// The TCP peer's address, as admitted and counted (nil: unknown, not counted).
    let peer: IPAddress?
    /// ``peer`` as text, written once for all the connection's requests (most of which come
    /// from the peer itself, not through a trusted proxy).
    let peerText: String?
    private let descriptor: Int32
    private nonisolated(unsafe) let connection: OpaquePointer
    private let phase: Mutex<Phase>
    /// Whether the connection's place in the admission is still to be given back.
    private let holdsPlace: Atomic<Bool>

    /// A record for `connection` (socket `descriptor`) from `peer`, starting now.
    init(connection: OpaquePointer, descriptor: Int32, peer: IPAddress?) {
        self.connection = connection
        self.descriptor = descriptor
        self.peer = peer
        peerText = peer?.description
        phase = Mutex(.receiving(since: .now))
        holdsPlace = Atomic(peer != nil)
    }

    /// The peer whose place in the admission this connection holds, the first time it is
    /// asked (when it is evicted, or when it closes); nil after that, or when not counted.
    func takePlace() -> IPAddress? {
        holdsPlace.exchange(false, ordering: .acquiringAndReleasing) ? peer : nil
    }

    /// The request line of a new request arrived (on a connection that was between requests,
    /// its bytes came in together with the previous request).
    func requestStarted() {
        phase.withLock { phase in
            if case .idle = phase { phase = .receiving(since: .now) }
        }
    }

    /// The request's head is complete (its body may follow): the connection has sent
    /// something and is no longer one to ``evict()``.
    func headReceived() {
        phase.withLock { phase in
            if case .receiving(let since) = phase { phase = .receivingBody(since: since) }
        }
    }

    /// The request is complete and will be answered on the event thread.
    func requestReceived() {
        phase.withLock { $0 = .answering }
    }

    /// Suspends the connection until a worker's ``deliver(_:)`` (or ``abandon()``). Event
    /// thread only, before the job is handed to the worker, so the worker's resume always
    /// follows the suspension.
    func suspend() {
        phase.withLock { phase in
            MHD_suspend_connection(connection)
            phase = .awaitingWorker
        }
    }

    /// The worker's response: kept for the event thread and the connection resumed, unless
    /// the server has abandoned the connection meanwhile — then the response is dropped and
    /// its ``HTTPResponse/onCompletion`` called here, the connection having ended before it
    /// was sent. Any thread.
    func deliver(_ response: HTTPResponse) {
        if !resume(as: .answered(response)) {
            response.onCompletion?()
        }
    }

    /// The response a worker delivered, once the resumed connection is back on its event
    /// thread; nil when it was abandoned instead.
    func takeResponse() -> HTTPResponse? {
        phase.withLock { phase in
            guard case .answered(let response) = phase else { return nil }
            phase = .answering
            return response
        }
    }

    /// Resumes the connection if it waits for a worker, without a response: it is closed.
    /// For a stop that will not wait longer, or a job the closing worker pool refused; a
    /// worker's later response is dropped.
    func abandon() {
        resume(as: .abandoned)
    }

    /// Moves a connection waiting for a worker to `next` and resumes it; does nothing when it
    /// no longer waits. Exactly one of ``deliver(_:)`` and ``abandon()`` resumes it. The resume
    /// happens outside the lock — the event thread it wakes takes the lock at once — which is
    /// safe because a suspended connection stays open until it is resumed, and the server
    /// stops libmicrohttpd only after every worker and every delivery under way has ended.
    /// Returns whether it resumed it.
    @discardableResult
    private func resume(as next: Phase) -> Bool {
        let waited = phase.withLock { phase in
            guard case .awaitingWorker = phase else { return false }
            phase = next
            return true
        }
        if waited { MHD_resume_connection(connection) }
        return waited
    }

    /// The response was sent (or the request failed); the connection is between requests —
    /// unless it was shut down meanwhile (cut off, evicted), and is closing.
    func requestCompleted() {
        phase.withLock { phase in
            switch phase {
            case .cutOff, .closed: break
            default: phase = .idle(since: .now)
            }
        }
    }

    /// The library is about to close the socket; nothing may touch it from now on.
    func closed() {
        phase.withLock { $0 = .closed }
    }

    /// Since when the connection has sent no complete request head — a new connection since
    /// it was accepted, a kept-alive one since its last response — or nil when it has (its
    /// request is being received, answered or sent), or is closing.
    var silentSince: ContinuousClock.Instant? {
        phase.withLock { phase in
            switch phase {
            case .receiving(let since), .idle(let since): since
            default: nil
            }
        }
    }

    /// Shuts the socket down if the connection has still sent no complete request head (the
    /// library then closes it); returns whether it did. Accepting thread, at the connection
    /// limit.
    func evict() -> Bool {
        phase.withLock { phase in
            switch phase {
            case .receiving, .idle:
                shutdown(descriptor, Int32(SHUT_RDWR))
                phase = .cutOff
                return true
            default:
                return false
            }
        }
    }

    /// Shuts the socket down when a request has been arriving for longer than `deadline`
    /// (the library then closes the connection); returns whether it did. On a connection
    /// between requests, notices that the next request has begun (bytes arrived since the
    /// last response) and starts its deadline. Deadline sweep thread.
    func enforce(deadline: Duration, now: ContinuousClock.Instant) -> Bool {
        phase.withLock { phase in
            switch phase {
            case .receiving(let since) where now - since >= deadline, .receivingBody(let since) where now - since >= deadline:
                shutdown(descriptor, Int32(SHUT_RDWR))
                phase = .cutOff
                return true
            case .idle(let since):
                if let received = lastDataReceived(now: now), received > since + Self.receiveTimeSlack {
                    phase = .receiving(since: received)
                }
                return false
            default:
                return false
            }
        }
    }

    /// When the last bytes from the client arrived, by the kernel's count; nil if unknown.
    private func lastDataReceived(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { return nil }
        return now - .milliseconds(Int(info.tcpi_last_data_recv))
    }
}
