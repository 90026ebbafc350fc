/// A unified diff of two texts by lines, as `diff -u` prints it, from the standard library's
/// `difference(from:)` (a Myers diff: time and memory grow with the number of lines changed,
/// not with the product of the texts' lengths).
package enum UnifiedDiff {
    private enum Edit: Equatable {
        case same(String), removed(String), added(String)
    }

    /// The diff with `context` lines around each change, or "" when the texts are equal.
    package static func diff(
        _ old: [String], _ new: [String], oldName: String, newName: String,
        context: Int = 3
    ) -> String {
        let edits = self.edits(old, new)
        guard edits.contains(where: { if case .same = $0 { false } else { true } }) else { return "" }
        var text = "--- \(oldName)\n+++ \(newName)\n"
        for hunk in hunks(edits, context: context) { text += hunk }
        return text
    }

    /// Every line of both texts in order, a change's removed lines before its added ones.
    /// A line that stands in one text only is removed or added before the diff runs on the
    /// others (it can be in no common subsequence), so that texts with nothing in common (a
    /// runaway transcript) take linear time, not the square of their lengths.
    private static func edits(_ old: [String], _ new: [String]) -> [Edit] {
        let oldLines = Set(old), newLines = Set(new)
        var isRemoved = old.map { !newLines.contains($0) }
        var isAdded = new.map { !oldLines.contains($0) }
        let oldShared = old.indices.filter { !isRemoved[$0] }, newShared = new.indices.filter { !isAdded[$0] }
        for change in newShared.map({ new[$0] }).difference(from: oldShared.map { old[$0] }) {
            switch change {
            case .remove(let offset, _, _): isRemoved[oldShared[offset]] = true
            case .insert(let offset, _, _): isAdded[newShared[offset]] = true
            }
        }
        var edits: [Edit] = []
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if i < old.count, isRemoved[i] {
                edits.append(.removed(old[i])); i += 1
            } else if j < new.count, isAdded[j] {
                edits.append(.added(new[j])); j += 1
            } else {
                edits.append(.same(old[i])); i += 1; j += 1
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
