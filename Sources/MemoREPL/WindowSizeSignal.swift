import Glibc
import Synchronization

/// SIGWINCH while a line is typed: the handler only notes it, and, installed without
/// `SA_RESTART`, interrupts libedit's read so that `LineEditor` draws the line again in the
/// new width. Between lines the signal is left to its default (ignored), so a resize never
/// interrupts a command's reads and writes.
enum WindowSizeSignal {
    private static let changed = Atomic<Bool>(false)

    /// Catches the signal until `release`; a change noted before is forgotten.
    static func catchChanges() {
        changed.store(false, ordering: .sequentiallyConsistent)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            WindowSizeSignal.changed.store(true, ordering: .sequentiallyConsistent)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGWINCH, &action, nil)
    }

    static func release() {
        signal(SIGWINCH, SIG_DFL)
    }

    /// Whether the window changed size since the last call; safe outside the handler only.
    static func takeChange() -> Bool {
        changed.exchange(false, ordering: .sequentiallyConsistent)
    }
}
