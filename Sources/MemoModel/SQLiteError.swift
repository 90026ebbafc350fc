import CSQLite

/// A primary SQLite result code, kept as an open set: SQLite may add codes, so this is a
/// struct with named constants rather than a closed enum.
///
/// See https://www.sqlite.org/rescode.html
package struct ResultCode: Hashable, Sendable, CustomStringConvertible {
    package let rawValue: Int32

    package init(_ rawValue: Int32) {
        self.rawValue = rawValue & 0xFF
    }

    package static let error = ResultCode(SQLITE_ERROR)
    package static let permission = ResultCode(SQLITE_PERM)
    package static let busy = ResultCode(SQLITE_BUSY)
    package static let locked = ResultCode(SQLITE_LOCKED)
    package static let readOnly = ResultCode(SQLITE_READONLY)
    package static let ioError = ResultCode(SQLITE_IOERR)
    package static let corrupt = ResultCode(SQLITE_CORRUPT)
    package static let full = ResultCode(SQLITE_FULL)
    package static let cannotOpen = ResultCode(SQLITE_CANTOPEN)
    package static let notADatabase = ResultCode(SQLITE_NOTADB)
    package static let interrupt = ResultCode(SQLITE_INTERRUPT)
    package static let constraint = ResultCode(SQLITE_CONSTRAINT)
    package static let tooBig = ResultCode(SQLITE_TOOBIG)
    package static let noMemory = ResultCode(SQLITE_NOMEM)

    package var description: String {
        String(cString: sqlite3_errstr(rawValue))
    }
}

/// An error reported by SQLite: its result code, its message and the SQL that failed.
package struct SQLiteError: Error, Equatable, CustomStringConvertible {
    package let code: ResultCode
    package let extendedCode: Int32
    package let message: String
    package let sql: String?

    package init(code: Int32, message: String, sql: String? = nil) {
        self.code = ResultCode(code)
        self.extendedCode = code
        self.message = message
        self.sql = sql
    }

    /// Reads the last error of a connection; call it right after the failing call.
    package init(connection: OpaquePointer?, code: Int32, sql: String? = nil) {
        let message =
            connection.map { String(cString: sqlite3_errmsg($0)) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(code: sqlite3_extended_errcode(connection).nonZero ?? code, message: message, sql: sql)
    }

    package var description: String {
        message
    }

    /// What went wrong, in memo's words rather than SQLite's: people see this, never the
    /// library's message.
    package var explanation: String {
        switch code {
        case .readOnly: "the store is read-only: memo cannot write to it"
        case .permission, .cannotOpen: "permission denied, or the file cannot be opened"
        case .full: "the disk is full"
        case .ioError: "a read or write of the store file failed (I/O error)"
        case .corrupt: "the store file is damaged"
        case .notADatabase: "the file is not a memo store"
        case .busy, .locked: "the store is busy: another memo process is writing to it; try again"
        case .constraint: "the change conflicts with what the store holds"
        case .tooBig: "the text is too large for the store"
        case .noMemory: "memo ran out of memory"
        default: "the store failed (SQLite result code \(extendedCode))"
        }
    }

    /// True for failures of the store file itself (disk full, read-only, I/O, corruption),
    /// as opposed to a problem with one request.
    package var isStoreFailure: Bool {
        [.permission, .readOnly, .ioError, .corrupt, .full, .cannotOpen, .notADatabase, .busy, .locked]
            .contains(code)
    }
}

private extension Int32 {
    var nonZero: Int32? { self == 0 ? nil : self }
}
