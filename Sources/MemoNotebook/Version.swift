/// memo's version, as `--version` and the server's `serverInfo` report it.
package let memoVersion = "0.1.0"
