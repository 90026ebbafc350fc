/// What a command accepts, in one table that parsing, help, completion and the program's
/// command line all read.
package struct CommandSyntax: Sendable {
    package var kind: CommandKind
    package var aliases: [String] = []
    /// Everything after the name, as `help` shows it.
    package var usage: String
    /// One sentence ending with a period.
    package var summary: String
    package var options: [OptionSyntax] = []
    /// Whether its last argument is text (the rest of the line, or a heredoc).
    package var takesText = false
    /// More to say in `help COMMAND` than the options do, or nil.
    package var details: String?

    package var name: String { kind.name }

    package func option(named name: String) -> OptionSyntax? {
        options.first { $0.names.contains(name) }
    }

    /// The option a word spells and the value written in it: `--tag=x`, or a short option's
    /// value attached to it, `-n5`, as git and head take it. Nil when it names no option.
    package func option(spelledBy word: String) -> (option: OptionSyntax, inlineValue: String?)? {
        let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if let option = option(named: parts[0]) { return (option, parts.count > 1 ? parts[1] : nil) }
        guard !word.hasPrefix("--"), word.count > 2, let option = option(named: String(word.prefix(2))),
            option.valueName != nil
        else { return nil }
        return (option, String(word.dropFirst(2)))
    }
}

/// One option of a command.
package struct OptionSyntax: Sendable {
    /// The spellings, long first: `["--limit", "-n"]`.
    package var names: [String]
    /// What its value is called in help, or nil for a flag.
    package var valueName: String?
    package var summary: String
    /// Whether it may be given more than once (values accumulate).
    package var isRepeatable = false

    package var name: String { names[0] }

    /// Whether its value is a date, which may take several words (`--since 2 days ago`): a
    /// value named DATE or WHEN.
    package var takesDate: Bool { valueName == "DATE" || valueName == "WHEN" }

    package init(names: [String], valueName: String? = nil, summary: String, isRepeatable: Bool = false) {
        self.names = names
        self.valueName = valueName
        self.summary = summary
        self.isRepeatable = isRepeatable
    }

    /// `--tag TAG` or `-n, --limit N`: the option as help shows it.
    package var spelling: String {
        names.joined(separator: ", ") + (valueName.map { " " + $0 } ?? "")
    }
}

extension OptionSyntax {
    static let tag = OptionSyntax(
        names: ["--tag"], valueName: "TAG", summary: "Only memos with this tag (given again: with all of them).",
        isRepeatable: true)
    static let since = OptionSyntax(
        names: ["--since"], valueName: "DATE", summary: "Inserted on or after DATE (a day or span: from its start).")
    static let until = OptionSyntax(
        names: ["--until"], valueName: "DATE", summary: "Inserted on or before DATE (a day or span: to its end).")
    static let on = OptionSyntax(
        names: ["--on"], valueName: "DATE", summary: "Inserted on that day, or in that week, month or year.")
    static let linksTo = OptionSyntax(
        names: ["--links-to"], valueName: "ID", summary: "Only memos whose text references memo ID.")
    static let linkedFrom = OptionSyntax(
        names: ["--linked-from"], valueName: "ID", summary: "Only memos that memo ID's text references.")
    static let orphan = OptionSyntax(names: ["--orphan"], summary: "Only memos with no link to or from another memo.")
    static let filters: [OptionSyntax] = [tag, since, until, on, linksTo, linkedFrom, orphan]
    static let limit = OptionSyntax(names: ["-n", "--limit"], valueName: "N", summary: "At most N memos.")
    /// `add` and `edit`'s back-dating (docs/REFERENCE.md, Back-dating): a DATE-valued option,
    /// read and completed as the filters' dates are.
    static func insertDate(_ summary: String) -> OptionSyntax {
        OptionSyntax(names: ["--date"], valueName: "DATE", summary: summary)
    }
}

extension CommandSyntax {
    /// A command of the language.
    init(
        _ name: CommandName, aliases: [String] = [], usage: String, summary: String, options: [OptionSyntax] = [],
        takesText: Bool = false, details: String? = nil
    ) {
        self.init(
            kind: .language(name), aliases: aliases, usage: usage, summary: summary, options: options,
            takesText: takesText, details: details)
    }

    /// A command of the program: `memo NAME --help` shows its usage, summary and options, and
    /// `memo --help` its usage among the program's. The hidden ones have none.
    private static func program(
        _ name: ProgramCommandName, usage: String = "", summary: String = "",
        options: [OptionSyntax] = []
    ) -> CommandSyntax {
        CommandSyntax(kind: .program(name), usage: usage, summary: summary, options: options)
    }

    /// Every command memo knows: the language's in the order `help` lists them, then the
    /// program's in the order completion offers them.
    package static let table: [CommandSyntax] = [
        CommandSyntax(
            .add,
            usage: "[--tag TAG]... [--date DATE] TEXT [--tag TAG]... | add <<END | add --template NAME [TITLE]",
            summary: "Create a memo; inline @words tag it too.",
            options: [
                OptionSyntax(names: ["--tag"], valueName: "TAG", summary: "Tag the new memo.", isRepeatable: true),
                .insertDate("Date the memo DATE (back-dating): it takes its place in the order."),
                OptionSyntax(
                    names: ["--template"], valueName: "NAME",
                    summary: "Write the memo in the editor, starting from the template NAME filled in.")
            ],
            takesText: true,
            details: """
                Options may stand before or after the text (add Buy bread --tag shop), as every command's
                may; write -- before a text that holds words like --tag: add -- --tag is an option (a text).
                --date: an instant is the memo's time as given; a day (2024-03-01, yesterday, monday) is that
                day at the time of day it is now. A date in the future is allowed; years 0001 to 9999.
                Templates are files in $XDG_CONFIG_HOME/memo/templates (else ~/.config/memo/templates);
                {{date}} (YYYY-MM-DD), {{time}} (HH:MM), {{weekday}} (Monday) and {{title}} (the words after
                NAME, else nothing) are filled in the display time zone; any other {{…}} stays as written.
                A template saved unchanged, or emptied, adds nothing and fails, as an empty text does.
                """),
        CommandSyntax(
            .list,
            usage:
                "[--asc|--desc] [-n N] [--offset N] [--tag TAG]... [--since DATE] [--until DATE] [--on DATE] [--links-to ID] [--linked-from ID] [--orphan] [--group day|month] [--ids]",
            summary: "List memos in insert-date order, newest first.",
            options: [
                OptionSyntax(names: ["--asc"], summary: "Oldest first."),
                OptionSyntax(names: ["--desc"], summary: "Newest first (the default)."),
                .limit,
                OptionSyntax(names: ["--offset"], valueName: "N", summary: "Skip the first N memos.")
            ] + OptionSyntax.filters + [
                OptionSyntax(
                    names: ["--group"], valueName: "day|month",
                    summary: "A heading for each day or month (display time zone); text output only."),
                .ids
            ]),
        CommandSyntax(
            .search,
            usage:
                "[-F] [--rank] [--asc|--desc] [-n N] [--offset N] [--tag TAG]... [--since DATE] [--until DATE] [--on DATE] [--links-to ID] [--linked-from ID] [--orphan] [--ids] QUERY",
            summary: "Find memos by what their text holds, newest first.",
            options: [
                OptionSyntax(
                    names: ["-F", "--fixed-strings"],
                    summary: "QUERY is a text to find as written, anywhere, as grep -F finds it."),
                OptionSyntax(
                    names: ["--rank"], summary: "Most relevant first (FTS5's bm25), newest first among equals."),
                OptionSyntax(names: ["--asc"], summary: "Oldest first."),
                OptionSyntax(names: ["--desc"], summary: "Newest first (the default)."),
                .limit,
                OptionSyntax(names: ["--offset"], valueName: "N", summary: "Skip the first N memos.")
            ] + OptionSyntax.filters + [.ids],
            details: """
                QUERY: words that must all appear, "a phrase" (its words apart by spaces or punctuation:
                "jean paul" finds Jean-Paul), prefix* for words starting so, a OR b for either, (a OR b) c
                to group, -word or -"a phrase" to leave out, @tag for memos with that tag (-@tag: without).
                A memo is found when its text holds what was typed, symbols and emoji included (C++, $100,
                🍕), with case, accents, full-width forms, ß/ẞ/ss and typographic quotes (’ “ as ' ") folded;
                a skin tone typed must be there (👍🏽), while 👍 finds every thumbs-up. A word of symbols alone
                (&, -) is passed over when others remain. To find a pasted text that holds -word, OR, quotes or
                parentheses as written, use -F: the words after it are one text, found anywhere (cat in
                concatenate), case and accents folded. Options may stand anywhere before --. Text output
                shows the line that matched, the matches in bold on a colour terminal; --json adds it as
                "snippet". On the command line a search that finds nothing exits 1, as grep does.
                """),
        CommandSyntax(
            .show, usage: "ID... | show -i [list options] [QUERY]",
            summary: "Show whole memos with their uuid, handle, dates, tags and links both ways.",
            options: [.interactive] + OptionSyntax.picking,
            details: """
                handle: memo: and the fewest hex digits of the uuid (8 or more) that name the memo alone here; it
                names the memo in every store, where its id may differ. The text reads each #ID link as its
                memo's id here (the stored text stays as written; --json gives it), a link to a memo not here as
                its handle. links: lists each memo the text references (#ID, memo:HANDLE, memo:UUID; not in
                links: lists each memo the text links to (#ID, memo:HANDLE, memo:UUID; not in code): → #3 and
                its first line; for a memo deleted since, its handle and last first line, then (deleted); for a
                memo:HANDLE or memo:UUID of no memo here, the reference and (no such memo); then each memo whose
                text references this one: ←. A reference that names no memo is words, not a link: 'memo links ID'
                lists it.
                """),
        CommandSyntax(
            .edit,
            usage:
                "ID [--date DATE] TEXT | edit ID [--date DATE] <<END | edit ID --date DATE | edit [list options] | edit -i [list options] [QUERY]",
            summary: "Replace a memo's text (--date moves it), or several in one editor buffer.",
            options: [.insertDate("Move the memo to DATE, in the order too; alone, the text stays."), .interactive]
                + OptionSyntax.picking,
            takesText: true,
            details: """
                --date reads DATE as add --date does. With a text, the memo gets both in one change ('edited #ID
                and moved it to DATE'); alone, it moves without an editor ('moved #ID to DATE'). Either way its
                update date becomes now; undo puts it back.
                Without an id, the filters select memos (as list's, newest first) and the editor ($VISUAL, else
                $EDITOR, else vi) opens them all in one buffer, each under a header line '%% #ID DATE v:VERSION'
                (v: names the version it was written from). Save to apply, as one change (one undo takes it
                back): a changed text is edited, an unchanged one stays, a memo whose header is removed with its
                text is deleted, a text under a '%% new' header is added (one header per memo). Lines starting,
                after blanks, with '%%%' are comments, with '%%' headers; a text line starting with '%%' shows a
                '\\' before it. A header naming no memo of the buffer, a memo headed twice, a kept header without
                text, or a memo changed since its v: or by another process meanwhile refuses the whole save, and
                the saved text is kept in a private file the error names. An editor that fails changes nothing.
                With standard input not a terminal the buffer is read from it (a kept buffer, or sections a
                script writes, '%% #ID' alone meaning the memo as it is now): it deletes nothing it leaves out.
                edit -i opens the memo picked in the editor, as edit ID does, and several picked in one buffer,
                as above; only options before ID count (edit 3 ls -i is a text).
                """),
        CommandSyntax(
            .delete, aliases: ["rm"], usage: "ID... | delete -i [list options] [QUERY]",
            summary: "Delete memos: all of them, or none if one is missing.",
            options: [.interactive] + OptionSyntax.picking),
        CommandSyntax(
            .tag, usage: "ID TAG... | tag -i TAG... [list options] | tag --rename OLD NEW",
            summary: "Add tags to a memo, or rename a tag everywhere.",
            options: [.interactive] + OptionSyntax.listOrder + OptionSyntax.filters + [
                OptionSyntax(
                    names: ["--rename"], summary: "Rename tag OLD to NEW on every memo, inline @OLD in texts too.")
            ],
            details: """
                --rename is one change (one undo takes it back) that a sync carries: an explicit tag is replaced,
                and each inline @OLD, a whole tag word, is rewritten @NEW in the text (@OLDER and a@OLD.com stay).
                A memo that has NEW already keeps one: the tags merge.
                """),
        CommandSyntax(.untag, usage: "ID TAG...", summary: "Remove tags from a memo."),
        CommandSyntax(.tags, usage: "", summary: "List every tag with its memo count."),
        CommandSyntax(
            .count,
            usage:
                "[--tag TAG]... [--since DATE] [--until DATE] [--on DATE] [--links-to ID] [--linked-from ID] [--orphan]",
            summary: "Count memos.", options: OptionSyntax.filters),
        CommandSyntax(
            .graph,
            usage:
                "[--format dot|json] [--direction LR|TB|RL|BT] [--label-length N] [--linked] [--tag TAG]... [--since DATE] [--until DATE] [--on DATE] [--links-to ID] [--linked-from ID] [--orphan]",
            summary: "Print the link graph of memos, for Graphviz (dot) or scripts (json).",
            options: [
                OptionSyntax(
                    names: ["--format"], valueName: "dot|json",
                    summary: "dot (the default; JSON under --json) or json."),
                OptionSyntax(
                    names: ["--direction"], valueName: "LR|TB|RL|BT",
                    summary: "Which way links point in dot's drawing: LR (left to right, the default), TB, RL or BT."),
                OptionSyntax(
                    names: ["--label-length"], valueName: "N",
                    summary: "Show at most N columns of each memo's first line in dot (60; 0: the id alone)."),
                OptionSyntax(
                    names: ["--linked"],
                    summary: "Leave out the memos with no link to or from another memo of the graph.")
            ] + OptionSyntax.filters,
            details: """
                The memos the filters select, oldest first, each a node named by its id and first line, and
                the links between two of them, each once: memo graph | dot -Tsvg > memos.svg. dot lays out
                each connected part on its own and packs the parts into a block (pack=true), so hundreds of
                memos, most without links, still draw at full size. JSON is one object:
                {"nodes":[{"id","uuid","title"}],"edges":[{"from","to"}]}, with the same memos.
                """),
        CommandSyntax(
            .links,
            usage:
                "[ID...] [--check] [--unlink] [--tag TAG]... [--since DATE] [--until DATE] [--on DATE] [--links-to ID] [--linked-from ID] [--orphan]",
            summary: "List the references memos' texts make and where they lead; unlink unwanted ones.",
            options: [
                OptionSyntax(
                    names: ["--check"],
                    summary: "Only #ID links that look accidental: in a text an import wrote, or after Rule, issue, No."
                ),
                OptionSyntax(
                    names: ["--unlink"],
                    summary: "Make those #ID links words, as one change (undo takes it back); texts stay.")
            ] + OptionSyntax.filters,
            details: """
                A line per reference of the texts of memos ID... (none: every memo) that the filters
                select: the memo, the reference, where it leads
                (→ #3 and its first line, (deleted), or (none) for words that are not a link) and the words
                around it: #12  #1 → (none)  "Rule #1: never panic". JSON, a line each:
                {"memo","start","reference","context","id","uuid","accidental"}.
                --check keeps the bare #ID links that look accidental: the memo's text came from an import
                (its latest change, tags, moves, unlinks, undo and redo aside, is one), or the word before
                it counts things (rule, issue, bug, ticket, pr, no, nr, num, number, item, step, part,
                chapter, page, episode, vol, volume, round, level, track). --unlink makes the #ID links
                listed (without --check, all of the selected memos') words that name no memo, through
                later edits too; a memo:UUID stays a link. It prints 'unlinked N references in M memos';
                JSON {"unlinked":N,"memos":M}.
                """),
        CommandSyntax(.begin, usage: "", summary: "Start a batch: changes are seen here at once and saved together."),
        CommandSyntax(.save, aliases: ["commit"], usage: "", summary: "Save the batch's changes as one change."),
        CommandSyntax(.rollback, usage: "", summary: "Discard the batch's changes."),
        CommandSyntax(
            .undo, usage: "[--sync]", summary: "Undo the last change (this session's; a one-shot undo, the store's).",
            options: [
                OptionSyntax(
                    names: ["--sync"], summary: "Undo the store's latest sync instead, keeping what it brought.")
            ],
            details: """
                A plain undo never takes back a sync: what a sync brought is the other store's too, and
                undoing it like a change typed here would delete it there at the next sync. 'undo --sync'
                brings back the memos the sync deleted here and puts back the tags it changed, and keeps every
                text it brought and every memo it added (those it brought, and @conflict copies): the other
                store may no longer hold them. The next sync with that store merges both sides as concurrent
                changes, so nothing typed on either side is lost. On a terminal it asks first.
                """),
        CommandSyntax(.redo, usage: "", summary: "Redo the last undone change."),
        CommandSyntax(
            .history, usage: "[-n N]", summary: "List the store's saved changes, newest first.",
            options: [OptionSyntax(names: ["-n", "--limit"], valueName: "N", summary: "At most N changes.")]),
        CommandSyntax(
            .sync,
            usage: "PATH|[USER@]HOST:PATH|ssh://[USER@]HOST[:PORT]/PATH [--remote-memo PROGRAM] [--allow-plaintext]",
            summary:
                "Merge this store with the memo store at PATH, both ways (PATH is created in its folder when missing).",
            options: [
                OptionSyntax(
                    names: ["--remote-memo"], valueName: "PROGRAM",
                    summary: "Through ssh: the memo program there (default: memo), a command of its shell."),
                OptionSyntax(
                    names: ["--allow-plaintext"],
                    summary: "From an encrypted store, sync with (or create) a store that is not encrypted.")
            ],
            details: """
                Memos match by uuid. A memo changed on one side only takes that side's version; its text
                changed on both, the later change wins and the other text is kept as a new memo tagged
                @conflict. Tags merge apart from the text: a tag added on either side stays, one removed on
                one side goes. A delete removes only what its side saw, and a deleted memo stays deleted.
                Each side saves what it received with how far it has the other's changes, so a sync that
                fails on either side is finished by the next. A copied store file, or one put back from a
                backup, becomes a store of its own at its next change or sync and converges with its peers.
                Not inside a batch (the other store keeps what it receives): save or roll the batch back first.
                HOST:PATH (a colon before any slash; ./a:b is a file here) and ssh:// reach a store on another
                machine: ssh (the command line in $MEMO_SSH, else ssh) runs 'memo sync --serve PATH' there,
                which serves that one store and nothing else; the same rules and safety hold, and only what
                changed since the last sync travels. A relative PATH is in the login's home folder there.
                From an encrypted store, a sync with a store that is not encrypted (or one it creates) would
                leave a readable copy of the memos in that file: on a terminal it asks first; elsewhere
                (scripts, the server, piped input) it is refused unless --allow-plaintext is given. Two
                encrypted stores stay encrypted: here both are opened with the passphrase that
                $MEMO_PASSPHRASE_COMMAND prints (so they must share it; on a terminal without it, each is
                asked), and through ssh the memo there takes its own $MEMO_PASSPHRASE_COMMAND, never a prompt.
                """),
        CommandSyntax(
            .import,
            usage:
                "FILE|FOLDER [--format jsonl|json|markdown|coredata|jrnl] [--entity NAME] [--text ATTR[,ATTR]] [--date ATTR]",
            summary: "Bring memos in from a file, a jrnl export or a folder of notes, all or nothing.",
            options: [
                OptionSyntax(
                    names: ["--format"], valueName: "FORMAT",
                    summary:
                        "jsonl, json, markdown, coredata or jrnl (default: from the content, else the file's extension)."
                ),
                OptionSyntax(
                    names: ["--entity"], valueName: "NAME", summary: "coredata: the entity holding memos (MemoEntity)."),
                OptionSyntax(
                    names: ["--text"], valueName: "ATTR[,ATTR]",
                    summary: "coredata: the text attributes, joined by newlines (content)."),
                OptionSyntax(
                    names: ["--date"], valueName: "ATTR", summary: "coredata: the insert-date attribute (insertDate).")
            ],
            details: """
                Markdown: an item (- text, further lines indented by two spaces) is a memo; its one-line
                comment <!-- memo u=… i=… … --> (older exports: <!-- memo {JSON} -->) restores its uuid, dates,
                tags, sync version and links, and its text when the comment holds it (export puts it there for
                text an item cannot carry: CR, control characters, lines like the comment). A paragraph is a
                memo; a heading is a memo of its own, except export's # Memos title and ## YYYY-MM-DD day
                headings, which date the memos under them.
                A file naming one uuid twice (in any case) fails at the second. A known memo is updated only by
                a record edited later than it (a later updateDate), and moves to the record's insertDate; no date
                is made up. A record whose uuid names an unrelated memo here (another insert date without a later
                edit, or another text when neither was edited) is added under a uuid of its own. A record without
                a uuid that repeats a memo already here (text, tags, and the dates it carries) is skipped.
                Skips say why: "N skipped (N already in the store, N not newer than their memos here)".
                The content tells the format: a folder, a SQLite store, a JSON array, jrnl's export (jrnl
                --format json), JSON Lines, a note with front matter; other text goes by the extension, else is
                Markdown. Standard input (-) is JSON Lines unless --format says; it is never one note (front
                matter there is a memo): import a note from its file. Another memo store is refused: memo sync
                FILE merges two stores.
                jrnl: an entry is a memo of its title (first line) and body, at its date and time in the display
                time zone, with its tags (without @) and starred as the tag starred.
                A folder (zk, nb, Obsidian): each *.md file below it is one memo; hidden files and folders (.zk,
                .obsidian, .git) are passed over, other files left out and named (a link to a folder ends in /
                and is not followed; a broken link is left out as the file it names).
                The front matter is taken out of the text: date: or created: (YYYY-MM-DD, YYYY-MM-DD HH:MM[:SS],
                ISO 8601) dates the memo, else the file's modification time does; tags: (a list, [a, b], or
                words; quoted items) tags it, a leading # or @ dropped; inline #words stay text; a comment
                ( # …) after a value is dropped. Local times read as add --date reads them. A file that cannot
                be read (not UTF-8, over 1 MiB) fails the import, naming it.
                Importing the same export or folder again adds nothing: a jrnl entry's uuid comes from its date,
                time and title, a note's from its id: or else its path under the folder imported (its name,
                imported alone); a note modified since updates its memo, and a changed date: moves it (jrnl
                keeps no edit times: an entry edited there is skipped). A note reached through another folder
                that repeats a memo here (text, tags, date) is already in the store.
                """),
        CommandSyntax(
            .export,
            usage:
                "FILE|- [--format jsonl|json|markdown] [--tag TAG]... [--since DATE] [--until DATE] [--on DATE] [--links-to ID] [--linked-from ID] [--orphan]",
            summary: "Write memos to a file (- for standard output), oldest first.",
            options: [
                OptionSyntax(
                    names: ["--format"], valueName: "FORMAT",
                    summary: "jsonl, json or markdown (default: from the file's extension, else jsonl).")
            ] + OptionSyntax.filters,
            details: """
                The file appears whole or not at all: a crash leaves no partial file. A file that is replaced
                keeps its mode; a new one follows the umask. The store itself (by any name) and any other
                SQLite database are refused, left untouched.
                """),
        CommandSyntax(.fixture, usage: "NAME|FILE", summary: "Load a built-in fixture or a fixture script."),
        CommandSyntax(.fixtures, usage: "", summary: "List the built-in fixtures."),
        CommandSyntax(
            .clock, usage: "DATE", summary: "Set the deterministic clock of scripting mode.",
            details: "A DATE counts from the clock as it stands (clock yesterday 21:30); a day or span sets its start."),
        CommandSyntax(.info, usage: "", summary: "Describe the store: mode, path, schema, counts, SQLite."),
        CommandSyntax(.help, usage: "[COMMAND]", summary: "List the commands, or explain one."),
        CommandSyntax(.quit, aliases: ["exit"], usage: "", summary: "Leave the session."),
        CommandSyntax(
            .today, usage: "", summary: "Write today's daily memo (tagged @daily) in the editor; made on first use.",
            details: """
                The first use of a day (display time zone) opens the editor on the template daily filled in
                (see add --template), else on an empty text, and adds the memo tagged @daily; saved unchanged
                or empty, nothing is added. Later the same day it opens that memo again, as edit ID does
                (unchanged: nothing is recorded). With several @daily memos of today (after a sync), the
                first inserted is the one. Text piped in (echo TEXT | memo today) is added after the memo's
                text, on its own line, without an editor. Scripts and the server have no editor: there, add
                --tag daily TEXT.
                """),
        CommandSyntax(
            .pick,
            usage:
                "[-F] [--asc|--desc] [-n N] [--offset N] [--tag TAG]... [--since DATE] [--until DATE] [--on DATE] [--links-to ID] [--linked-from ID] [--orphan] [QUERY]",
            summary: "Pick memos with fzf and print their ids, one a line.",
            options: OptionSyntax.picking,
            details: """
                Runs fzf (Debian package fzf) over the memos list's options select, or with a QUERY over those
                search finds: a line each with id, date, first line and tags, and beside it what show shows of
                the memo under the cursor. Tab selects more than one, Enter picks, Esc or Ctrl-C picks nothing:
                then nothing is printed and the status is 1. fzf draws on the terminal, so the ids may go to a
                pipe: memo pick --tag old | xargs memo delete. show, edit, delete and tag take -i (--interactive)
                with the same options to act on what is picked: memo delete -i --tag old. Scripts and the server
                have no terminal: there pick and -i are refused.
                """),
        CommandSyntax(
            .calendar,
            usage:
                "[--year YEAR] [--tag TAG]... [--since DATE] [--until DATE] [--on DATE] [--links-to ID] [--linked-from ID] [--orphan]",
            summary: "Draw a year as a heatmap of memos a day (display time zone).",
            options: [
                OptionSyntax(
                    names: ["--year"], valueName: "YEAR",
                    summary: "The year to draw, 0 to 10000 (default: this year).")
            ] + OptionSyntax.filters,
            details: """
                A column a week (Monday to Sunday, top to bottom), each month's name above the week of its
                1st; 80 columns hold any year. A day is shaded by how many memos it has: · none, then ░ ▒ ▓ █
                by the quartiles of the year's days with memos (░ up to the first quartile, ▒ to the median,
                ▓ to the third quartile, █ above); the legend line gives each shade's counts, the last line
                the year's total. A colour terminal also colours them green (NO_COLOR turns colour off).
                The filters narrow the memos counted. JSON is one object: {"year", "total", "daysWithMemos",
                "levels":[{"level","from","to"}], "days":[{"date","count"}]}, days with memos only.
                """),
        CommandSyntax(
            .stats,
            usage:
                "[--tag TAG]... [--since DATE] [--until DATE] [--on DATE] [--links-to ID] [--linked-from ID] [--orphan]",
            summary: "Summarize memos: totals, months, tags, streaks, busiest weekday and hour.",
            options: OptionSyntax.filters,
            details: """
                Days, months, weekdays and hours are the display time zone's. Words are runs of characters
                between Unicode White_Space (spaces, tabs, line breaks, U+0085, U+2028, U+2029, no-break
                and ideographic spaces: wc -w's count on ASCII text). A streak is days in a row each with a
                memo; the current streak ends today, or yesterday while today has none yet (0 days
                otherwise), and the longest is the latest of the longest. Tags: the 10 most used. The
                busiest weekday and hour are the first of equals. Months: those with memos only. JSON is
                one object: {"memos", "words", "days", "firstDay", "lastDay",
                "months":[{"month","memos","words"}], "tags":[{"name","count"}], "longestStreak",
                "currentStreak" ({"days","from","to"}, or null), "busiestWeekday", "busiestHour" (or null),
                "weekdays":[7 counts, Monday first], "hours":[24 counts]}.
                """),
        program(
            .run, usage: "[--store PATH | --in-memory] [--fixture NAME|FILE]... [--echo] [--keep-going] FILE...",
            summary: "Replay command files (- is standard input): in memory on a deterministic clock, unless --store.",
            options: [
                OptionSyntax(names: ["--echo"], summary: "Print each command before its output."),
                OptionSyntax(names: ["--keep-going"], summary: "Run on after an error; the status is still 1.")
            ]),
        program(
            .test, usage: "[--update] FILE...", summary: "Check REPL transcripts, each in a fresh in-memory store.",
            options: [
                OptionSyntax(names: ["--update"], summary: "Rewrite the transcripts with the output memo prints now.")
            ]),
        program(
            .serve, usage: "[--store PATH | --in-memory] [--fixture NAME|FILE]...",
            summary: "Speak JSON-RPC 2.0 with LSP framing on standard input and output, for editors and programs."),
        program(
            .encrypt, usage: "[--store PATH] [--change-passphrase]",
            summary:
                "Encrypt the store file at rest (libsodium), asking a passphrase twice, or taking $MEMO_PASSPHRASE_COMMAND's.",
            options: [
                OptionSyntax(
                    names: ["--change-passphrase"],
                    summary: "Give an encrypted store a new passphrase (or $MEMO_NEW_PASSPHRASE_COMMAND's).")
            ]),
        program(.decrypt, usage: "[--store PATH]", summary: "Make an encrypted store a plain SQLite file again."),
        program(.completions, usage: "bash|zsh|fish", summary: "Print the completion script for bash, zsh or fish."),
        program(.complete), program(.manual)
    ]

    /// The commands of the language, in the order `help` lists them.
    package static let all = table.filter { $0.kind.languageCommand != nil }

    /// The program's commands that completion offers, in its order.
    package static let offeredProgramCommands = table.compactMap(\.kind.programCommand).filter(\.isOffered)

    /// The syntax of a command of the language by name or alias.
    package static func named(_ name: String) -> CommandSyntax? {
        all.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// The entry of one of the program's commands.
    package static func syntax(of name: ProgramCommandName) -> CommandSyntax? {
        table.first { $0.kind == .program(name) }
    }

    /// The program's command of that name, or nil for any other word (a command of the language).
    package static func programCommand(named name: String) -> ProgramCommandName? {
        table.lazy.compactMap(\.kind.programCommand).first { $0.rawValue == name }
    }
}
