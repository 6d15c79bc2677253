#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the terminal's echo off on standard input while a secret is typed, and back on on
/// every way out: when the reading returns or throws, and when a signal that ends the process
/// (SIGINT from Ctrl-C, SIGTERM, SIGHUP, SIGQUIT) arrives meanwhile — its handler restores the
/// saved mode, ends the prompt's line and lets the signal end the process as it would have.
enum TerminalEcho {
    /// The signals after which a command must not leave the terminal silent.
    private static let endingSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// The terminal mode to restore, where a signal handler can read it without touching Swift's
    /// runtime: allocated once, written before the handlers are installed.
    nonisolated(unsafe) private static let saved: UnsafeMutablePointer<termios> = {
        let pointer = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        pointer.initialize(to: termios())
        return pointer
    }()

    /// Runs `read` with the echo off when standard input is a terminal whose mode can be read,
    /// else just runs it; the mode and the signal dispositions are as before afterwards.
    static func off<Result>(_ read: () throws -> Result) rethrows -> Result {
        let pointer = saved
        guard tcgetattr(STDIN_FILENO, pointer) == 0 else { return try read() }
        var previous: [Int32: sigaction] = [:]
        for signal in endingSignals {
            var action = sigaction()
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = restoreAndEnd
            #else
                action.__sigaction_u.__sa_handler = restoreAndEnd
            #endif
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous[signal] = old
        }
        var quiet = pointer.pointee
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, pointer)
            for (signal, old) in previous {
                var restored = old
                sigaction(signal, &restored, nil)
            }
        }
        return try read()
    }

    /// The handler: only async-signal-safe calls (tcsetattr, write, signal, raise) on memory
    /// made before it was installed.
    private static let restoreAndEnd: @convention(c) (Int32) -> Void = { number in
        tcsetattr(STDIN_FILENO, TCSAFLUSH, TerminalEcho.saved)
        var newline: UInt8 = 10
        _ = write(STDERR_FILENO, &newline, 1)
        _ = signal(number, SIG_DFL)
        raise(number)
    }
}
