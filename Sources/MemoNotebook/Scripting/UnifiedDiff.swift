/// A unified diff of two texts by lines, as `diff -u` prints it, from a longest common
/// subsequence. Transcripts are small, so the quadratic table is fine.
package enum UnifiedDiff {
    private enum Edit: Equatable {
        case same(String), removed(String), added(String)
    }

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
        // common[i][j]: length of the longest common subsequence of old[i...] and new[j...].
        var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                edits.append(.same(old[i])); i += 1; j += 1
            } else if i < old.count, j == new.count || common[i + 1][j] >= common[i][j + 1] {
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
        return ranges.map { range in
            var oldLine = 1, newLine = 1
            for edit in edits[..<range.lowerBound] {
                if case .added = edit {} else { oldLine += 1 }
                if case .removed = edit {} else { newLine += 1 }
            }
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
