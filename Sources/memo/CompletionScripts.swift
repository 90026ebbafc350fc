/// The shells `memo completions` writes a script for.
enum Shell: String, CaseIterable {
    case bash, zsh, fish
}

/// The completion scripts of `memo completions SHELL`. They hold no list of commands or
/// options: on Tab they ask `memo __complete LINE` (LINE: the command line up to the
/// cursor), which answers from the command table through the REPL's completer, with
/// tags, ids and fixture names from the store. Each answer line is `WORD` or `WORD<TAB>HINT`.
enum CompletionScripts {
    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    /// bash shows no hints; a word that ends a path or has no candidates falls back to file
    /// names (`-o default`), for `--store`, `import` and `run`. `-o nosort` (bash 4.4) keeps
    /// ids in number order, not 1 10 11 2.
    static let bash = #"""
        # bash completion for memo: source this file, or put it in bash-completion's folder.
        _memo() {
            local line="${COMP_LINE:0:COMP_POINT}" IFS=$'\n' candidate
            COMPREPLY=()
            for candidate in $("${COMP_WORDS[0]}" __complete "$line" 2>/dev/null); do
                COMPREPLY+=("${candidate%%$'\t'*}")
            done
        }
        complete -o default -o nosort -F _memo memo 2>/dev/null || complete -o default -F _memo memo

        """#

    /// `compadd -V` (an unsorted group) keeps memo's order: ids by number.
    static let zsh = #"""
        #compdef memo
        # zsh completion for memo: put this file in a folder of $fpath as _memo, or source it
        # after compinit.
        _memo() {
            local line="${(j: :)words[1,CURRENT-1]} $PREFIX" candidate
            local -a values descriptions
            for candidate in "${(@f)$(${words[1]} __complete "$line" 2>/dev/null)}"; do
                [[ -z $candidate ]] && continue
                values+=("${candidate%%$'\t'*}")
                if [[ $candidate == *$'\t'* ]]; then
                    descriptions+=("${candidate%%$'\t'*} -- ${candidate#*$'\t'}")
                else
                    descriptions+=("${candidate}")
                fi
            done
            (( ${#values} )) || { _files; return }
            compadd -V memo -Q -U -l -d descriptions -a values
        }
        if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
            _memo "$@"
        else
            compdef _memo memo
        fi

        """#

    /// fish takes files only where `-F` says: for `--store`, which like every global option
    /// goes before the command, and for the commands that name files.
    static let fish = #"""
        # fish completion for memo: put this file in ~/.config/fish/completions/memo.fish.
        function __memo_complete
            set -l program (commandline -opc)[1]
            $program __complete (commandline -cp) 2>/dev/null
        end
        # Whether the command (the first word after memo's global options and their values) is
        # one of the names given; with none given, whether no command is typed yet.
        function __memo_command_is
            set -l tokens (commandline -opc)
            set -e tokens[1]
            while set -q tokens[1]
                switch $tokens[1]
                    case --store --fixture
                        set -e tokens[1]
                    case '-*'
                    case '*'
                        set -q argv[1]; and contains -- $tokens[1] $argv
                        return
                end
                set -e tokens[1]
            end
            not set -q argv[1]
        end
        complete -c memo -f -k -a '(__memo_complete)'
        complete -c memo -n __memo_command_is -l store -r -F
        complete -c memo -n '__memo_command_is sync import export run test' -F

        """#
}
