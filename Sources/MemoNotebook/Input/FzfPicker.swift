import Glibc
import MemoStore
import MemoSync

/// Where a session lets a person pick memos from a list (docs/REFERENCE.md, Picking memos);
/// a notebook has none where no one can be asked (scripts, the server, piped commands).
package protocol MemoPicker {
    /// The lines the person chose among `lines`, as given, one a memo; none when they chose
    /// nothing or gave up. Anything else given back acts on nothing.
    func pick(_ lines: [String], preview: PickPreview) throws -> [String]
}

/// What the preview pane shows for the line under the cursor: what `memo show` shows.
package enum PickPreview: Equatable, Sendable {
    /// `memo --store STORE show #ID`, run by `program` (this very binary) on the same store file.
    case showCommand(program: String, store: String)
    /// The `show` text of each line by its first word (`#12`): for a store in memory, which
    /// no other process can open, an encrypted store, which this process holds alone, and
    /// inside a batch, whose changes the file does not hold yet.
    case texts([String: String])
}

/// Picks with fzf (Debian package `fzf`), the program found on `$PATH`, started with its
/// arguments as argv (no shell between). The lines go to it through a pipe, the chosen ones
/// come back through another; it draws on the terminal (`/dev/tty`), so memo's own standard
/// output may be a pipe (`memo pick | xargs …`). memo ignores Ctrl-C meanwhile: it is fzf's.
package struct FzfPicker: MemoPicker {
    /// Where the previews' texts go (`Notebook.temporaryTextPlace`).
    private let place: TemporaryTextPlace

    package init(place: TemporaryTextPlace) {
        self.place = place
    }

    package func pick(_ lines: [String], preview: PickPreview) throws -> [String] {
        guard let fzfPath = Self.onPath("fzf") else { throw CommandError.invalid(Self.notInstalled) }
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard terminal >= 0 else {
            throw CommandError.invalid("picking needs a terminal for fzf to draw on, and there is none here")
        }
        defer { close(terminal) }
        let previews = try PreviewCommand(preview, place: place)
        defer { previews.remove() }
        guard let input = Self.makePipe() else {
            throw CommandError.invalid("cannot make a pipe for fzf: \(Errno(errno))")
        }
        guard let output = Self.makePipe() else {
            input.forEach { close($0) }
            throw CommandError.invalid("cannot make a pipe for fzf: \(Errno(errno))")
        }
        let started = ShellCommand.spawn(
            fzfPath, arguments: Self.arguments(preview: previews.command), environment: previews.environment,
            standardInput: input[0], standardOutput: output[1], standardError: terminal)
        close(input[0])
        close(output[1])
        let fzf: ShellCommand
        switch started {
        case .success(let process): fzf = process
        case .failure(let error):
            close(input[1])
            close(output[0])
            throw CommandError.invalid("cannot start fzf: \(error)")
        }
        let interrupt = signal(SIGINT, SIG_IGN), quit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, interrupt)
            signal(SIGQUIT, quit)
        }
        let chosen = Self.exchange(Array(lines.map { $0 + "\n" }.joined().utf8), to: input[1], from: output[0])
        switch fzf.wait() {
        case 0: return TextFile.lines(of: String(decoding: chosen, as: UTF8.self))
        // 1: Enter on no match; 130: Esc or Ctrl-C. Nothing is picked either way.
        case 1, 130: return []
        case let status: throw CommandError.invalid("fzf failed (exit status \(status)); nothing was picked")
        }
    }

    /// The one line said where fzf is not on `$PATH`.
    static let notInstalled = "picking memos needs fzf, which is not installed: install the Debian package 'fzf'"

    /// Where `program` is on `$PATH`, or nil.
    private static func onPath(_ program: String) -> String? {
        let folders = (Environment.process["PATH"] ?? "").split(separator: ":", omittingEmptySubsequences: false)
        return folders.lazy.map { ($0.isEmpty ? "." : String($0)) + "/" + program }.first { access($0, X_OK) == 0 }
    }

    /// fzf's arguments: after the settings of `FZF_DEFAULT_OPTS` (which fzf reads first, and
    /// which keep their say on its looks), those that make what fzf reads and prints memo's: a
    /// line each way, the lines picked and nothing else (no query, no key name), a list of one
    /// memo still shown rather than picked unasked, and words split at spaces, so the
    /// preview's `{1}` is the line's `#ID`.
    private static func arguments(preview: String) -> [String] {
        [
            "fzf", "--multi", "--reverse", "--tiebreak=index", "--prompt=pick> ",
            "--header=Tab: select more  Enter: pick  Esc: nothing", "--preview=" + preview,
            "--preview-window=right:50%:wrap",
            "--no-read0", "--no-print0", "--no-print-query", "--no-expect", "--no-select-1",
            "--delimiter= "
        ]
    }

    /// Writes `lines` to fzf while reading what it prints, so neither side waits on the other
    /// however long the list (fzf may print before it has read it all); what fzf printed.
    /// fzf may end without reading everything: that ends the writing, not memo.
    private static func exchange(_ lines: [UInt8], to input: Int32, from output: Int32) -> [UInt8] {
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        var written = 0, inputOpen = true, printed: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        if lines.isEmpty {
            close(input)
            inputOpen = false
        }
        while true {
            var watched = [pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
            if inputOpen { watched.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
            guard poll(&watched, nfds_t(watched.count), -1) >= 0 || errno == EINTR else { break }
            if inputOpen, watched[1].revents != 0 {
                let count = lines[written...].withUnsafeBytes { PipeWriting.write(input, $0) }
                if count > 0 { written += count }
                if written == lines.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                    close(input)
                    inputOpen = false
                }
            }
            if watched[0].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR || errno == EAGAIN { continue }
                guard count > 0 else { break }
                printed += chunk[0..<count]
            }
        }
        if inputOpen { close(input) }
        close(output)
        return printed
    }

    /// A pipe whose ends close in programs memo starts (where they are not made a stream).
    private static func makePipe() -> [Int32]? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return ends
    }
}

/// The preview command fzf runs for the line under the cursor, and what it reads: the store
/// file and the program, or a private folder of `show` texts, named in fzf's environment
/// (never pasted into the command, which fzf runs with `/bin/sh`; fzf quotes `{1}`, the line's
/// first word, itself).
private struct PreviewCommand {
    let command: String
    let environment: [String]
    private let folder: String?

    init(_ preview: PickPreview, place: TemporaryTextPlace) throws {
        var variables = ["SHELL=/bin/sh"]
        switch preview {
        case .showCommand(let program, let store):
            command = #""$MEMO_PICK_PROGRAM" --store "$MEMO_PICK_STORE" --no-pager show {1}"#
            variables += ["MEMO_PICK_PROGRAM=" + program, "MEMO_PICK_STORE=" + store]
            folder = nil
        case .texts(let texts):
            let folder = try Self.privateFolder(in: place)
            self.folder = folder
            for (name, text) in texts {
                let descriptor = open(folder + "/" + name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else { continue }
                _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
            }
            command = #"cat -- "$MEMO_PICK_PREVIEWS"/{1}"#
            variables.append("MEMO_PICK_PREVIEWS=" + folder)
        }
        let names = Set(variables.map { $0.prefix { $0 != "=" } })
        environment = Self.processEnvironment().filter { !names.contains($0.prefix { $0 != "=" }) } + variables
    }

    /// Removes the folder of texts, if any.
    func remove() {
        if let folder { PrivateScratchFolder.removeFolder(folder) }
    }

    /// A new folder only its owner may read: `memo-pick-XXXXXX` in `$TMPDIR` or `/tmp`, or a
    /// `PrivateScratchFolder` for an encrypted store.
    private static func privateFolder(in place: TemporaryTextPlace) throws -> String {
        let environment = Environment.process
        if place == .privateScratch { return try PrivateScratchFolder(environment: environment, for: "preview").path }
        let base = TemporaryTextPlace.temporaryFolder(environment: environment)
        return try PrivateScratchFolder.makeFolder(in: base, named: "memo-pick-", for: "preview")
    }

    /// This process's environment, as `NAME=value` words.
    private static func processEnvironment() -> [String] {
        var words: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            words.append(String(cString: pointer))
            entry = entry.advanced(by: 1)
        }
        return words
    }
}
