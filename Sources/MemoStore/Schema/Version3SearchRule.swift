/// The search text rule of version 3's backfill, frozen: runs of CJK characters become
/// overlapping pairs (`SearchText` tells why). `SearchText` delegates to it while the live
/// rule is the same; a change of the live rule is written in `SearchText`, never here, with a
/// migration that re-indexes.
enum Version3SearchRule {
    /// The indexed form of a memo's text.
    static func indexed(_ content: String) -> String {
        transform(content, finalUnigram: true)
    }

    /// `text` with its CJK runs cut into pairs, ending each run with its last character
    /// alone if `finalUnigram` (a search word is cut without it). A later rule may spell some
    /// other characters as words of their own (`word`, never CJK): each is then written
    /// between spaces, as if the text had been so before.
    ///
    /// Read and written as UTF-8 bytes, a character decoded only where a byte says it may be
    /// CJK or a word.
    static func transform(_ text: String, finalUnigram: Bool, word: ((Unicode.Scalar) -> String?)? = nil) -> String {
        // Every CJK character takes three or four UTF-8 bytes starting at E1 or above; text
        // without such bytes (English, most European languages) is indexed as it is.
        guard text.utf8.contains(where: { $0 >= 0xE1 || word != nil && $0 >= 0x80 }) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count * 2)
        var run: [Unicode.Scalar] = []
        func append(_ scalar: Unicode.Scalar) {
            UTF8.encode(scalar) { result.append($0) }
        }
        func flushRun() {
            guard !run.isEmpty else { return }
            result.append(UInt8(ascii: " "))
            if run.count == 1 {
                append(run[0])
            } else {
                for index in 0..<(run.count - 1) {
                    if index > 0 { result.append(UInt8(ascii: " ")) }
                    append(run[index])
                    append(run[index + 1])
                }
                if finalUnigram {
                    result.append(UInt8(ascii: " "))
                    append(run[run.count - 1])
                }
            }
            result.append(UInt8(ascii: " "))
            run.removeAll(keepingCapacity: true)
        }
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte < 0x80 {
                flushRun()
                result.append(byte)
                index = utf8.index(after: index)
                continue
            }
            let scalar = text.unicodeScalars[index]
            let next = text.unicodeScalars.index(after: index)
            if isCJK(scalar) {
                run.append(scalar)
            } else {
                flushRun()
                if let word = word?(scalar) {
                    result.append(UInt8(ascii: " "))
                    result.append(contentsOf: word.utf8)
                    result.append(UInt8(ascii: " "))
                } else {
                    result.append(contentsOf: utf8[index..<next])
                }
            }
            index = next
        }
        flushRun()
        return String(decoding: result, as: UTF8.self)
    }

    /// Han ideographs, hiragana, katakana (full and half width) and Hangul.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F,   // kana
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F,   // Han
             0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF:   // Hangul
            true
        default:
            false
        }
    }
}
