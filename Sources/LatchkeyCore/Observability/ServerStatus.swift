/// What the operations endpoints report: whether the database answers, and the metrics
/// with the outbox depth read at the time of asking.
package struct ServerStatus: Sendable {
    private let store: any MaintenanceStore & OutboxStore
    private let metrics: ServerMetrics

    /// A status over `store` and `metrics`.
    package init(store: any MaintenanceStore & OutboxStore, metrics: ServerMetrics) {
        self.store = store
        self.metrics = metrics
    }

    /// Whether the database answers a trivial query.
    package var isReady: Bool { store.isReady() }

    /// The Prometheus text exposition of every metric, with the outbox depth (left out when
    /// the database does not answer) and the process's own metrics, read now.
    package func metricsExposition() -> String {
        metrics.render(outboxDepth: try? store.pendingMailCount(), process: ProcessMetrics.sample())
    }
}
