import Glibc

/// The standard output of a face that speaks a protocol on it (`memo serve`, `memo sync
/// --serve`).
package enum ProtocolStream {
    /// Takes standard output over for the protocol: returns a private duplicate of it and
    /// points standard output itself at standard error, so a stray `print` can never corrupt
    /// the protocol. SIGPIPE is ignored, so a peer that stops reading makes writes fail
    /// instead of killing memo.
    package static func takingOverStandardOutput() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let protocolStream = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        return protocolStream >= 0 ? protocolStream : STDOUT_FILENO
    }
}
