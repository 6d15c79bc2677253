#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open files (`RLIMIT_NOFILE`), which bounds how many connections
/// the server can hold: each is a descriptor.
enum OpenFileLimit {
    /// Raises the soft limit to `wanted` when it is lower, as far as the hard limit allows;
    /// returns the soft limit in force afterwards.
    static func raise(to wanted: Int) -> Int {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return wanted }
        let wantedLimit = rlim_t(max(wanted, 0))
        if limit.rlim_cur < wantedLimit {
            var raised = limit
            raised.rlim_cur = limit.rlim_max == rlim_t.max ? wantedLimit : min(wantedLimit, limit.rlim_max)
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}
