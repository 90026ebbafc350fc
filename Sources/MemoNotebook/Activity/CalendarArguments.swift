/// The arguments of `calendar`: the year (nil: this year in the display time zone) and the
/// list filters, which narrow the memos counted.
package struct CalendarArguments: Equatable, Sendable {
    package var filter = FilterArguments()
    package var year: Int?

    /// The years `--year` takes: those a memo's local day can fall in. Memos are dated in
    /// years 1 to 9999 in UTC; a zone ahead of UTC puts the last hours of 9999 on January
    /// 1st, 10000, and one behind it the first hours of year 1 on December 31st, year 0.
    static let years = 0...10000
}

extension CalendarArguments {
    /// The arguments as typed: the filters read, and the word after `--year` if any.
    init(filter: FilterArguments, year word: Word?) throws(CommandError) {
        self.filter = filter
        guard let word else { return }
        guard let year = Int(word.text), Self.years.contains(year), word.text.allSatisfy(\.isASCII) else {
            throw .invalid("invalid year '\(word.text)' for '--year': use a year from 0 to 10000", range: word.range)
        }
        self.year = year
    }
}
