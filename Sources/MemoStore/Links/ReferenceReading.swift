/// How the references of a text being written are read into the link index (docs/REFERENCE.md,
/// Links): who wrote the text decides what a bare `#ID` in it means.
package enum ReferenceReading: Equatable, Sendable {
    /// memo's own writing (add, edit, the REPL, the server, memo files): a `#ID` names the
    /// memo with that id here, now (none when there is none).
    case asWrittenHere
    /// A person's edit (`edit`, `memo/update`, a memo's own file, a bulk edit, a move with a
    /// text): of the text as it reads here (`ReadableText`: each `#ID` link by its memo's id
    /// here), which is what they saw and typed from. Read as memo's own writing, but a
    /// reference the edit keeps is known by how it read: `#4` that read Alpha stays Alpha's
    /// link, and a `#2` typed anew is memo #2 here, whatever the stored text spelled `#2`.
    case asReadHere
    /// A text that carries the memos its references named where it was written (a sync,
    /// memo's own export with its `links` member): those, when they are the text's
    /// references; else read `asWrittenHere`.
    case carried([SyncRecord.Link])
    /// A record from another program (jrnl, a note folder, JSON without `links`, Markdown from
    /// elsewhere, Core Data): its author wrote `#1` as "Rule #1", "issue #42", "#1 SMP", not
    /// about this store's memo 1, so a bare `#ID` names none; a `memo:UUID` still names its
    /// memo, as nobody writes one by accident.
    case foreign

    /// A sync's links when it carried them, else the text read as memo's own writing.
    package init(carrying links: [SyncRecord.Link]?) {
        self = links.map(Self.carried) ?? .asWrittenHere
    }
}
