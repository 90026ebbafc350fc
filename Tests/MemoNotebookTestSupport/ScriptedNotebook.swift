import Foundation
import MemoNotebook
import MemoStore

/// A notebook driven by command lines as a script would, on a fresh in-memory store unless
/// given one, with a deterministic clock and, by default, the sequential uuids of a script.
/// The one way a Swift test makes a `Notebook`.
package struct ScriptedNotebook {
    package let notebook: Notebook
    /// The time zone the session shows and reads wall-clock times in.
    private let displayTime: DisplayTime

    package init(
        store: MemoStore? = nil, scope: SessionScope = .session, uuids: UUIDSource = SequentialUUIDs(),
        displayTime: DisplayTime = .utc
    ) throws {
        self.displayTime = displayTime
        notebook = Notebook(
            store: try store ?? MemoStore.open(.memory), clock: DeterministicClock(),
            uuids: uuids, displayTime: displayTime, scope: scope)
    }

    /// A session on the store file at `path` (made when missing), with random uuids of its
    /// own, as a person's store has: for syncs and imports between stores.
    package init(file path: String) throws {
        try self.init(store: MemoStore.open(.file(path: path)), uuids: RandomUUIDs())
    }

    /// Runs one command line; returns its text output.
    @discardableResult
    package func run(_ line: String) throws -> String {
        guard case .command(let command) = try CommandParser.parse(line: line) else { return "" }
        let output = StringOutput()
        try TextRenderer(style: TextStyle(width: nil, color: false, displayTime: displayTime)).render(
            try notebook.execute(command), to: output)
        return output.text
    }

    /// Runs command lines in order, as a script does, stopping at the first that fails.
    package func run(_ lines: [String]) throws {
        for line in lines { try run(line) }
    }

    /// Runs one command line of a random run: its text output, or the error that refused it,
    /// for the test to hold against what that step may do.
    package func attempt(_ line: String) -> Result<String, any Error> {
        Result { try run(line) }
    }

    /// One step of a random run: `attempt(line)` with its command's verb, counted in `worked`
    /// when it worked, and whether it imports a file that no earlier step wrote (an import
    /// that may fail).
    package func step(_ line: String, counting worked: inout [String: Int]) -> RandomStep {
        let importsMissingFile =
            line.hasPrefix("import ") && !FileManager.default.fileExists(atPath: String(line.dropFirst(7)))
        let step = RandomStep(
            verb: String(line.prefix { $0 != " " }), outcome: attempt(line), importsMissingFile: importsMissingFile)
        if step.outcome.worked { worked[step.verb, default: 0] += 1 }
        return step
    }

    /// Every memo as its JSON line (docs/REFERENCE.md, JSON), oldest first: uuid, text, dates and
    /// tags. Ids are left out: they are local to a store and never imported. (An export also
    /// carries each memo's sync version, which is the store's own.)
    package func dump() throws -> [String] {
        TextFile.lines(of: try json("list --asc")).map { $0.replacing(/^\{"id":\d+,/, with: "{") }
    }

    /// Runs one command line; returns its JSON output.
    package func json(_ line: String) throws -> String {
        guard case .command(let command) = try CommandParser.parse(line: line) else { return "" }
        let output = StringOutput()
        try JSONRenderer().render(try notebook.execute(command), to: output)
        return output.text
    }
}

extension Result where Success == String, Failure == any Error {
    /// The refusal a step of a random run met, nil when it worked or failed otherwise.
    package var refusal: StoreRefusal? {
        guard case .failure(let error) = self, case .refused(let refusal)? = error as? StoreError else { return nil }
        return refusal
    }

    package var worked: Bool {
        if case .success = self { true } else { false }
    }
}

extension StoreRefusal {
    /// An undo or redo with nothing it may take back: none left (no sync, for `undo --sync`),
    /// or a later change (a sync, another session's edit) in the way.
    package var isUndoOrRedoRefusal: Bool {
        switch self {
        case .nothingToUndo, .nothingToRedo, .alreadyUndone, .undoRefused, .redoRefused, .undoOfSync, .noSyncToUndo:
            true
        default: false
        }
    }
}

/// What one step of a random run did (`ScriptedNotebook.step`).
package struct RandomStep {
    package let verb: String
    package let outcome: Result<String, any Error>
    package let importsMissingFile: Bool
}
