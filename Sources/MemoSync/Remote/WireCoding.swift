import FoundationEssentials

/// The JSON of the sync exchange's lines: one encoder and one decoder for every line, as a
/// sync may send a million records.
enum WireCoding {
    private static let encoder = JSONEncoder()
    private static let decoder = JSONDecoder()

    static func encode(_ value: some Encodable) -> [UInt8] {
        // Encoding plain data of these types cannot fail: no floats, no custom encoders.
        (try? [UInt8](encoder.encode(value))) ?? Array("null".utf8)
    }

    static func decode<T: Decodable>(_ type: T.Type, from line: ArraySlice<UInt8>) -> T? {
        try? decoder.decode(type, from: Data(line))
    }
}
