import Glibc
import MemoStore

extension Notebook {
    /// Imports a file in one transaction: every record, or none when one is malformed, names
    /// a uuid an earlier record named, or the import is interrupted. A record whose uuid the
    /// store has updates that memo when it was edited later than the memo was, and is
    /// skipped otherwise (`MemoStore.merge`); one whose uuid names an unrelated memo here is
    /// added under a uuid of its own; one without a uuid that repeats a memo already there
    /// (the same file imported again) is skipped.
    func importMemos(_ arguments: ImportArguments) throws -> ImportSummary {
        defer { progress?.finish(interrupted: Interruption.isRequested) }
        let path = UserPath.expand(arguments.path)
        let format: TransferFormat
        switch try ImportInput(path: path, shownAs: arguments.path, format: arguments.format) {
        case .notes(let isFolder): return try importNotes(from: arguments.path, isFolder: isFolder)
        case .memoStore:
            throw CommandError.invalid(
                store.isOwnFile(path)
                    ? "\(arguments.path) is this store's own file: there is nothing to import"
                    : "\(arguments.path) is a memo store: 'memo sync \(arguments.path)' merges two stores "
                        + "(import reads other programs' files)")
        case .records(.coredata): return try importCoreData(arguments)
        case .records(let given): format = given
        }
        let descriptor = arguments.path == "-" ? STDIN_FILENO : try TextFile.open(path)
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let file = ImportFile(name: arguments.path == "-" ? "<stdin>" : arguments.path, descriptor: descriptor)
        var reader: any RecordReader =
            switch format {
            case .json: JSONArrayReader(file: file)
            case .markdown: MarkdownReader(file: file, displayTime: displayTime)
            case .jrnl: JrnlReader(file: file, displayTime: displayTime)
            case .jsonl, .coredata: JSONLinesReader(file: file)
            }
        var summary = try importRecords(from: &reader, file: file.name)
        if format == .jrnl { summary.source = .jrnl }
        return summary
    }

    /// Imports the notes of a folder (or one note), one memo a note, each with a uuid its
    /// path or id names (`NoteFolderReader`); a note without text is counted, not imported.
    private func importNotes(from path: String, isFolder: Bool) throws -> ImportSummary {
        var reader = NoteFolderReader(root: UserPath.expand(path), isFolder: isFolder, displayTime: displayTime)
        var summary = try importRecords(from: &reader, file: path)
        summary.source = .notes(
            folder: isFolder ? path : nil, files: reader.notes, leftOut: reader.leftOut,
            leftOutCount: reader.leftOutCount)
        return summary
    }

    /// Merges every record of `reader` in one change, or none.
    private func importRecords<Reader: RecordReader>(from reader: inout Reader, file: String) throws -> ImportSummary {
        try store.recordingChange(.import, at: changeTime) {
            var summary = ImportSummary()
            var uuids = UUIDsSeen()
            var alreadyThere: MemosAlreadyThere?
            var moved = MovedRecords()
            while let record = try reader.next() {
                try uuids.insert(record, file: record.file ?? file)
                if record.namesItsSource, record.content.allSatisfy(\.isWhitespace) {
                    summary.empty += 1
                } else {
                    try merge(
                        record, into: &summary, alreadyThere: &alreadyThere, moved: &moved, earlier: uuids,
                        file: record.file ?? file)
                }
                progress?.update(importedRecords: summary.records, fraction: reader.progress)
            }
            return summary
        }
    }

    /// Imports the rows of a Core Data entity; rows without text are counted, not imported.
    private func importCoreData(_ arguments: ImportArguments) throws -> ImportSummary {
        let source = try coreDataSource(arguments.path)
        let mapping = arguments.mapping
        let rows = try source.rows(
            entity: mapping.entity, textAttributes: mapping.textAttributes, dateAttribute: mapping.dateAttribute)
        let identity = "coredata:\(source.storeUUID ?? source.path):\(mapping.entity.lowercased())"
        return try store.recordingChange(.import, at: changeTime) {
            var summary = ImportSummary()
            while let row = try rows.next() {
                if row.texts.isEmpty {
                    summary.empty += 1
                } else {
                    var record = ImportRecord(
                        content: row.texts.joined(separator: "\n"),
                        uuid: try uuid(ofRow: "\(identity):\(row.primaryKey)"),
                        insertDate: row.date, line: Int(row.primaryKey))
                    record.namesItsSource = true
                    var unused: MemosAlreadyThere?
                    var unmoved = MovedRecords()
                    try merge(
                        record, into: &summary, alreadyThere: &unused, moved: &unmoved, earlier: UUIDsSeen(),
                        file: arguments.path)
                }
                progress?.update(
                    importedRecords: summary.records,
                    fraction: rows.total > 0 ? Double(summary.records) / Double(rows.total) : nil)
            }
            return summary
        }
    }

    /// The Core Data store at `path`. It is not the store in use: one that cannot be opened
    /// or read fails the import plainly, not as an unusable store.
    private func coreDataSource(_ path: String) throws -> CoreDataSource {
        do {
            return try CoreDataSource(path: UserPath.expand(path))
        } catch {
            switch error {
            case .notAMemoStore(_, let reason): throw CommandError.invalid("cannot import \(path): \(reason)")
            case .cannotOpen(_, let reason): throw CommandError.invalid("cannot import \(path): \(reason)")
            default: throw error
            }
        }
    }

    /// The uuid of a Core Data row named `name`: the one an earlier import gave it, when
    /// that import came from a memo that marked such uuids version 4.
    private func uuid(ofRow name: String) throws(StoreError) -> String {
        let legacy = StableUUID.legacyVersion4(from: name)
        return try store.memo(uuid: legacy) == nil ? StableUUID.make(from: name) : legacy
    }

    /// Adds, updates or skips one record, counting what it did and why it skipped; a record
    /// the store refuses (empty text, a bad tag) fails the import at its line. `alreadyThere`
    /// is built at the first record that needs it. A record whose uuid names its place in its
    /// source (`namesItsSource`: a row edited there, a note changed since) is still that memo;
    /// a note named by its path that is new here but repeats a memo the import did not write
    /// (`earlier`) is that memo, reached through another folder. One added under a uuid of its
    /// own takes the file's links to it along (`moved`).
    private func merge(
        _ record: ImportRecord, into summary: inout ImportSummary, alreadyThere: inout MemosAlreadyThere?,
        moved: inout MovedRecords, earlier: UUIDsSeen, file: String
    ) throws {
        try Interruption.check()
        do {
            var uuid: String
            // The memo with `uuid` here, once read (the store then does not read it again).
            var existingUnderUUID: Memo?? = nil
            var isUnderNewUUID = false
            var updateDate = record.updateDate
            var insertDate = record.insertDate
            if let given = record.uuid {
                uuid = given
                if !record.namesItsSource {
                    let existing = try store.memo(uuid: given)
                    if let existing, !record.canBeAState(of: existing) {
                        uuid = record.uuidOfItsOwn
                        isUnderNewUUID = true
                        moved.move(given, to: uuid)
                    } else {
                        existingUnderUUID = .some(existing)
                    }
                } else if let existing = try store.memo(uuid: given) {
                    // A note dated by its modification time, modified since, was edited, not
                    // moved: its memo keeps its place (an update takes the record's insert date).
                    if record.isDatedByItsFile { insertDate = existing.insertDate }
                } else if record.isNamedByItsPath,
                    try memo(
                        repeatedBy: record, ignoringUpdateDate: true, alreadyThere: &alreadyThere,
                        where: { !earlier.contains($0.uuid) }) != nil
                {
                    summary.skip(alreadyThere: true)
                    return
                } else if updateDate != nil, updateDate == record.insertDate {
                    // A note dated by its modification time was not edited after it was
                    // written: its memo starts unedited, and a later modification updates it.
                    updateDate = nil
                }
            } else {
                if try memo(repeatedBy: record, ignoringUpdateDate: false, alreadyThere: &alreadyThere) != nil {
                    summary.skip(alreadyThere: true)
                    return
                }
                // A scripted run's uuid depends on the text it is for: two files imported by
                // the same script line never give their memos the same uuids.
                uuids.absorb(record.content)
                uuid = try freshUUID()
            }
            let references = moved.following(record.references, in: record.content)
            let draft = MemoDraft(
                uuid: uuid, content: record.content, insertDate: insertDate ?? clock.now(),
                updateDate: updateDate, tags: record.tags, version: record.version,
                references: references)
            switch try store.merge(draft, at: changeTime, existing: existingUnderUUID) {
            case .added:
                summary.added += 1
                if isUnderNewUUID { summary.addedUnderNewUUID += 1 }
                moved.noteWritten(uuid, references: references)
            case .updated:
                summary.updated += 1
                moved.noteWritten(uuid, references: references)
            case .skipped:
                // Not edited after its memo here was last written: the same memo, or an older state.
                let existing = try store.memo(uuid: uuid)
                summary.skip(alreadyThere: existing.map { record.repeats($0, ignoringUpdateDate: true) } ?? false)
            }
            if isUnderNewUUID, let given = record.uuid { try moved.followMove(of: given, in: store, at: changeTime) }
        } catch let error as StoreError where !error.isStoreUnusable && error != .interrupted {
            throw LocatedError(file: file, line: record.line, underlying: error)
        }
    }

    /// A memo of the store the record repeats (`ImportRecord.repeats`) that `isWanted`,
    /// looked up in `alreadyThere`, built at the first call.
    private func memo(
        repeatedBy record: ImportRecord, ignoringUpdateDate: Bool, alreadyThere: inout MemosAlreadyThere?,
        where isWanted: (Memo) -> Bool = { _ in true }
    ) throws -> Memo? {
        let index = try alreadyThere ?? MemosAlreadyThere(store)
        alreadyThere = index
        return try index.memo(repeatedBy: record, ignoringUpdateDate: ignoringUpdateDate, in: store, where: isWanted)
    }

    /// Writes memos to a file, whole or not at all (`WholeFileWriter`), after checking the
    /// file is neither this store nor another database; or streams them to standard output as
    /// the outcome is rendered.
    func export(_ arguments: ExportArguments) throws -> Outcome {
        let query = MemoQuery(filter: try resolve(arguments.filter), order: .oldestFirst, readsVersions: true)
        var writer = arguments.format.writer(displayTime: displayTime)
        guard arguments.path != "-" else { return .exportStream(try store.memos(query), writer: writer) }
        let destination = try ExportDestination(arguments.path, store: store.location)
        let file = try destination.open()
        let output = FileOutput(descriptor: file.descriptor)
        let cursor = try store.memos(query)
        var count = 0
        writer.begin(to: output)
        while let row = try cursor.nextRow() {
            writer.write(row, to: output)
            count += 1
        }
        writer.end(to: output)
        output.flush()
        if let failure = output.failure {
            throw CommandError.invalid("cannot write \(arguments.path): \(failure)")
        }
        try file.commit()
        return .exported(count: count, path: arguments.path)
    }
}
