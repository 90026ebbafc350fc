import Glibc
import MemoNotebook

/// The program's arguments, refusing any that is not valid UTF-8 rather than repairing it.
func decodedArguments() -> Result<[String], CommandError> {
    var arguments: [String] = []
    for index in 1..<Int(CommandLine.argc) {
        guard let pointer = CommandLine.unsafeArgv[index], let argument = String(validatingCString: pointer) else {
            return .failure(.invalid("argument \(index) is not valid UTF-8"))
        }
        arguments.append(argument)
    }
    return .success(arguments)
}

retainFreedHeap()
let standardError = FileOutput(descriptor: STDERR_FILENO)
let status = MemoProgram(errors: standardError).run(decodedArguments())
standardError.flush()
exit(status.rawValue)
