import Glibc
import MemoStore

/// Turns Ctrl-C into a request, never an exit: the handler is installed without
/// `SA_RESTART`, so a pending `read` in libedit returns `EINTR` and the line is abandoned,
/// and a running command is interrupted through `Interruption`.
enum InterruptSignal {
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in Interruption.request() }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }
}
