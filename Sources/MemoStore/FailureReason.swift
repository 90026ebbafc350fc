import FoundationEssentials
import Glibc

/// Why a file operation failed, in the C library's words ("No such file or directory").
/// Without FoundationInternationalization an error from `FileManager` or `String.write` has
/// no localized description, and its own description is for programmers.
package func failureReason(_ error: any Error) -> String {
    guard let posixError = (error as? CocoaError)?.underlying as? POSIXError ?? error as? POSIXError else {
        return String(describing: error)
    }
    return String(cString: strerror(posixError.code.rawValue))
}
