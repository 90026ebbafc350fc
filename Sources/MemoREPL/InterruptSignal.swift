import Glibc
import MemoModel

/// Turns Ctrl-C into a request, never an exit: the handler is installed without
/// `SA_RESTART`, so a pending `read` in libedit returns `EINTR` and the line is abandoned,
/// and a running command is interrupted through `Interruption`.
package enum InterruptSignal {
    package static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Interruption.request() }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }

    /// Ends the process as Ctrl-C would have, once memo has said what it left undone: the
    /// shell sees a command killed by SIGINT (status 130) and stops its script or loop.
    package static func endProcess() -> Never {
        signal(SIGINT, SIG_DFL)
        raise(SIGINT)
        _exit(128 + SIGINT)
    }
}
