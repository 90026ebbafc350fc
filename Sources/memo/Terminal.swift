import Glibc
import MemoModel

/// Facts about the terminal the program runs in, if any.
enum Terminal {
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The rows and columns of the terminal on `descriptor`, or nil when it is not one or
    /// does not say.
    static func size(_ descriptor: Int32) -> (rows: Int, columns: Int)? {
        var size = winsize()
        guard isTerminal(descriptor), ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0
        else { return nil }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// The width of the terminal on standard output, or nil when output is not a terminal.
    static func outputWidth() -> Int? {
        guard isTerminal(STDOUT_FILENO) else { return nil }
        return size(STDOUT_FILENO)?.columns ?? Int(Environment.process["COLUMNS"] ?? "") ?? 80
    }
}
