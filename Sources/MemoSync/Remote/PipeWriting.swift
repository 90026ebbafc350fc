import Glibc

/// `write(2)` to a pipe or socket whose reader may be gone: that is the error EPIPE, never
/// the signal SIGPIPE, which by default ends the process (memo, or the REPL or server a sync
/// runs in). The process's handling of SIGPIPE is left as it is (another thread may rely on
/// it): the signal is blocked on this thread for the write alone, and one the write raised
/// is taken back before the thread's signal mask is restored, as libpq does.
package enum PipeWriting {
    /// Writes `bytes` once, as `write(2)`: the count written, or -1 with `errno` set.
    package static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var pending = sigset_t()
        sigpending(&pending)
        // One already pending is not this write's to take.
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
        let written = Glibc.write(descriptor, bytes.baseAddress, bytes.count)
        let writeError = errno
        if written < 0 && writeError == EPIPE && !wasPending {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&pipeSignal, nil, &now) < 0 && errno == EINTR {}
        }
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        errno = writeError
        return written
    }
}
