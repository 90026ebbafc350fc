import Foundation
import MemoTestSupport
import Testing

@Suite("Store files from the command line")
struct StoreFileTests {
    let memo = MemoBinary()

    @Test func defaultPathFollowsXDGThenHome() throws {
        try memo.run(["add", "at home"])
        let homeStore = memo.path("home/.local/share/memo/memo.sqlite")
        #expect(FileManager.default.fileExists(atPath: homeStore))
        #expect(FileManager.default.mode(of: homeStore) == 0o600)
        #expect(FileManager.default.mode(of: memo.path("home/.local/share/memo")) == 0o700)

        memo.environment["XDG_DATA_HOME"] = memo.path("xdg")
        try memo.run(["add", "in xdg"])
        #expect(FileManager.default.mode(of: memo.path("xdg/memo/memo.sqlite")) == 0o600)
        #expect(FileManager.default.mode(of: memo.path("xdg/memo")) == 0o700)

        memo.environment["MEMO_STORE"] = memo.path("explicit.sqlite")
        try memo.run(["add", "explicit"])
        #expect(try memo.run(["count"]).standardOutput == "1\n")
        #expect(
            try memo.run(["--store", memo.path("home/.local/share/memo/memo.sqlite"), "count"]).standardOutput == "1\n")
        #expect(
            try memo.run(["--store=\(memo.path("xdg/memo/memo.sqlite"))", "--json", "list"]).standardOutput.contains(
                "in xdg"))
    }

    private func expectRefusal(of path: String, message: String) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try memo.run(["--store", path, "list"])
        #expect(result.status == 3)
        #expect(result.standardError == "error: \(path) \(message)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try memo.run(["--store", path, "add", "x"]).status == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// A leading `~/` means the home folder wherever no shell expanded it.
    @Test func tildeMeansHome() throws {
        let home = memo.path("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        #expect(try memo.run(["--store", "~/t.sqlite", "add", "one"]).status == 0)
        #expect(try memo.run(["--store=~/t.sqlite", "count"]).standardOutput == "1\n")
        memo.environment["MEMO_STORE"] = "~/x.sqlite"
        #expect(try memo.run(["add", "two"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: home + "/t.sqlite"))
        #expect(FileManager.default.fileExists(atPath: home + "/x.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: memo.path("~")))
        try "add from a fixture\n".write(toFile: home + "/f.memo", atomically: true, encoding: .utf8)
        #expect(try memo.run(["--fixture", "~/f.memo", "count"]).standardOutput == "1\n")
    }

    @Test func aFolderIsNotAStore() throws {
        let folder = memo.path("folder.sqlite")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try memo.run(["--store", folder, "count"])
        #expect(result.status == 3)
        #expect(result.standardError == "error: cannot open store \(folder): it is a folder, not a file\n")
    }

    @Test func refusesAFileThatIsNotSQLite() throws {
        let path = memo.path("notes.txt")
        try Data(String(repeating: "plain text\n", count: 1000).utf8).write(to: URL(fileURLWithPath: path))
        try expectRefusal(of: path, message: "is not a memo store (not an SQLite database); it was left untouched")
    }

    @Test func refusesAnotherProgramsDatabase() throws {
        let path = memo.path("other.sqlite")
        let made = try memo.shell("sqlite3 '\(path)' 'CREATE TABLE t(x); INSERT INTO t VALUES (1);'")
        try #require(made.status == 0)
        try expectRefusal(
            of: path, message: "is not a memo store (an SQLite database of another program); it was left untouched")
    }

    @Test func refusesANewerSchema() throws {
        let path = memo.path("future.sqlite")
        try memo.run(["--store", path, "add", "from the future"])
        let bumped = try memo.shell("sqlite3 '\(path)' 'PRAGMA user_version = 14; PRAGMA journal_mode = DELETE;'")
        try #require(bumped.status == 0)
        try expectRefusal(
            of: path,
            message:
                "has schema version 14, newer than this memo knows (13); it was left untouched: upgrade memo to open it"
        )
    }

    @Test func readOnlyStoreCanBeReadButNotWritten() throws {
        let path = memo.path("shared/store.sqlite")
        try FileManager.default.createDirectory(atPath: memo.path("shared"), withIntermediateDirectories: true)
        try memo.run(["--store", path, "add", "kept"])
        try #require(try memo.shell("chmod 0777 '\(memo.path("shared"))' && chmod 0444 '\(path)'").status == 0)
        // Root writes through file modes, so run memo as an unprivileged user then.
        let asReader = getuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        let count = try memo.shell("\(asReader)$MEMO --store '\(path)' count")
        #expect(count.standardOutput == "1\n")
        #expect(count.status == 0)
        let added = try memo.shell("\(asReader)$MEMO --store '\(path)' add refused")
        #expect(added.status == 3)
        #expect(added.standardError == "error: store failure: the store is read-only: memo cannot write to it\n")
    }
}

extension StoreFileTests {
    /// A store read while it was 0400 must not leave `-wal` or `-shm` companions that keep
    /// writes failing once the store is writable again.
    @Test func readingAReadOnlyStoreLeavesNoReadOnlyCompanions() throws {
        try #require(try memo.shell("mkdir -m 0777 '\(memo.path("own"))'").status == 0)
        let path = memo.path("own/store.sqlite")
        let asOwner = getuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        #expect(try memo.shell("\(asOwner)$MEMO --store '\(path)' add one").status == 0)
        #expect(
            try memo.shell("\(asOwner)chmod 0400 '\(path)' && \(asOwner)$MEMO --store '\(path)' count").standardOutput
                == "1\n")
        let added = try memo.shell("\(asOwner)chmod 0600 '\(path)' && \(asOwner)$MEMO --store '\(path)' add two")
        #expect(added.standardError == "")
        #expect(added.status == 0)
        #expect(try memo.shell("\(asOwner)$MEMO --store '\(path)' count").standardOutput == "2\n")
    }

    /// A folder without write permission: SQLite can create no write-ahead log there, so the
    /// store is read as the file stands; reads work, writes fail clearly, the file is untouched.
    @Test(arguments: ["0444", "0644"])
    func storeInALockedFolderCanBeReadButNotWritten(fileMode: String) throws {
        let path = memo.path("locked ?#% \(fileMode)/store.sqlite")
        try FileManager.default.createDirectory(
            atPath: memo.path("locked ?#% \(fileMode)"), withIntermediateDirectories: true)
        try memo.run(["--store", path, "add", "kept"])
        try memo.run(["--store", path, "add", "kept too"])
        let folder = memo.path("locked ?#% \(fileMode)")
        try #require(
            try memo.shell(
                "chown -R 65534 '\(folder)' 2>/dev/null; chmod \(fileMode) '\(path)' && chmod 0555 '\(folder)'"
            ).status == 0)
        defer { _ = try? memo.shell("chmod 0755 '\(folder)'") }
        let asReader = getuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let listed = try memo.shell("\(asReader)$MEMO --store '\(path)' search kept")
        #expect(listed.standardError == "")
        #expect(listed.status == 0)
        #expect(listed.standardOutput.split(separator: "\n").count == 2)
        let added = try memo.shell("\(asReader)$MEMO --store '\(path)' add refused")
        #expect(added.status == 3)
        #expect(added.standardError == "error: store failure: the store is read-only: memo cannot write to it\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try memo.shell("ls -A '\(folder)'").standardOutput == "store.sqlite\n")
        let mine = memo.path("writable-\(fileMode)")
        let synced = try memo.shell(
            "mkdir -m 0777 '\(mine)' && \(asReader)$MEMO --store '\(mine)/mine.sqlite' sync '\(path)'")
        #expect(synced.status == 3)
        #expect(
            synced.standardError
                == "error: cannot open store \(path): the store is read-only, and a sync writes to both stores\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}
