import MemoStore

extension Notebook {
    /// Loads a fixture atomically: every memo of it, or none if a line fails. Its `clock`
    /// lines run on a clock of its own, so a fixture gives the same dates wherever it is
    /// loaded, even in a session on the system clock. Returns how many memos it added. Run
    /// as `Command.fixture` or `Command.preload`.
    func load(_ fixture: Fixture) throws -> Int {
        try createStoreFile()
        let before = try store.count()
        try store.recordingChange(.fixture, at: changeTime) {
            let loader = Notebook(store: store, clock: DeterministicClock(), uuids: uuids, displayTime: displayTime)
            var failure: LocatedError?
            let interpreter = LineInterpreter(notebook: loader, renderer: JSONRenderer(), output: DiscardedOutput()) {
                error, line in
                failure = failure ?? LocatedError(file: fixture.name, line: line, underlying: error)
            }
            for (index, line) in TextFile.lines(of: fixture.script).enumerated() {
                try Interruption.check()
                if interpreter.feed(line, lineNumber: index + 1) == .quit || failure != nil { break }
            }
            _ = interpreter.finish()
            try Interruption.check()
            if let failure { throw failure }
        }
        return try store.count() - before
    }

    /// Sets the clock of a script; the system clock of people's sessions cannot be set.
    func setClock(to date: DateArgument) throws -> Timestamp {
        guard let clock = clock as? SettableClock else {
            throw CommandError.invalid("'clock' works only in scripting mode (memo run, memo test)")
        }
        let instant = date.start(now: clock.current, in: displayTime)
        guard Timestamp.representable.contains(instant) else {
            throw CommandError.invalid(
                "invalid date '\(date)' for 'clock': it falls outside the years 0001 to 9999, which memo counts in UTC")
        }
        clock.set(to: instant)
        return instant
    }

    /// `error`, said of the script's clock when it is the store refusing a date past the years
    /// memo keeps and the clock had run past them (it steps on with each change): nothing
    /// else dates what a change writes so late.
    static func blamingTheClock(_ error: any Error, at mark: Timestamp) -> any Error {
        guard case StoreError.refused(.dateOutsideYears)? = error as? StoreError,
            mark > Timestamp.representable.upperBound
        else { return error }
        return CommandError.invalid(
            "the script's clock has run past \(Timestamp.lastRepresentableText), the last instant memo keeps"
                + " (the years 0001 to 9999, in UTC): nothing was written; 'clock DATE' sets it back")
    }
}
