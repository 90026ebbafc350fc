/// Runs of CJK characters as overlapping pairs, the index's words for text written without
/// spaces (`SearchText` tells why).
enum CJKPairs {
    /// `text` with its CJK runs cut into pairs, ending each run with its last character
    /// alone if `finalUnigram` (a search word is cut without it). A later rule may spell some
    /// other characters as words of their own (`word`, never CJK): each is then written
    /// between spaces, as if the text had been so before.
    ///
    /// Read and written as UTF-8 bytes (`text` is valid UTF-8, and so is the result), a
    /// character decoded only where a byte says it may be CJK or a word, and a pair copied
    /// as the bytes of its two characters.
    static func transform(_ text: [UInt8], finalUnigram: Bool, word: ((Unicode.Scalar) -> String?)? = nil) -> [UInt8] {
        // Every CJK character takes three or four UTF-8 bytes starting at E1 or above; text
        // without such bytes (English, most European languages) is indexed as it is.
        guard text.contains(where: { $0 >= 0xE1 || word != nil && $0 >= 0x80 }) else { return text }
        return text.withUnsafeBufferPointer { bytes in
            var result: [UInt8] = []
            // A pair repeats each character, and an emoji's word is longer than its bytes.
            result.reserveCapacity(bytes.count * 3 + 32)
            // The run of CJK characters being read: where each starts. Characters of a run
            // stand side by side, so a pair is the bytes from one start to the next but one.
            var run: [Int] = [], runEnd = 0
            /// Copies bytes of `text` whole (a generic slice is appended a byte at a time).
            func copy(_ range: Range<Int>) {
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
            }
            func flushRun() {
                guard !run.isEmpty else { return }
                result.append(UInt8(ascii: " "))
                if run.count == 1 {
                    copy(run[0]..<runEnd)
                } else {
                    for index in 0..<(run.count - 1) {
                        if index > 0 { result.append(UInt8(ascii: " ")) }
                        copy(run[index]..<(index + 2 < run.count ? run[index + 2] : runEnd))
                    }
                    if finalUnigram {
                        result.append(UInt8(ascii: " "))
                        copy(run[run.count - 1]..<runEnd)
                    }
                }
                result.append(UInt8(ascii: " "))
                run.removeAll(keepingCapacity: true)
            }
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x80 {
                    flushRun()
                    result.append(byte)
                    index += 1
                    continue
                }
                let (scalar, next) = UTF8Bytes.scalar(in: bytes, at: index)
                if isCJK(scalar) {
                    run.append(index)
                    runEnd = next
                } else {
                    flushRun()
                    if let word = word?(scalar) {
                        result.append(UInt8(ascii: " "))
                        result += word.utf8
                        result.append(UInt8(ascii: " "))
                    } else {
                        copy(index..<next)
                    }
                }
                index = next
            }
            flushRun()
            return result
        }
    }

    /// Han ideographs, hiragana, katakana (full and half width) and Hangul.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F, // kana
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F, // Han
            0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: // Hangul
            true
        default:
            false
        }
    }
}
