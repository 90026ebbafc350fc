# Shared by scripts/memo, scripts/test and scripts/bench: run from the repository root,
# install the system libraries memo links when they are missing, and build.

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root" || exit 1

# Installs Debian packages that are not installed yet, quietly.
ensure_packages() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing ${missing[*]}…" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq >/dev/null && \
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

ensure_system_libraries() {
    ensure_packages libsqlite3-dev libedit-dev pkg-config
}

# Builds memo quietly; prints the compiler's output only when the build fails. A release
# build links the Swift runtime and FoundationEssentials statically, and is not
# position-independent: the loader then has no addresses to fix up in the program's ~40,000
# metadata pointers, which saves a third of its page faults (~0.4 ms a start, see
# BENCHMARKS.md). Debug builds stay PIE, as the thread sanitizer needs. A release build keeps
# line tables only (-gline-tables-only): a crash's backtrace still names files and lines, and
# the binary is 3 MB smaller than with full debug information about every type and variable.
# A release build reaches the metadata of a generic type such as [String: [Word]] through its
# accessor function, which receives the conformances the type needs as the compiler knows them
# (-disable-concrete-type-metadata-mangled-name-accessors), not by demangling the type's name
# at its first use: that made the runtime scan every conformance record in the binary for each
# Hashable key, Error or WordSource it met, ~1.1 M instructions of a one-shot `list -n 20`.
build_memo() {
    check_target_imports || return 1
    local configuration=${1:-debug}
    local flags=()
    [ "$configuration" = release ] && flags=(--static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie -Xswiftc -gline-tables-only
        -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
    local log
    log=$(mktemp)
    if ! swift build -c "$configuration" "${flags[@]}" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        return 1
    fi
    rm -f "$log"
}

# Fails, naming the file, when a target that is not a test imports a target of this package that
# Package.swift does not list among its own dependencies: so a face (MemoREPL, MemoServer,
# memo) that imports MemoStore or MemoSync does not build, although MemoNotebook brings them
# along. The compiler lists the imports (`-emit-imported-modules` reads `#if`, `@_exported`
# and `import struct M.T` as a build does). SwiftPM's --explicit-target-dependency-import-check
# cannot say it: it accepts a module that a dependency brings along, and it skips every
# target that has plugin-generated sources or depends on one (MemoNotebook's fixtures).
check_target_imports() {
    local status=0 targets target folder declared module file
    targets=$(swift package dump-package | python3 -c 'import json, sys
targets = json.load(sys.stdin)["targets"]
print(" ".join(t["name"] for t in targets))
for t in targets:
    if t["type"] in ("regular", "executable"):
        print(t["name"], t.get("path") or "Sources/" + t["name"], *(list(d.values())[0][0] for d in t["dependencies"]))') || return 1
    local all=" $(head -n 1 <<<"$targets") "
    while read -r target folder declared; do
        local sources=()
        mapfile -t sources < <(find "$folder" -name '*.swift' | sort)
        [ ${#sources[@]} -eq 0 ] && continue
        for module in $(swiftc -frontend -emit-imported-modules -swift-version 6 -module-name "${target//-/_}" "${sources[@]}"); do
            [[ $all == *" $module "* && " $declared " != *" $module "* ]] || continue
            for file in "${sources[@]}"; do
                swiftc -frontend -emit-imported-modules -swift-version 6 -module-name "${target//-/_}" "$file" | grep -qx "$module" &&
                    echo "error: $file imports $module, which Package.swift does not list among $target's dependencies" >&2
            done
            status=1
        done
    done < <(tail -n +2 <<<"$targets")
    return $status
}

# Creates .venv with the Python test tools of Tests/e2e/requirements.txt when missing or stale.
ensure_test_environment() {
    local requirements="$repo_root/Tests/e2e/requirements.txt"
    local stamp="$repo_root/.venv/requirements.txt"
    if [ -x "$repo_root/.venv/bin/python" ] && cmp -s "$requirements" "$stamp"; then
        return 0
    fi
    echo "preparing the Python test environment in .venv…" >&2
    python3 -m venv "$repo_root/.venv" &&
        "$repo_root/.venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements" &&
        cp "$requirements" "$stamp"
}
