import MemoStore

/// A template's text with its placeholders filled (docs/REFERENCE.md, Templates): `{{date}}`
/// (YYYY-MM-DD), `{{time}}` (HH:MM), `{{weekday}}` (Monday…) at one instant in the display time
/// zone, and `{{title}}`. Spaces inside the braces are allowed (`{{ date }}`). Any other
/// `{{…}}` is left as written, so a template may hold braces meant for something else; what a
/// placeholder puts in is not read again (a title holding `{{date}}` stays as typed).
package struct TemplateText {
    /// When the text is filled in, in which time zone, and the title.
    package var instant: Timestamp
    package var displayTime: DisplayTime
    package var title: String

    package init(at instant: Timestamp, in displayTime: DisplayTime, title: String) {
        self.instant = instant
        self.displayTime = displayTime
        self.title = title
    }

    /// `template` with each placeholder replaced by its value.
    package func fill(_ template: String) -> String {
        var filled = ""
        var rest = Substring(template)
        while let open = rest.firstRange(of: "{{") {
            filled += rest[..<open.lowerBound]
            let afterOpen = rest[open.upperBound...]
            if let close = afterOpen.firstRange(of: "}}"),
                let value = value(of: afterOpen[..<close.lowerBound].trimmingSpaces())
            {
                filled += value
                rest = afterOpen[close.upperBound...]
            } else {
                // Not a placeholder: keep one brace and look again from the next, so
                // `{{{date}}}` fills the inner one.
                filled += "{"
                rest = rest[rest.index(after: open.lowerBound)...]
            }
        }
        return filled + rest
    }

    /// The value of the placeholder named `name`, or nil for a name memo does not know.
    private func value(of name: String) -> String? {
        switch name {
        case "date": String(wallClock.prefix(10))
        case "time": String(wallClock.dropFirst(11).prefix(5))
        case "weekday": Self.weekdayNames[displayTime.day(of: instant).weekday.rawValue]
        case "title": title
        default: nil
        }
    }

    /// `YYYY-MM-DD HH:MM:SS` at the instant, in the display time zone.
    private var wallClock: String { displayTime.format(instant) }

    /// Weekday names as people write them, from Monday (`DateArgument.Weekday`'s order).
    private static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
}
