import MemoStore

/// Reads the usual shape of an import record straight from its bytes into a `JSONValue`: one
/// object whose values are strings, `null`, or arrays of strings (`export` writes nothing
/// else but the numeric `id`, which import ignores). Anything else (numbers, booleans,
/// nesting, invalid text) is left to `JSONValue.parse` (`JSONDecoder`). Measured with
/// callgrind on an import of 10,000 memos, `JSONDecoder` alone costs 12 % more instructions
/// for the whole import (14 % more wall time at 100,000 memos in `scripts/bench`): reading
/// flat records here takes well under half of what `JSONDecoder` takes.
enum FlatRecordParser {
    /// The object, or nil when it is not of the flat shape or not valid JSON.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var reader = Reader(bytes: bytes, isValidUTF8: false)
        return reader.object()
    }

    /// The same, for text a `String` holds: its bytes are valid UTF-8 already, so the strings
    /// read from it are not checked again.
    static func parse(_ text: String) -> JSONValue? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes, isValidUTF8: true)
            return reader.object()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        /// Whether `bytes` are known to be valid UTF-8: then so is every string read from them
        /// (cut at quotes, which are ASCII, with escapes decoded to scalars).
        let isValidUTF8: Bool
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>, isValidUTF8: Bool) {
            self.bytes = bytes
            self.isValidUTF8 = isValidUTF8
        }

        mutating func object() -> JSONValue? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [(String, JSONValue)] = []
            if take(UInt8(ascii: "}")) { return atEnd() ? .object(members) : nil }
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")), let value = value() else { return nil }
                members.append((key, value))
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")), atEnd() else { return nil }
            return .object(members)
        }

        private mutating func value() -> JSONValue? {
            skipWhiteSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "n"):
                guard literal("null") else { return nil }
                return .null
            case UInt8(ascii: "["):
                index += 1
                var strings: [JSONValue] = []
                if take(UInt8(ascii: "]")) { return .array(strings) }
                repeat {
                    guard let element = string() else { return nil }
                    strings.append(.string(element))
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "]")) ? .array(strings) : nil
            default:
                return nil
            }
        }

        /// A JSON string: runs of plain bytes are copied whole; escapes are decoded.
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var decoded: [UInt8] = []
            var runStart = index
            while index < bytes.count {
                // Plain bytes eight at a time, while none of the eight ends the run (a quote, a
                // backslash or a control character: what JSON escapes).
                while index + 8 <= bytes.count,
                    !JSONValue.anyNeedsEscape(
                        UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
                {
                    index += 8
                }
                guard index < bytes.count else { break }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    if decoded.isEmpty {
                        return text(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    }
                    decoded += bytes[runStart..<index]
                    return decoded.withUnsafeBufferPointer(text)
                }
                if byte < 0x20 { return nil }
                if byte == UInt8(ascii: "\\") {
                    decoded += bytes[runStart..<index]
                    guard escape(into: &decoded) else { return nil }
                    runStart = index
                    continue
                }
                index += 1
            }
            return nil
        }

        /// A string's bytes as text, checked unless `bytes` are known to be valid.
        private func text(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
            isValidUTF8 ? String(decoding: utf8, as: UTF8.self) : String(validating: utf8, as: UTF8.self)
        }

        /// Decodes the escape at `index` (its backslash) into UTF-8.
        private mutating func escape(into decoded: inout [UInt8]) -> Bool {
            guard index + 1 < bytes.count else { return false }
            let letter = bytes[index + 1]
            index += 2
            switch letter {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(letter)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                guard var code = hex4() else { return false }
                if (0xD800...0xDBFF).contains(code) {
                    // A high surrogate must be followed by an escaped low one.
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { return false }
                    index += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return false }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    return false
                }
                guard let scalar = Unicode.Scalar(code) else { return false }
                UTF8.encode(scalar) { decoded.append($0) }
            default:
                return false
            }
            return true
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for byte in bytes[index..<(index + 4)] {
                guard let digit = HexDigit.value(of: byte) else { return nil }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// Skips white space, then consumes `byte` if it comes next.
        private mutating func take(_ byte: UInt8) -> Bool {
            skipWhiteSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func atEnd() -> Bool {
            skipWhiteSpace()
            return index == bytes.count
        }

        private mutating func skipWhiteSpace() {
            while index < bytes.count {
                let byte = bytes[index]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
                index += 1
            }
        }
    }
}
