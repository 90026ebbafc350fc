extension Array where Element == String {
    /// The strings with `separator` between them, as the standard library's
    /// `joined(separator:)` gives them. Its version for a collection of strings is generic code
    /// that is not specialized for `[String]`: the first call in a process looks the array's
    /// collection types up at run time, which scans every protocol conformance record in the
    /// binary (~0.17 M instructions, 3% of a one-shot `show` or `search`). Being declared on
    /// `Array` itself, this one is chosen for every `[String]` in the package.
    package func joined(separator: String = "") -> String {
        guard var result = first else { return "" }
        for element in dropFirst() {
            result += separator
            result += element
        }
        return result
    }
}
