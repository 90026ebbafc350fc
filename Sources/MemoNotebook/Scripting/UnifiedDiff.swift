/// A unified diff of two texts by lines, as `diff -u` prints it, from a longest common
/// subsequence of the lines between the texts' common first and last lines.
///
/// The subsequence takes a table of one cell per pair of lines. Up to `maximumTableCells`
/// it is exact; a larger middle (a hostile or runaway transcript) is shown as all removed,
/// then all added: still a correct diff, found in linear time and memory.
package enum UnifiedDiff {
    private enum Edit: Equatable {
        case same(String), removed(String), added(String)
    }

    static let maximumTableCells = 4_000_000

    /// The diff with `context` lines around each change, or "" when the texts are equal.
    package static func diff(_ old: [String], _ new: [String], oldName: String, newName: String,
                             context: Int = 3) -> String {
        let edits = self.edits(old, new)
        guard edits.contains(where: { if case .same = $0 { false } else { true } }) else { return "" }
        var text = "--- \(oldName)\n+++ \(newName)\n"
        for hunk in hunks(edits, context: context) { text += hunk }
        return text
    }

    private static func edits(_ old: [String], _ new: [String]) -> [Edit] {
        let prefix = zip(old, new).prefix { $0 == $1 }.count
        let suffix = zip(old[prefix...].reversed(), new[prefix...].reversed()).prefix { $0 == $1 }.count
        let oldMiddle = old[prefix..<(old.count - suffix)], newMiddle = new[prefix..<(new.count - suffix)]
        let middle = oldMiddle.count * newMiddle.count <= maximumTableCells
            ? commonSubsequenceEdits(Array(oldMiddle), Array(newMiddle))
            : oldMiddle.map(Edit.removed) + newMiddle.map(Edit.added)
        return old[..<prefix].map(Edit.same) + middle + old[(old.count - suffix)...].map(Edit.same)
    }

    private static func commonSubsequenceEdits(_ old: [String], _ new: [String]) -> [Edit] {
        // common[i * width + j]: length of the longest common subsequence of old[i...] and new[j...].
        let width = new.count + 1
        var common = [Int32](repeating: 0, count: (old.count + 1) * width)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                common[i * width + j] = old[i] == new[j]
                    ? common[(i + 1) * width + j + 1] + 1
                    : max(common[(i + 1) * width + j], common[i * width + j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                edits.append(.same(old[i])); i += 1; j += 1
            } else if i < old.count, j == new.count || common[(i + 1) * width + j] >= common[i * width + j + 1] {
                edits.append(.removed(old[i])); i += 1
            } else {
                edits.append(.added(new[j])); j += 1
            }
        }
        return edits
    }

    /// Groups edits into hunks with their `@@ -a,b +c,d @@` headers.
    private static func hunks(_ edits: [Edit], context: Int) -> [String] {
        let changed = edits.indices.filter { if case .same = edits[$0] { false } else { true } }
        var ranges: [ClosedRange<Int>] = []
        for index in changed {
            let range = max(0, index - context)...min(edits.count - 1, index + context)
            if let last = ranges.last, range.lowerBound <= last.upperBound + 1 {
                ranges[ranges.count - 1] = last.lowerBound...range.upperBound
            } else {
                ranges.append(range)
            }
        }
        // The line numbers where each hunk starts, counted in one pass over the edits.
        var oldLine = 1, newLine = 1, counted = 0
        return ranges.map { range in
            for edit in edits[counted..<range.lowerBound] {
                if case .added = edit {} else { oldLine += 1 }
                if case .removed = edit {} else { newLine += 1 }
            }
            counted = range.lowerBound
            var oldCount = 0, newCount = 0, body = ""
            for edit in edits[range] {
                switch edit {
                case .same(let line): body += " \(line)\n"; oldCount += 1; newCount += 1
                case .removed(let line): body += "-\(line)\n"; oldCount += 1
                case .added(let line): body += "+\(line)\n"; newCount += 1
                }
            }
            let oldStart = oldCount == 0 ? oldLine - 1 : oldLine
            let newStart = newCount == 0 ? newLine - 1 : newLine
            return "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n" + body
        }
    }
}
