import Foundation
import Synchronization

/// The canonical form of text: what `canonical:(x)` derivations store, what the `[cd]`
/// predicate modifier compares, and what search matches against.
///
/// ``fold(_:)`` turns text into a form in which letters that a reader considers "the same"
/// are the same bytes, so that "lodz" finds "Łódź" and "strasse" finds "Straße". For each
/// Unicode scalar, in order:
///
/// 1. **White space** (any scalar with the Unicode `White_Space` property, such as tabs,
///    line breaks, no-break and ideographic spaces) becomes a space; runs of spaces collapse
///    to one ASCII space and the result is trimmed at both ends.
/// 2. **Invisible format characters** (`Default_Ignorable_Code_Point`: soft hyphen, zero
///    width space and joiners, variation selectors, byte order mark) are removed, so that a
///    hidden soft hyphen never splits a word.
/// 3. **Latin letters that do not decompose** are replaced by their base letters, see
///    `latinBaseLetters` (`ł` → `l`, `ø` → `o`, `æ` → `ae`, `ß` → `ss`, `þ` → `th`, …).
/// 4. **Compatibility decomposition** (NFKD): full-width forms, ligatures, superscripts and
///    other compatibility characters become their plain letters (`Ａ` → `A`, `ﬁ` → `fi`,
///    `①` → `1`, `™` → `TM`, `…` → `...`), and accented letters split into base letter plus
///    combining marks. A spacing accent that would decompose to nothing but a space (`´`,
///    `¨`, `˜`) is kept, like other punctuation (less any diacritic in its canonical
///    decomposition: `΅` → `¨`).
/// 5. **Diacritics removed**: combining marks of the blocks that hold diacritics (Combining
///    Diacritical Marks and its Extended and Supplement blocks, marks for symbols, half
///    marks, Cyrillic titlo and palatalization marks, Hebrew points and Arabic harakat).
///    Marks that are part of a script's letters (Indic vowel signs, the Japanese voicing
///    marks) are kept, so `が` stays `が`, not `か`.
/// 6. **Case folded**: lower-case mapping plus the full case folds it lacks (`ß` → `ss`,
///    final `ς` → `σ`); `İ` becomes `i` because its dot is a combining mark that step 5
///    removes.
/// 7. Letters of a script that still carry marks are recomposed (NFC), so Hangul and kana
///    stay as they were typed and text typed decomposed (NFD) folds to the same bytes as
///    text typed composed.
///
/// Consequences worth knowing: Greek loses its accents and breathings (`Ἀθῆναι` →
/// `αθηναι`); Cyrillic `ё` → `е` and `й` → `и`, because both decompose to a base letter
/// plus a diacritic. That is acceptable for search because the same function folds the
/// query. Chinese and Japanese ideographs, kana and Hangul are unchanged. Punctuation is
/// kept as it is: folding never removes a character a user could type as a search term.
///
/// Performance: text that is all ASCII takes a byte loop with no Foundation calls. Other
/// text walks its scalars through per-block tables (256 scalars each) that are computed on
/// first use from the rules above and cached for the life of the process.
public enum CanonicalText {
    /// The version of the folding rules. Raise it whenever ``fold(_:)`` changes its output
    /// for any text: stores rebuild their search indexes when it differs from the one they
    /// were built with.
    package static let version = 1

    /// Returns the canonical form of `text`, as described in ``CanonicalText``.
    ///
    /// `fold` is idempotent: `fold(fold(x)) == fold(x)`.
    public static func fold(_ text: String) -> String {
        var text = text
        return text.withUTF8 { fold(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// Returns the canonical form of the UTF-8 text in `utf8`, as ``fold(_:)`` does.
    ///
    /// Meant for an SQL function that receives raw text. Ill-formed UTF-8 sequences become
    /// U+FFFD REPLACEMENT CHARACTER rather than failing.
    public static func fold(utf8: UnsafeRawBufferPointer) -> String {
        if utf8.isEmpty { return "" }
        if isASCII(utf8) { return foldASCII(utf8) }
        return foldUnicode(utf8)
    }

    /// The Latin letters that have no Unicode decomposition, mapped to the letters a reader
    /// who does not know them would type. Keys are single scalars; both cases are listed.
    ///
    /// | Letter      | Folds to | Used in                                  |
    /// |-------------|----------|------------------------------------------|
    /// | `Ł ł`       | `l`      | Polish, Sorbian                          |
    /// | `Ŀ ŀ`       | `l`      | Catalan (middle dot l)                   |
    /// | `Ø ø`       | `o`      | Danish, Norwegian, Faroese               |
    /// | `Æ æ`       | `ae`     | Danish, Norwegian, Icelandic, Old English|
    /// | `Œ œ`       | `oe`     | French                                   |
    /// | `ß ẞ`       | `ss`     | German (full case folding)               |
    /// | `Þ þ`       | `th`     | Icelandic                                |
    /// | `Ð ð`       | `d`      | Icelandic, Faroese, Old English          |
    /// | `Đ đ`       | `d`      | Croatian, Serbian, Vietnamese            |
    /// | `Ħ ħ`       | `h`      | Maltese                                  |
    /// | `ı`         | `i`      | Turkish, Azerbaijani (dotless i)         |
    /// | `Ŧ ŧ`       | `t`      | Northern Sami                            |
    /// | `Ƀ ƀ`       | `b`      | Old Saxon, phonetics                     |
    /// | `Ɨ ɨ`       | `i`      | phonetics, some African languages        |
    /// | `ĸ`         | `k`      | old Greenlandic (kra)                    |
    /// | `Ŋ ŋ`       | `n`      | Sami, some African languages (eng)       |
    /// | `Ǥ ǥ`       | `g`      | Skolt Sami                               |
    /// | `Ƶ ƶ`       | `z`      | Polish handwriting, Latvian variants     |
    /// | `Ȼ ȼ`, `Ɇ ɇ`, `Ɉ ɉ`, `Ɍ ɍ`, `Ɏ ɏ` | `c e j r y` | letters with stroke  |
    package static let latinBaseLetters: [Unicode.Scalar: String] = [
        "Ł": "l", "ł": "l", "Ŀ": "l", "ŀ": "l",
        "Ø": "o", "ø": "o",
        "Æ": "ae", "æ": "ae", "Œ": "oe", "œ": "oe",
        "ß": "ss", "ẞ": "ss",
        "Þ": "th", "þ": "th",
        "Ð": "d", "ð": "d", "Đ": "d", "đ": "d",
        "Ħ": "h", "ħ": "h",
        "ı": "i",
        "Ŧ": "t", "ŧ": "t",
        "Ƀ": "b", "ƀ": "b",
        "Ɨ": "i", "ɨ": "i",
        "ĸ": "k",
        "Ŋ": "n", "ŋ": "n",
        "Ǥ": "g", "ǥ": "g",
        "Ƶ": "z", "ƶ": "z",
        "Ȼ": "c", "ȼ": "c", "Ɇ": "e", "ɇ": "e", "Ɉ": "j", "ɉ": "j",
        "Ɍ": "r", "ɍ": "r", "Ɏ": "y", "ɏ": "y",
    ]

    // MARK: - ASCII fast path

    /// Whether every byte is below 0x80, checked eight bytes at a time.
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        var index = 0
        while index + 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if word & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// Whether an ASCII byte is white space: space, tab, line feed, vertical tab, form feed
    /// or carriage return.
    @inline(__always)
    static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte &- 0x09 < 5
    }

    /// Lower-cases an ASCII byte.
    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// Folds all-ASCII text: lower case, white space collapsed and trimmed.
    private static func foldASCII(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { output in
            var written = 0
            var pendingSpace = false
            for byte in bytes {
                if isASCIISpace(byte) {
                    pendingSpace = written > 0
                    continue
                }
                if pendingSpace {
                    output[written] = 0x20
                    written += 1
                    pendingSpace = false
                }
                output[written] = lowercased(byte)
                written += 1
            }
            return written
        }
    }

    // MARK: - Unicode path

    /// Folds text that contains non-ASCII scalars, through the per-block tables.
    ///
    /// The output goes to a stack buffer twice the input's size; the rare text that
    /// expands more (the ligature `ﷺ` becomes 33 bytes) is folded again into a buffer
    /// whose size a first pass bounds.
    private static func foldUnicode(_ bytes: UnsafeRawBufferPointer) -> String {
        let guess = bytes.count * 2 + 16
        if guess <= 2_048 {
            let folded = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: guess) {
                foldUnicode(bytes, into: $0)
            }
            if let folded { return folded }
        }
        let exact = foldedLengthBound(bytes)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: exact) {
            foldUnicode(bytes, into: $0) ?? ""
        }
    }

    /// Folds `bytes` into `output`, or returns nil if `output` is too small.
    private static func foldUnicode(
        _ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> String? {
        let capacity = output.count
        var written = 0
        var pendingSpace = false
        var needsComposition = false
        var blockIndex = -1
        var block = FoldBlock.empty
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                if isASCIISpace(byte) {
                    pendingSpace = written > 0
                    continue
                }
                guard written + 2 <= capacity else { return nil }
                if pendingSpace {
                    output[written] = 0x20
                    written += 1
                    pendingSpace = false
                }
                output[written] = lowercased(byte)
                written += 1
                continue
            }
            let (scalar, length) = decodeScalar(bytes, at: index)
            index += length
            let scalarBlock = Int(scalar >> 8)
            if scalarBlock != blockIndex {
                block = FoldBlockCache.shared.block(scalarBlock)
                blockIndex = scalarBlock
            }
            let slot = Int(scalar & 0xFF)
            if block.composes[slot] { needsComposition = true }
            var position = Int(block.offsets[slot])
            let end = Int(block.offsets[slot + 1])
            // Each folded byte may be preceded by one pending space.
            guard written + 2 * (end - position) <= capacity else { return nil }
            while position < end {
                let folded = block.bytes[position]
                position += 1
                if folded == 0x20 {
                    pendingSpace = written > 0
                    continue
                }
                if pendingSpace {
                    output[written] = 0x20
                    written += 1
                    pendingSpace = false
                }
                output[written] = folded
                written += 1
            }
        }
        let result = String(decoding: output[..<written], as: UTF8.self)
        return needsComposition ? result.precomposedStringWithCanonicalMapping : result
    }

    /// An upper bound of the folded length of `bytes`: every scalar's folded bytes, each
    /// preceded by a space.
    private static func foldedLengthBound(_ bytes: UnsafeRawBufferPointer) -> Int {
        var total = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] < 0x80 {
                total += 2
                index += 1
                continue
            }
            let (scalar, length) = decodeScalar(bytes, at: index)
            index += length
            let block = FoldBlockCache.shared.block(Int(scalar >> 8))
            let slot = Int(scalar & 0xFF)
            total += 2 * Int(block.offsets[slot + 1] - block.offsets[slot])
        }
        return total
    }

    /// Decodes the scalar whose first byte is at `index` (not ASCII). An ill-formed sequence
    /// decodes as U+FFFD with length 1, so decoding always advances.
    @inline(__always)
    private static func decodeScalar(
        _ bytes: UnsafeRawBufferPointer, at index: Int
    ) -> (scalar: UInt32, length: Int) {
        let invalid: (UInt32, Int) = (0xFFFD, 1)
        let count = bytes.count
        let lead = UInt32(bytes[index])
        func continuation(_ offset: Int) -> UInt32? {
            guard index + offset < count else { return nil }
            let byte = bytes[index + offset]
            return byte & 0xC0 == 0x80 ? UInt32(byte & 0x3F) : nil
        }
        switch lead {
        case 0xC2...0xDF:
            guard let c1 = continuation(1) else { return invalid }
            return ((lead & 0x1F) << 6 | c1, 2)
        case 0xE0...0xEF:
            guard let c1 = continuation(1), let c2 = continuation(2) else { return invalid }
            let scalar = (lead & 0x0F) << 12 | c1 << 6 | c2
            guard scalar >= 0x800, !(0xD800...0xDFFF).contains(scalar) else { return invalid }
            return (scalar, 3)
        case 0xF0...0xF4:
            guard let c1 = continuation(1), let c2 = continuation(2), let c3 = continuation(3)
            else { return invalid }
            let scalar = (lead & 0x07) << 18 | c1 << 12 | c2 << 6 | c3
            guard (0x10000...0x10FFFF).contains(scalar) else { return invalid }
            return (scalar, 4)
        default:
            return invalid
        }
    }

    // MARK: - Folding one scalar (table construction)

    /// The canonical form of one scalar, and whether it still needs composition with its
    /// neighbours (it holds a combining mark that is kept, or a conjoining Hangul jamo).
    package static func foldScalar(_ scalar: Unicode.Scalar) -> (text: String, composes: Bool) {
        let properties = scalar.properties
        if properties.isWhitespace { return (" ", false) }
        if properties.isDefaultIgnorableCodePoint { return ("", false) }
        if let base = latinBaseLetters[scalar] { return (base, false) }
        var folded = String.UnicodeScalarView()
        var keptLetter = false
        var sawSpace = false
        let decomposed = String(scalar).decomposedStringWithCompatibilityMapping
        for part in decomposed.unicodeScalars where !isDiacritic(part) {
            if part.properties.isWhitespace {
                folded.append(" ")
                sawSpace = true
                continue
            }
            for lower in caseFolded(part) where !isDiacritic(lower) {
                keptLetter = true
                if let base = latinBaseLetters[lower] {
                    folded.append(contentsOf: base.unicodeScalars)
                } else {
                    folded.append(lower)
                }
            }
        }
        if sawSpace && !keptLetter {
            // A spacing accent such as ´ or ¨: keep it, as other punctuation is kept, but
            // without the diacritics its canonical decomposition adds (΅ becomes ¨), so that
            // decomposed input folds the same.
            let canonical = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
            folded = String.UnicodeScalarView(canonical.filter { !isDiacritic($0) })
        }
        let composed = String(folded).precomposedStringWithCanonicalMapping
        let composes = composed.unicodeScalars.contains { part in
            part.properties.canonicalCombiningClass != .notReordered || isConjoiningJamo(part)
        }
        return (composed, composes)
    }

    /// The case fold of one scalar: its lower-case mapping, plus the full case folds that
    /// lower-casing lacks.
    private static func caseFolded(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        switch scalar {
        case "ß", "ẞ": return ["s", "s"]
        case "ς": return ["σ"]
        default: return Array(scalar.properties.lowercaseMapping.unicodeScalars)
        }
    }

    /// Whether `scalar` is a diacritic that folding removes: a non-spacing or enclosing mark
    /// in one of the blocks of diacritics (see ``CanonicalText`` step 5).
    package static func isDiacritic(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: break
        default: return false
        }
        switch scalar.value {
        case 0x0300...0x036F,  // Combining Diacritical Marks
            0x0483...0x0489,  // Cyrillic titlo, palatalization, enclosing marks
            0x0591...0x05C7,  // Hebrew points and cantillation
            0x0610...0x061A, 0x064B...0x065F, 0x0670, 0x06D6...0x06ED,  // Arabic marks
            0x1AB0...0x1AFF,  // Combining Diacritical Marks Extended
            0x1DC0...0x1DFF,  // Combining Diacritical Marks Supplement
            0x20D0...0x20FF,  // Combining Diacritical Marks for Symbols
            0xFE20...0xFE2F:  // Combining Half Marks
            return true
        default:
            return false
        }
    }

    /// Whether `scalar` is a conjoining Hangul jamo, which composes into syllables.
    private static func isConjoiningJamo(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF: return true
        default: return false
        }
    }
}

// MARK: - Per-block tables

/// The folded UTF-8 bytes of the 256 scalars of one block (scalar values `index << 8`
/// through `index << 8 | 0xFF`).
private final class FoldBlock: Sendable {
    /// Where each scalar's bytes start in ``bytes``; 257 entries.
    let offsets: [UInt16]
    /// The folded forms of all 256 scalars, back to back.
    let bytes: [UInt8]
    /// Whether each scalar's folded form needs canonical composition with its neighbours.
    let composes: [Bool]

    /// A block that is never looked up; a placeholder before the first lookup.
    static let empty = FoldBlock(offsets: [], bytes: [], composes: [])

    init(offsets: [UInt16], bytes: [UInt8], composes: [Bool]) {
        self.offsets = offsets
        self.bytes = bytes
        self.composes = composes
    }

    /// Computes the table of block `index` with ``CanonicalText/foldScalar(_:)``.
    convenience init(index: Int) {
        var offsets: [UInt16] = [0]
        var bytes: [UInt8] = []
        var composes: [Bool] = []
        offsets.reserveCapacity(257)
        composes.reserveCapacity(256)
        for value in (index << 8)..<((index << 8) + 256) {
            // Surrogate code points are not scalars; the decoder never produces them.
            if let scalar = Unicode.Scalar(UInt32(value)) {
                let (text, compose) = CanonicalText.foldScalar(scalar)
                bytes.append(contentsOf: text.utf8)
                composes.append(compose)
            } else {
                composes.append(false)
            }
            offsets.append(UInt16(bytes.count))
        }
        self.init(offsets: offsets, bytes: bytes, composes: composes)
    }
}

/// The process-wide cache of fold tables, one per block of 256 scalars, built on first use.
///
/// The blocks that titles in European languages touch most have their own lazily
/// initialised constants (thread-safe and lock-free once built); any other block is built
/// into `blocks`, which a mutex guards.
private final class FoldBlockCache: Sendable {
    package static let shared = FoldBlockCache()

    private static let latin1 = FoldBlock(index: 0x00)
    private static let latinExtendedA = FoldBlock(index: 0x01)
    private static let latinExtendedB = FoldBlock(index: 0x02)
    private static let greek = FoldBlock(index: 0x03)
    private static let cyrillic = FoldBlock(index: 0x04)
    private static let latinExtendedAdditional = FoldBlock(index: 0x1E)
    private static let greekExtended = FoldBlock(index: 0x1F)
    private static let punctuation = FoldBlock(index: 0x20)

    private let blocks = Mutex([FoldBlock?](repeating: nil, count: 0x110000 >> 8))

    /// The table of block `index`, built now if this is its first use.
    func block(_ index: Int) -> FoldBlock {
        switch index {
        case 0x00: return Self.latin1
        case 0x01: return Self.latinExtendedA
        case 0x02: return Self.latinExtendedB
        case 0x03: return Self.greek
        case 0x04: return Self.cyrillic
        case 0x1E: return Self.latinExtendedAdditional
        case 0x1F: return Self.greekExtended
        case 0x20: return Self.punctuation
        default: break
        }
        return blocks.withLock { blocks in
            if let block = blocks[index] { return block }
            let block = FoldBlock(index: index)
            blocks[index] = block
            return block
        }
    }
}
