@_spi(_Unicode) import Swift

extension Migration {
    /// The search text rules the backfills of versions 3, 8 and 11 filled the index by.
    enum SearchRule {
        /// Runs of CJK characters cut into overlapping pairs, the text otherwise as written.
        case version3
        /// Version 3's pairs over text folded as a search compared it then, emoji as words.
        case version8
        /// Version 8's, with typographic quotes and `ẞ` as typed on a keyboard, skin tones
        /// kept, and emoji words spelled as no query can.
        case version11
    }

    /// Puts every memo in the search index, which must be empty, by `rule`, frozen here as
    /// it was when its migration shipped: the live rule (`SearchText`) changes with a
    /// migration that fills the index again, never by changing what an old one wrote.
    static func indexEveryMemo(in database: Database, bySearchRuleOf rule: SearchRule) throws {
        let frozen = FrozenSearchRule(rule)
        try indexEveryMemo(in: database, by: frozen.indexed)
    }
}

/// A frozen search text rule, as data where the rule was code: what folding made of each
/// character it changed, which characters were white space, which were emoji and which CJK,
/// worked out once from the code of the day with the Unicode tables of Swift 6.3, and never
/// again (what NFC composes is the standard library's, which Unicode keeps stable). Only
/// `Migration.indexEveryMemo(in:bySearchRuleOf:)` reaches it.
private struct FrozenSearchRule {
    /// What folding makes of each character it changes (`""`: drops it), by its scalar;
    /// empty for a rule that does not fold.
    let folds: [UInt32: String]
    let foldsText: Bool
    /// The word an emoji is indexed as, before its code point in hexadecimal; nil for a rule
    /// that indexes emoji as they are.
    let emojiWord: String?

    init(_ rule: Migration.SearchRule) {
        switch rule {
        case .version3:
            (folds, foldsText, emojiWord) = ([:], false, nil)
        case .version8:
            (folds, foldsText, emojiWord) = (Self.parse(Self.version8Folds), true, "emoji")
        case .version11:
            let folds = Self.parse(Self.version8Folds).merging(Self.parse(Self.version11Changes)) { _, new in new }
            (self.folds, foldsText, emojiWord) = (folds, true, "ｅｍｏｊｉ")
        }
    }

    func indexed(_ content: String) -> String {
        paired(foldsText ? folded(content) : content)
    }

    /// The text lower case by `folds`, each run of white space one space, in NFC. A text of
    /// ASCII alone takes only space, tab, and line and page breaks as white space.
    private func folded(_ text: String) -> String {
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        var result = String.UnicodeScalarView(), lastWasSpace = false
        for scalar in text.unicodeScalars {
            let isSpace =
                isASCII
                ? scalar == " " || (0x09...0x0D).contains(scalar.value)
                : scalar.value <= 0x20 || scalar.value == 0x7F || Self.spaces.contains { $0.contains(scalar.value) }
            if isSpace && lastWasSpace { continue }
            lastWasSpace = isSpace
            if isSpace {
                result.append(" ")
            } else if let folded = folds[scalar.value] {
                result.append(contentsOf: folded.unicodeScalars)
            } else {
                result.append(("A"..."Z").contains(scalar) ? Unicode.Scalar(UInt8(scalar.value) + 0x20) : scalar)
            }
        }
        let folded = String(result)
        return isASCII ? folded : String(decoding: folded._nfcCodeUnits, as: UTF8.self)
    }

    /// The text with each run of CJK characters its overlapping pairs and its last character
    /// alone, each emoji a word (`emojiWord`), each between spaces.
    private func paired(_ text: String) -> String {
        var result = String.UnicodeScalarView(), run: [Unicode.Scalar] = []
        func endRun() {
            guard let last = run.last else { return }
            let words = zip(run, run.dropFirst()).map { [$0, $1] } + [[last]]
            let spelled = words.map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
            result.append(contentsOf: " \(spelled) ".unicodeScalars)
            run = []
        }
        for scalar in text.unicodeScalars {
            if Self.cjk.contains(where: { $0.contains(scalar.value) }) {
                run.append(scalar)
                continue
            }
            endRun()
            if let emojiWord, Self.emoji.contains(where: { $0.contains(scalar.value) }) {
                result.append(contentsOf: " \(emojiWord)\(String(scalar.value, radix: 16)) ".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        endRun()
        return String(result)
    }

    /// Han ideographs, kana (full and half width) and Hangul.
    private static let cjk: [ClosedRange<UInt32>] = [
        0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FA1F, 0x1100...0x11FF,
        0x3130...0x318F, 0xAC00...0xD7AF
    ]

    /// The white space and control characters above ASCII.
    private static let spaces: [ClosedRange<UInt32>] = [
        0x80...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
        0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000
    ]

    /// The emoji: pictographic symbols and the skin-tone modifiers.
    private static let emoji: [ClosedRange<UInt32>] = parseRanges(
        """
        A9 AE 2122 2195-2199 21A9-21AA 231A-231B 2328 23CF 23E9-23F3 23F8-23FA 24C2 25AA-25AB 25B6 25C0 2600-2604
        260E 2611 2614-2615 2618 261D 2620 2622-2623 2626 262A 262E-262F 2638-263A 2640 2642 2648-2653 265F-2660 2663
        2665-2666 2668 267B 267E-267F 2692-2697 2699 269B-269C 26A0-26A1 26A7 26AA-26AB 26B0-26B1 26BD-26BE 26C4-26C5
        26C8 26CE-26CF 26D1 26D3-26D4 26E9-26EA 26F0-26F5 26F7-26FA 26FD 2702 2705 2708-270D 270F 2712 2714 2716 271D
        2721 2728 2733-2734 2744 2747 274C 274E 2753-2755 2757 2763-2764 2795-2797 27A1 27B0 27BF 2B05-2B07 2B1B-2B1C
        2B50 2B55 3297 3299 1F004 1F0CF 1F170-1F171 1F17E-1F17F 1F18E 1F191-1F19A 1F1E6-1F1FF 1F201-1F202 1F21A 1F22F
        1F232-1F23A 1F250-1F251 1F300-1F321 1F324-1F393 1F396-1F397 1F399-1F39B 1F39E-1F3F0 1F3F3-1F3F5 1F3F7-1F4FD
        1F4FF-1F53D 1F549-1F54E 1F550-1F567 1F56F-1F570 1F573-1F57A 1F587 1F58A-1F58D 1F590 1F595-1F596 1F5A4-1F5A5
        1F5A8 1F5B1-1F5B2 1F5BC 1F5C2-1F5C4 1F5D1-1F5D3 1F5DC-1F5DE 1F5E1 1F5E3 1F5E8 1F5EF 1F5F3 1F5FA-1F64F
        1F680-1F6C5 1F6CB-1F6D2 1F6D5-1F6D8 1F6DC-1F6E5 1F6E9 1F6EB-1F6EC 1F6F0 1F6F3-1F6FC 1F7E0-1F7EB 1F7F0
        1F90C-1F93A 1F93C-1F945 1F947-1F9FF 1FA70-1FA7C 1FA80-1FA8A 1FA8E-1FAC6 1FAC8 1FACD-1FADC 1FADF-1FAEA
        1FAEF-1FAF8
        """)

    /// Version 8's folding (case folded fully, compatibility forms as plain letters, accents
    /// off Latin, Greek and Cyrillic letters, joiners, variation selectors and skin tones
    /// dropped), as `FROM[-TO]=TEXT` (each of those scalars becomes TEXT) or
    /// `FROM-TO>±N[/2]` (each, or every second one, becomes the scalar N after it).
    private static let version8Folds = """
        AD= B2-B3>-128 B5=μ B9=1 C0-C5=a C6=æ C7=c C8-CB=e CC-CF=i D0=ð D1-D2>-99 D3-D6=o D8=o D9-DC=u DD=y DE=þ
        DF=ss E0-E5=a E7=c E8-EB=e EC-EF=i F1-F2>-131 F3-F6=o F8=o F9-FC=u FD=y FF=y 100-105=a 106-10D=c 10E-111=d
        112-11B=e 11C-123=g 124-127=h 128-131=i 132=ĳ 134-135=j 136-137=k 139-142=l 143-148=n 149=\u{2BC}n 14A=ŋ
        14C-151=o 152=œ 154-159=r 15A-161=s 162-167=t 168-173=u 174-175=w 176-178=y 179-17E=z 17F=s 180-183=b 184=ƅ
        186=ɔ 187-188=c 189=ɖ 18A-18C=d 18E=ǝ 18F=ə 190=ɛ 191-192=f 193=g 194=ɣ 196=ɩ 197=i 198-199=k 19A=l 19C=ɯ
        19D-19E=n 19F-1A1=o 1A2=ƣ 1A4-1A5=p 1A6=ʀ 1A7=ƨ 1A9=ʃ 1AB-1AE=t 1AF-1B0=u 1B1=ʊ 1B2=v 1B3-1B4=y 1B5-1B6=z
        1B7=ʒ 1B8=ƹ 1BC=ƽ 1C4-1C6=dz 1C7-1C9=lj 1CA-1CC=nj 1CD-1CE=a 1CF-1D0=i 1D1-1D2=o 1D3-1DC=u 1DE-1E1=a 1E2=ǣ
        1E4-1E7=g 1E8-1E9=k 1EA-1ED=o 1EE=ǯ 1F0=j 1F1-1F3=dz 1F4-1F5=g 1F6=ƕ 1F7=ƿ 1F8-1F9=n 1FA-1FB=a 1FC=ǽ
        1FE-1FF=o 200-203=a 204-207=e 208-20B=i 20C-20F=o 210-213=r 214-217=u 218-219=s 21A-21B=t 21C=ȝ 21E-21F=h
        220=n 221=d 222=ȣ 224-225=z 226-227=a 228-229=e 22A-231=o 232-233=y 234=l 235=n 236=t 23A=a 23B-23C=c 23D=l
        23E=t 23F=s 240=z 241=ɂ 243=b 244=ʉ 245=ʌ 246-247=e 248-249=j 24A=ɋ 24B-24C>-474 24D=r 24E-24F=y 300-36F=
        370-372>+1/2 376=ͷ 37F=ϳ 386=α 388=ε 389=η 38A=ι 38C=ο 38E=υ 38F=ω 390=ι 391-3A1>+32 3A3-3A9>+32 3AA=ι 3AB=υ
        3AC=α 3AD=ε 3AE=η 3AF=ι 3B0=υ 3C2=σ 3CA=ι 3CB=υ 3CC=ο 3CD=υ 3CE=ω 3CF=ϗ 3D0=β 3D1=θ 3D5=φ 3D6=π 3D8-3EE>+1/2
        3F0=κ 3F1=ρ 3F4=θ 3F5=ε 3F7=ϸ 3F9=ϲ 3FA=ϻ 3FD-3FF>-130 400-401=е 402=ђ 403=г 404-406>+80 407=і 408-40B>+80
        40C=к 40D=и 40E=у 40F=џ 410-418>+32 419=и 41A-42F>+32 439=и 450-451=е 453=г 457=і 45C=к 45D=и 45E=у
        460-480>+1/2 48A-4BE>+1/2 4C0=ӏ 4C1-4C2=ж 4C3-4CD>+1/2 4D0-4D3=а 4D4=ӕ 4D6-4D7=е 4D8-4DA>+1/2 4DC-4DD=ж
        4DE-4DF=з 4E0=ӡ 4E2-4E5=и 4E6-4E7=о 4E8-4EA>+1/2 4EC-4ED=э 4EE-4F3=у 4F4-4F5=ч 4F6=ӷ 4F8-4F9=ы 4FA-52E>+1/2
        531-556>+48 587=եւ 10A0-10C5>+7264 10C7=ⴧ 10CD=ⴭ 13A0-13EF>+38864 13F0-13F5>+8 1C80=в 1C81=д 1C82=о
        1C83-1C84>-6210 1C85=т 1C86=ъ 1C87=ѣ 1C88=ꙋ 1C89=\u{1C8A} 1C90-1CBA>-3008 1CBD-1CBF>-3008 1E00-1E01=a
        1E02-1E07=b 1E08-1E09=c 1E0A-1E13=d 1E14-1E1D=e 1E1E-1E1F=f 1E20-1E21=g 1E22-1E2B=h 1E2C-1E2F=i 1E30-1E35=k
        1E36-1E3D=l 1E3E-1E43=m 1E44-1E4B=n 1E4C-1E53=o 1E54-1E57=p 1E58-1E5F=r 1E60-1E69=s 1E6A-1E71=t 1E72-1E7B=u
        1E7C-1E7F=v 1E80-1E89=w 1E8A-1E8D=x 1E8E-1E8F=y 1E90-1E95=z 1E96=h 1E97=t 1E98=w 1E99=y 1E9A=a 1E9B=ṡ 1E9E=ß
        1EA0-1EB7=a 1EB8-1EC7=e 1EC8-1ECB=i 1ECC-1EE3=o 1EE4-1EF1=u 1EF2-1EF9=y 1EFA-1EFC>+1/2 1EFE-1EFF=y
        1F00-1F0F=α 1F10-1F15=ε 1F18-1F1D=ε 1F20-1F2F=η 1F30-1F3F=ι 1F40-1F45=ο 1F48-1F4D=ο 1F50-1F57=υ 1F59=υ 1F5B=υ
        1F5D=υ 1F5F=υ 1F60-1F6F=ω 1F70=α 1F72-1F76>-7101/2 1F78=ο 1F7A=υ 1F7C=ω 1F80-1F81=α 1F82=ἂι 1F83=ἃι 1F84=ἄι
        1F85=ἅι 1F86=ἆι 1F87=ἇι 1F88-1F89=α 1F8A=ἂι 1F8B=ἃι 1F8C=ἄι 1F8D=ἅι 1F8E=ἆι 1F8F=ἇι 1F90-1F91=η 1F92=ἢι
        1F93=ἣι 1F94=ἤι 1F95=ἥι 1F96=ἦι 1F97=ἧι 1F98-1F99=η 1F9A=ἢι 1F9B=ἣι 1F9C=ἤι 1F9D=ἥι 1F9E=ἦι 1F9F=ἧι
        1FA0-1FA1=ω 1FA2=ὢι 1FA3=ὣι 1FA4=ὤι 1FA5=ὥι 1FA6=ὦι 1FA7=ὧι 1FA8-1FA9=ω 1FAA=ὢι 1FAB=ὣι 1FAC=ὤι 1FAD=ὥι
        1FAE=ὦι 1FAF=ὧι 1FB0-1FB4=α 1FB6-1FBA=α 1FBB=ά 1FBC=α 1FC2-1FC4=η 1FC6-1FC7=η 1FC8=ε 1FC9=έ 1FCA=η 1FCB=ή
        1FCC=η 1FD0-1FD3=ι 1FD6-1FDA=ι 1FDB=ί 1FE0-1FE3=υ 1FE4-1FE5=ρ 1FE6-1FEA=υ 1FEB=ύ 1FEC=ρ 1FF2-1FF4=ω
        1FF6-1FF7=ω 1FF8=ο 1FF9=ό 1FFA=ω 1FFB=ώ 1FFC=ω 200B= 200D= 2060= 2070=0 2074-2079>-8256 2080-2089>-8272
        2126=ω 212A=k 212B=å 2132=ⅎ 2160=i 2161=ii 2162=iii 2163=iv 2164=v 2165=vi 2166=vii 2167=viii 2168=ix 2169=x
        216A=xi 216B=xii 216C=l 216D-216E>-8458 216F=m 2170=i 2171=ii 2172=iii 2173=iv 2174=v 2175=vi 2176=vii
        2177=viii 2178=ix 2179=x 217A=xi 217B=xii 217C=l 217D-217E>-8474 217F=m 2183=ↄ 2460-2468>-9263 2469=10
        246A=11 246B=12 246C=13 246D=14 246E=15 246F=16 2470=17 2471=18 2472=19 2473=20 24B6-24CF>+26 2C00-2C2F>+48
        2C60=ⱡ 2C62=ɫ 2C63=ᵽ 2C64=ɽ 2C67-2C6B>+1/2 2C6D=ɑ 2C6E=ɱ 2C6F=ɐ 2C70=ɒ 2C72=ⱳ 2C75=ⱶ 2C7E-2C7F>-10815
        2C80-2CE2>+1/2 2CEB-2CED>+1/2 2CF2=ⳳ A640-A66C>+1/2 A680-A69A>+1/2 A722-A72E>+1/2 A732-A76E>+1/2
        A779-A77B>+1/2 A77D=ᵹ A77E-A786>+1/2 A78B=ꞌ A78D=ɥ A790-A792>+1/2 A796-A7A8>+1/2 A7AA=ɦ A7AB=ɜ A7AC=ɡ A7AD=ɬ
        A7AE=ɪ A7B0=ʞ A7B1=ʇ A7B2=ʝ A7B3=ꭓ A7B4-A7C2>+1/2 A7C4=ꞔ A7C5=ʂ A7C6=ᶎ A7C7-A7C9>+1/2 A7CB=ɤ A7CC-A7DA>+1/2
        A7DC=ƛ A7F5=ꟶ FB00=ff FB01=fi FB02=fl FB03=ffi FB04=ffl FB05-FB06=st FB13=մն FB14=մե FB15=մի FB16=վն FB17=մխ
        FE0E-FE0F= FEFF= FF01-FF20>-65248 FF21-FF3A>-65216 FF3B-FF5E>-65248 FF65=\u{30FB} FF66=ヲ FF67=ァ FF68=ィ FF69=ゥ
        FF6A=ェ FF6B=ォ FF6C=ャ FF6D=ュ FF6E=ョ FF6F=ッ FF70=\u{30FC} FF71=ア FF72=イ FF73=ウ FF74=エ FF75-FF76>-52939 FF77=キ
        FF78=ク FF79=ケ FF7A=コ FF7B=サ FF7C=シ FF7D=ス FF7E=セ FF7F=ソ FF80=タ FF81=チ FF82=ツ FF83=テ FF84=ト FF85-FF8A>-52923
        FF8B=ヒ FF8C=フ FF8D=ヘ FF8E=ホ FF8F-FF93>-52913 FF94=ヤ FF95=ユ FF96-FF9B>-52910 FF9C=ワ FF9D=ン FF9E-FF9F>-52997
        10400-10427>+40 104B0-104D3>+40 10570-1057A>+39 1057C-1058A>+39 1058C-10592>+39 10594-10595>+39
        10C80-10CB2>+64 10D50-10D65>+32 118A0-118BF>+32 16E40-16E5F>+32 16EA0-16EB8>+27 1E900-1E921>+34 1F3FB-1F3FF=
        """

    /// What version 11 folds otherwise: typographic quotes and `ẞ`, and skin tones kept.
    private static let version11Changes = """
        2BC=' 2018-201B=' 201C-201F=" 1E9E=ss 1F3FB-1F3FF>+0
        """

    private static func parse(_ table: String) -> [UInt32: String] {
        var folds: [UInt32: String] = [:]
        for entry in table.unicodeScalars.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let cut = entry.firstIndex { $0 == "=" || $0 == ">" }!
            let range = parseRanges(String(entry[..<cut]))[0]
            let rest = String(entry[entry.index(after: cut)...])
            if entry[cut] == "=" {
                for scalar in range { folds[scalar] = rest }
                continue
            }
            let parts = rest.split(separator: "/")
            let shift = Int64(parts[0])!, stride = UInt32(parts.count > 1 ? parts[1] : "1")!
            for scalar in Swift.stride(from: range.lowerBound, through: range.upperBound, by: Int(stride)) {
                folds[scalar] = String(Unicode.Scalar(UInt32(Int64(scalar) + shift))!)
            }
        }
        return folds
    }

    /// `FROM[-TO]` ranges of hexadecimal scalars, apart by white space.
    private static func parseRanges(_ text: String) -> [ClosedRange<UInt32>] {
        text.split(whereSeparator: \.isWhitespace).map { range in
            let ends = range.split(separator: "-").map { UInt32($0, radix: 16)! }
            return ends[0]...ends[ends.count - 1]
        }
    }
}
