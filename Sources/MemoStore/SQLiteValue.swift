/// A value bound to a statement parameter. Binding is the only way user text reaches SQL.
package enum SQLiteValue: Equatable, Sendable {
    case integer(Int64)
    case text(String)
    case null

    /// Binds an optional integer as NULL when absent.
    package static func integer(_ value: Int64?) -> SQLiteValue {
        value.map(SQLiteValue.integer) ?? .null
    }
}
