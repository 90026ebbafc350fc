/// A value bound to a statement parameter. Binding is the only way user text reaches SQL.
package enum SQLiteValue: Equatable, Sendable {
    case integer(Int64)
    case text(String)
    /// Text as its UTF-8 bytes, which must be valid UTF-8: text made as bytes (the search
    /// text) is bound without making a String of it.
    case utf8([UInt8])
    case null

    /// Binds an optional integer as NULL when absent.
    package static func integer(_ value: Int64?) -> SQLiteValue {
        value.map(SQLiteValue.integer) ?? .null
    }
}
