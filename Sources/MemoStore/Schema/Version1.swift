extension Schema {
    /// The earliest layout, exactly as the first memo wrote it: seconds as REAL.
    static let version1 = Migration(
        version: 1,
        sql: """
            CREATE TABLE memo(id INTEGER PRIMARY KEY AUTOINCREMENT, content TEXT NOT NULL, insert_date REAL NOT NULL);
            """)
}
