import Glibc

/// This machine, as a sync names it beside a store file's device and inode: a store on
/// another machine may have the same numbers (a disk image cloned), and is not this file.
enum MachineIdentity {
    /// `/etc/machine-id` and the host name (clones of one image share the first).
    static let current: String = {
        var name = [CChar](repeating: 0, count: 256)
        let host =
            gethostname(&name, name.count - 1) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return (firstLine(of: "/etc/machine-id") ?? "") + "/" + host
    }()

    private static func firstLine(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 128)
        guard fgets(&line, Int32(line.count), file) != nil else { return nil }
        return String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).filter {
            !$0.isWhitespace
        }
    }
}
