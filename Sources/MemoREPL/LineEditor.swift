import CEditLine
import Glibc
import MemoModel
import MemoNotebook

/// The one owner of libedit: line editing with emacs keys, history, and Tab completion.
/// Nothing else in memo touches the terminal's modes.
final class LineEditor {
    enum Input: Equatable {
        case line(String)
        /// Ctrl-C: the line being typed is abandoned.
        case interrupted
        /// Ctrl-D on an empty line, or the terminal went away.
        case endOfInput
    }

    private let editor: OpaquePointer
    private let history: OpaquePointer
    private var event = HistEvent()
    private let historyFile: String?
    private let complete: (String) -> Completions
    /// Set by the Ctrl-C key while libedit reads: the line it ends is abandoned.
    private var interruptTyped = false
    /// The prompt as a C string owned here, valid while libedit draws it.
    private var prompt: UnsafeMutablePointer<CChar>? = strdup("")
    private var input = TerminalInput()
    private var leftBehind = LeftBehindRows()
    /// Where libedit's drawing goes when the screen already shows it (`draw`).
    private let nowhere = fopen("/dev/null", "w")

    /// - Parameters:
    ///   - historyFile: where history is loaded from and saved to after each line; nil keeps none.
    ///   - complete: the completions for the text before the cursor.
    init?(historyFile: String?, complete: @escaping (String) -> Completions) {
        Self.useUTF8CharacterType()
        guard let editor = el_init("memo", memo_stdin(), memo_stdout(), memo_stderr()) else { return nil }
        guard let history = history_init() else {
            el_end(editor)
            return nil
        }
        self.editor = editor
        self.history = history
        self.historyFile = historyFile
        self.complete = complete
        memo_history_set_size(history, &event, Int32(LineEditor.historyLimit))
        memo_history_set_unique(history, &event, 1)
        if let historyFile { memo_history_load(history, &event, historyFile) }

        memo_el_set_editor(editor, "emacs")
        memo_el_set_signal(editor, 1)
        memo_el_set_history(editor, history)
        memo_el_set_client_data(editor, Unmanaged.passUnretained(self).toOpaque())
        memo_el_set_prompt(editor) { editor in
            guard let editor, let owner = LineEditor.owner(of: editor) else { return nil }
            return owner.prompt
        }
        memo_el_add_function(editor, "memo-complete", "Complete the word before the cursor") { editor, _ in
            guard let editor, let owner = LineEditor.owner(of: editor) else { return UInt8(CC_ERROR) }
            return owner.completeWord()
        }
        memo_el_bind(editor, "^I", "memo-complete")
        memo_el_set_read_function(editor) { editor, character in
            guard let editor, let character, let owner = LineEditor.owner(of: editor) else { return -1 }
            return owner.readCharacter(into: character)
        }

        // Ctrl-C abandons exactly what was typed before it, however fast the typing: as a
        // signal it raced the typed characters (some still unread, some already in libedit's
        // buffer); as a key it is read in its place among them, and what follows it starts
        // the next line.
        memo_el_read_interrupt_as_character(editor)
        memo_el_add_function(editor, "memo-interrupt", "Abandon the line") { editor, _ in
            guard let editor, let owner = LineEditor.owner(of: editor) else { return UInt8(CC_ERROR) }
            owner.interruptTyped = true
            return UInt8(CC_NEWLINE)
        }
        memo_el_bind(editor, "^C", "memo-interrupt")
        // Without the terminal's signals, Ctrl-Z is a key too: it still suspends the REPL
        // (libedit's SIGTSTP handler restores the terminal, and redraws the line on `fg`).
        memo_el_add_function(editor, "memo-suspend", "Suspend memo") { _, _ in
            raise(SIGTSTP)
            return UInt8(CC_REDISPLAY)
        }
        memo_el_bind(editor, "^Z", "memo-suspend")
    }

    deinit {
        el_end(editor)
        history_end(history)
        free(prompt)
        if let nowhere { fclose(nowhere) }
    }

    /// At most this many lines are kept in the history.
    static let historyLimit = 1000

    /// Reads one line with `prompt`, without its line break.
    func readLine(prompt text: String) -> Input {
        free(prompt)
        prompt = strdup(text)
        var count: Int32 = 0
        interruptTyped = false
        leftBehind.forget()
        // A Ctrl-C that stopped the last command is not one for this line (`readCharacter`).
        Interruption.clear()
        WindowSizeSignal.catchChanges()
        let line = el_gets(editor, &count)
        WindowSizeSignal.release()
        if interruptTyped { return .interrupted }
        guard let line else {
            // SIGINT sent by another program (`kill -INT`) still ends the line.
            return count < 0 && errno == EINTR ? .interrupted : .endOfInput
        }
        var text = String(cString: line)
        if text.hasSuffix("\n") { text.removeLast() }
        return .line(text)
    }

    /// True when the terminal hung up: its end of input is no key typed, and reading on
    /// would only meet it again.
    var isTerminalGone: Bool {
        var terminal = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&terminal, 1, 0) < 0 || terminal.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// Adds a line to the history and saves the history file at once, so a killed REPL
    /// loses at most the line being typed.
    func remember(_ line: String) {
        let line = line.trimmingSpaces()
        guard !line.isEmpty else { return }
        memo_history_enter(history, &event, line)
        guard let historyFile else { return }
        memo_history_save(history, &event, historyFile)
        chmod(historyFile, 0o600)
    }

    /// libedit reads and draws multibyte text by the C library's character type, which is
    /// ASCII until a program chooses one. memo's text is UTF-8, so it takes the user's
    /// locale when that is UTF-8 and C.UTF-8 otherwise; without this, typed Japanese or
    /// Korean would be dropped.
    private static func useUTF8CharacterType() {
        setlocale(LC_CTYPE, "")
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }

    private static func owner(of editor: OpaquePointer) -> LineEditor? {
        memo_el_client_data(editor).map { Unmanaged<LineEditor>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Puts `text` in place of the typed `word` before the cursor: only the rest is inserted
    /// when `text` starts with it, else the word is replaced (`@TRA` becomes `@travel`).
    private func replace(_ word: String, with text: String) {
        if text.hasPrefix(word) {
            el_insertstr(editor, String(text.dropFirst(word.count)))
        } else {
            el_deletestr(editor, Int32(word.unicodeScalars.count))
            el_insertstr(editor, text)
        }
    }

    /// Reads one typed character for libedit as its own reader does, a byte at a time as
    /// UTF-8 (a byte that starts no character is dropped), and returns 1, or 0 at the end of
    /// input, or -1 when a signal other than a resize (SIGINT from `kill`) interrupted it. A
    /// resize interrupts it too: the line is then drawn again first, which libedit alone
    /// does not do.
    private func readCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        var bytes: [CChar] = []
        while true {
            if WindowSizeSignal.takeChange() {
                redrawInNewWidth()
                continue
            }
            var byte: CChar = 0
            let count = input.read(into: &byte)
            // SIGWINCH (redrawn above), or SIGCONT after a stop (libedit's handler has redrawn the line then).
            if count < 0, errno == EINTR, !Interruption.isRequested { continue }
            guard count > 0 else {
                character.pointee = 0
                return count < 0 ? -1 : 0
            }
            bytes.append(byte)
            var state = mbstate_t()
            switch bytes.withUnsafeBufferPointer({ mbrtowc(character, $0.baseAddress, $0.count, &state) }) {
            case -2:
                continue // the character goes on in the next byte
            case -1:
                // Not UTF-8: the bytes before this one are dropped; it may start a character itself.
                guard bytes.count > 1 else {
                    bytes = []
                    continue
                }
                bytes = [byte]
                state = mbstate_t()
                switch mbrtowc(character, &byte, 1, &state) {
                case -1: bytes = []
                case -2: continue
                default: return 1
                }
            default:
                return 1
            }
        }
    }

    /// After a resize: back to where the prompt starts, clear from there down, and draw the
    /// prompt and the line afresh. The terminal has re-wrapped the line to the new width (most
    /// do: tmux, VTE, kitty, iTerm2), so the cursor's row is counted in the new width. Rows
    /// above the screen's top are in the terminal's history, where the cursor cannot go: the
    /// terminal says which row the cursor is on, and the rows not reached are remembered, to
    /// be cleared when a later resize brings them back (`LeftBehindRows`).
    private func redrawInNewWidth() {
        el_resize(editor)
        guard let info = el_line(editor)?.pointee, let prompt else { return }
        let before = String(
            decoding: UnsafeRawBufferPointer(start: info.buffer, count: info.cursor - info.buffer), as: UTF8.self)
        let column = DisplayWidth.of(String(cString: prompt) + before)
        var size = winsize()
        let width = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
        let cursor = input.cursorPosition()
        let rowsAbove =
            Self.rowInLine(column: column, atEnd: info.cursor == info.lastchar, width: width, shownAt: cursor?.column)
            + leftBehind.count(inWidth: width)
        let reached = min(rowsAbove, cursor?.row ?? rowsAbove)
        leftBehind.keep(top: rowsAbove - reached, inWidth: width)
        fputs("\r" + (reached > 0 ? "\u{1B}[\(reached)A" : "") + Self.clearToScreenEnd, memo_stdout())
        let line = String(
            decoding: UnsafeRawBufferPointer(start: info.buffer, count: info.lastchar - info.buffer), as: UTF8.self)
        draw(String(cString: prompt) + line, cursorColumn: column, width: width)
    }

    /// From the start of a row, clears it and the rows below, but not as a clear from the
    /// screen's top left corner: tmux (its default `scroll-on-clear`) moves a screen cleared
    /// from there into its history, where widening brings it back as a copy of the line. So
    /// the row is cleared, then the rest from its second column, and the cursor goes back.
    private static let clearToScreenEnd = "\u{1B}[K\u{1B}[C\u{1B}[J\r"

    /// The row of the line (0 for the prompt's) the terminal shows the cursor on, `column`
    /// columns after the prompt's start in a window `width` wide: from the column the
    /// terminal says the cursor is in, else as the terminal re-wraps a line, which keeps the
    /// cursor after a row's last character on that row.
    private static func rowInLine(column: Int, atEnd: Bool, width: Int, shownAt shownColumn: Int?) -> Int {
        if let shownColumn { return max(0, column - shownColumn) / width }
        return atEnd && column > 0 ? (column - 1) / width : column / width
    }

    /// Draws the prompt and the line from the cursor's place as one run of text, so that
    /// the terminal wraps each full row itself and re-wraps them as one line on the next
    /// resize: libedit, drawing a row that ends in spaces, moves to the next row with a line
    /// break instead, which the terminal keeps. libedit then refreshes into nothing, to learn
    /// what the screen shows. Text that libedit shows otherwise (control characters as `^X`),
    /// libedit draws itself.
    private func draw(_ shown: String, cursorColumn: Int, width: Int) {
        guard let nowhere, shown.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            fflush(memo_stdout())
            memo_el_refresh(editor)
            return
        }
        let end = DisplayWidth.of(shown)
        // At the right margin libedit has the cursor start the next row (a space, then back onto it).
        let margin = end > 0 && end % width == 0 ? " \u{8}" : ""
        let rowsBack = end / width - cursorColumn / width
        fputs(
            shown + margin + (rowsBack > 0 ? "\u{1B}[\(rowsBack)A" : "") + "\r"
                + (cursorColumn % width > 0 ? "\u{1B}[\(cursorColumn % width)C" : ""), memo_stdout())
        fflush(memo_stdout())
        memo_el_set_output(editor, nowhere)
        memo_el_refresh(editor)
        memo_el_set_output(editor, memo_stdout())
    }

    /// Tab: inserts the rest of the only completion, or what all of them share; when that
    /// adds nothing, lists them under the line.
    private func completeWord() -> UInt8 {
        guard let info = el_line(editor)?.pointee else { return UInt8(CC_ERROR) }
        let length = info.cursor - info.buffer
        let before = String(decoding: UnsafeRawBufferPointer(start: info.buffer, count: length), as: UTF8.self)
        let result = complete(before)
        let word = result.word, completions = result.items
        guard !completions.isEmpty else { return UInt8(CC_REFRESH_BEEP) }
        if completions.count == 1 {
            replace(word, with: completions[0].text + " ")
            return UInt8(CC_REFRESH)
        }
        let shared = completions.map(\.text).reduce(completions[0].text) { $0.sharedPrefix(with: $1) }
        if shared.count > word.count {
            replace(word, with: shared)
            return UInt8(CC_REFRESH)
        }
        let width = completions.map(\.text.count).max() ?? 0
        var menu = "\n"
        for completion in completions {
            menu +=
                completion.hint.map { hint in
                    completion.text.paddedWithSpaces(toLength: width + 2) + TerminalText.row(hint.prefix(60))
                } ?? completion.text
            menu += "\n"
        }
        fputs(menu, memo_stdout())
        fflush(memo_stdout())
        leftBehind.forget() // the line is drawn again below the list
        return UInt8(CC_REDISPLAY)
    }
}
