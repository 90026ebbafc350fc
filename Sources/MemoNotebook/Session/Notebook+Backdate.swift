import MemoStore

/// Back-dating (docs/REFERENCE.md, Back-dating): `add --date DATE` and `edit ID --date DATE`.
extension Notebook {
    /// The insert date `date` means, on this session's clock (`now`, the time the change takes)
    /// and display time zone: an instant as given, a day at the time of day it is now. One
    /// outside the years memo keeps is refused; one in the future is allowed, as a journal
    /// may note what is planned.
    func backdated(_ date: DateArgument, now: Timestamp) throws(CommandError) -> Timestamp {
        try date.backdatedMoment(now: now, in: displayTime)
    }

    /// Resolves the `--date` of `add` or `edit` on this session's clock and time zone, as
    /// running the command would, without running it: the server's diagnostics of a command
    /// file report what the command line would refuse.
    package func checkDates(of command: Command) throws(CommandError) {
        switch command {
        case .add(_, _, let date?), .edit(_, _, let date?): _ = try backdated(date, now: clock.current)
        default: break
        }
    }

    /// `edit ID --date DATE [TEXT]`: moves the memo, with the new text when given, as one
    /// change; no editor opens for a move alone. The same date and text change nothing.
    func move(_ id: Int64, to date: DateArgument, text: String?) throws -> Outcome {
        let now = clock.now()
        let target = try backdated(date, now: now)
        let current = try store.existingMemo(id: id)
        let read = try store.readableText(of: current)
        let changesText = text.map { $0 != current.content && $0 != read } ?? false
        if target == current.insertDate, !changesText {
            return .unchanged("#\(id) unchanged: the date and text are the same")
        }
        let moved = try store.move(id: id, to: target, content: changesText ? text : nil, reading: .asReadHere, at: now)
        guard target != current.insertDate else { return .edited(moved) }
        return .moved(moved, edited: changesText)
    }
}
