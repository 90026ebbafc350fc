/// A memo's stable short name, `memo:8e75e0e6`: the first hexadecimal digits of its uuid
/// (dashes left out), git-style. Ids are local to a store; a uuid is the same in every
/// store a memo reaches, and so is every prefix of it, so a handle written on one machine
/// names the same memo on every other (docs/REFERENCE.md, Links). A store names each memo
/// by the shortest prefix of at least `minimumLength` digits that no other memo there
/// shares.
package struct MemoHandle: Hashable, Sendable, CustomStringConvertible {
    /// Lower-case hexadecimal digits, `minimumLength` to 32 of them (32: the whole uuid,
    /// which two memos whose uuids differ only in the last digit need).
    package let digits: String

    /// Four billion values: two memos of a store share a prefix this long once in a
    /// hundred thousand stores of a thousand memos, and then both get a longer one.
    package static let minimumLength = 8

    /// The handle of `digits`, 8 to 32 hexadecimal digits in either case; nil otherwise.
    package init?(digits: some StringProtocol) {
        guard (Self.minimumLength...32).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isHexDigit })
        else { return nil }
        self.digits = digits.lowercased()
    }

    /// The first `length` digits of `uuid` (a lower-case 8-4-4-4-12 uuid). Read as bytes:
    /// `String(_:)` of a lazy sequence of characters is generic code of the standard library
    /// that looks its sequence types up at run time on its first call (~0.4 M instructions of
    /// a one-shot `show`).
    package init(prefixOf uuid: String, length: Int) {
        let count = min(max(length, Self.minimumLength), 32)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        for byte in uuid.utf8 where byte != UInt8(ascii: "-") {
            guard bytes.count < count else { break }
            bytes.append(byte)
        }
        digits = String(decoding: bytes, as: UTF8.self)
    }

    /// How it is written: `memo:` and its digits.
    package var description: String { "memo:" + digits }

    /// Its digits as the start of a uuid in the 8-4-4-4-12 form the store keeps: the
    /// uuids it names are those from `uuidPrefix` up to, not including, `uuidPrefixEnd`.
    package var uuidPrefix: String { Self.dashed(digits) }

    /// Up to 32 hexadecimal digits with a uuid's dashes put in: after the 8th, 12th, 16th
    /// and 20th.
    package static func dashed(_ digits: some StringProtocol) -> String {
        var dashed = ""
        for (index, digit) in digits.lowercased().enumerated() {
            if [8, 12, 16, 20].contains(index) { dashed.append("-") }
            dashed.append(digit)
        }
        return dashed
    }

    /// The first text after every uuid that starts with `uuidPrefix`: its last character
    /// moved one on (`9` to `:`, `f` to `g`, both outside the digits), for a range scan of
    /// the store's uuid index.
    package var uuidPrefixEnd: String { Self.end(ofUUIDPrefix: uuidPrefix) }

    /// The first text after every uuid that starts with `prefix` (a dashed start of a uuid,
    /// not empty): its last character moved one on.
    package static func end(ofUUIDPrefix prefix: String) -> String {
        var start = prefix
        guard let last = start.popLast()?.asciiValue else { return prefix }
        return start + String(UnicodeScalar(last + 1))
    }

    /// Whether `uuid` (lower case, 8-4-4-4-12) starts with this handle.
    package func names(_ uuid: String) -> Bool { uuid.hasPrefix(uuidPrefix) }

    /// How many leading hexadecimal digits two uuids share.
    package static func sharedDigits(_ first: String, _ second: String) -> Int {
        zip(first.lazy.filter { $0 != "-" }, second.lazy.filter { $0 != "-" }).prefix { $0 == $1 }.count
    }
}
