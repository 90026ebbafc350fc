// swift-tools-version:6.0
import PackageDescription

/// memo: a notebook of short text memos for the terminal, kept in SQLite.
///
/// Dependencies point one way: MemoModel ← MemoStore ← MemoSync ← MemoNotebook ← {MemoREPL, MemoServer} ← memo.
/// The faces (MemoREPL, MemoServer, memo) depend on MemoNotebook and MemoModel (the values: memos,
/// dates, errors) and not on MemoStore or MemoSync: the build's explicit import check
/// (scripts/lib.sh) fails a face that imports them. The fixtures in examples/fixtures are built
/// into MemoNotebook by the EmbedFixtures plugin.
/// Only MemoStore imports CSQLite, CSodium (libsodium: encrypted stores), CFileAttributes
/// (extended attributes of the store file) and CStoreImage (the bytes of an empty store),
/// but for MemoModel's SQLiteError, which names SQLite's result codes; only the line editor
/// imports CEditLine, and only the program (memo) CMalloc, to set the allocator up. A debug build links SQLite, libsodium and libedit as shared libraries, found by
/// the system's pkg-config files; a release build (scripts/lib.sh's build_memo) points
/// pkg-config at files that find their static archives instead, so the binary loads neither.
let package = Package(
    name: "memo",
    products: [
        .executable(name: "memo", targets: ["memo"])
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        .systemLibrary(name: "CFileAttributes"),
        .systemLibrary(name: "CMalloc"),
        // The empty store's image (`EmptyStoreImage`): C, as a byte array of that size in
        // Swift takes the compiler minutes.
        .target(name: "CStoreImage"),
        .target(name: "MemoModel", dependencies: ["CSQLite"]),
        .target(
            name: "MemoStore", dependencies: ["MemoModel", "CSQLite", "CSodium", "CFileAttributes", "CStoreImage"]),
        .target(name: "MemoSync", dependencies: ["MemoStore"]),
        .target(name: "MemoNotebook", dependencies: ["MemoStore", "MemoSync"], plugins: ["EmbedFixtures"]),
        .executableTarget(name: "fixture-embedder"),
        .plugin(name: "EmbedFixtures", capability: .buildTool(), dependencies: ["fixture-embedder"]),
        .target(name: "MemoREPL", dependencies: ["MemoNotebook", "MemoModel", "CEditLine"]),
        .target(name: "MemoServer", dependencies: ["MemoNotebook", "MemoModel"]),
        .executableTarget(
            name: "memo", dependencies: ["MemoREPL", "MemoServer", "MemoNotebook", "MemoModel", "CMalloc"]),
        // What the tests share: temporary folders, a seeded generator, the property tests' seed
        // budget and the binary under test; a scripted notebook for the tests above the store.
        .target(name: "MemoTestSupport", path: "Tests/MemoTestSupport"),
        .target(
            name: "MemoNotebookTestSupport", dependencies: ["MemoTestSupport", "MemoNotebook", "MemoStore"],
            path: "Tests/MemoNotebookTestSupport"),
        .testTarget(name: "MemoStoreTests", dependencies: ["MemoStore", "CSQLite", "MemoTestSupport"]),
        .testTarget(
            name: "MemoNotebookTests",
            dependencies: ["MemoNotebook", "MemoStore", "MemoSync", "MemoTestSupport", "MemoNotebookTestSupport"]),
        .testTarget(
            name: "MemoServerTests",
            dependencies: ["MemoServer", "MemoNotebook", "MemoStore", "MemoTestSupport", "MemoNotebookTestSupport"]),
        .testTarget(name: "MemoCLITests", dependencies: ["memo", "MemoTestSupport"])
    ],
    swiftLanguageModes: [.v6]
)
