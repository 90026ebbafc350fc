/// The arguments of `calendar`: the year (nil: this year in the display time zone) and the
/// list filters, which narrow the memos counted.
package struct CalendarArguments: Equatable, Sendable {
    package var filter = FilterArguments()
    package var year: Int?

    /// The years `--year` takes: those a date of memo's can be written in.
    static let years = 1...9999
}

extension CalendarArguments {
    /// The arguments as typed: the filters read, and the word after `--year` if any.
    init(filter: FilterArguments, year word: Word?) throws(CommandError) {
        self.filter = filter
        guard let word else { return }
        guard let year = Int(word.text), Self.years.contains(year), word.text.allSatisfy(\.isASCII) else {
            throw .invalid("invalid year '\(word.text)' for '--year': use a year from 1 to 9999", range: word.range)
        }
        self.year = year
    }
}
