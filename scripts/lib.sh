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
    # (libncurses-dev, libbsd-dev and libmd-dev hold the archives libedit's needs: libedit-dev
    # brings them too, named here as a release build links them.)
    ensure_packages libsqlite3-dev libsodium-dev libedit-dev libncurses-dev libbsd-dev libmd-dev pkg-config
}

# Builds memo quietly; prints the compiler's output only when the build fails. A release
# build links the Swift runtime and FoundationEssentials statically, and is not
# position-independent: the loader then has no addresses to fix up in the program's ~40,000
# metadata pointers, which saves a third of its page faults (~0.4 ms a start, see
# BENCHMARKS.md). Debug builds stay PIE, as the thread sanitizer needs. A release build keeps
# line tables only (-gline-tables-only): a crash's backtrace still names files and lines, and
# the binary is 3 MB smaller than with full debug information about every type and variable.
# Those sections are compressed (zlib, as the ELF standard says): the Swift runtime's
# backtracer, gdb, addr2line and valgrind read them as they are (a backtrace's files and lines
# are the same), and the binary is 3 MB smaller again, which keeps it within
# scripts/check-structure's 30 MB with the static archives below (1.6 MB).
#
# A release build also links SQLite and libedit from their static archives (static_libraries)
# and has no RUNPATH ($ORIGIN, which SwiftPM adds for libraries built beside the program, and
# memo has none): the loader then opens no library but the C and C++ runtimes (libc, libm,
# libstdc++, libgcc; since the paragraph below, only libc and libm), probes no folder beside
# the binary for each, and relocates nothing that only the REPL's line editor uses: its
# instructions at each start 3.5 → 1.8 million. Debug builds
# stay dynamic, as the system's pkg-config files say: the sanitizer builds and the tests link
# as a developer's system does, and a debug link stays quick.
#
# A release build reaches the metadata of a generic type such as [String: [Word]] through its
# accessor function, which receives the conformances the type needs as the compiler knows them
# (-disable-concrete-type-metadata-mangled-name-accessors), not by demangling the type's name
# at its first use: that made the runtime scan every conformance record in the binary for each
# Hashable key, Error or WordSource it met, ~1.1 M instructions of a one-shot `list -n 20`.
#
# A release build links the C++ runtime (libstdc++, which the Swift runtime uses) and GCC's
# support library (libgcc: the unwinder) from their archives too (static_libraries links
# libstdc++.a; -static-libgcc), and exports none of memo's own symbols (--no-export-dynamic
# after the -export-dynamic that swiftc's static-stdlib-args.lnk passes: the loader would
# put memo's 3,666 functions first in the scope of every symbol it looks up, and nothing
# looks them up: the Swift runtime finds its metadata through its own sections, and the
# backtracer reads the binary's symbol table, not the dynamic one). The loader then maps
# only libc and libm, and runs no start-up code of libstdc++.so's (its locale and streams,
# which memo never uses): `--in-memory count` 3.4 → 1.6 million instructions, 348 → 293
# page faults, a quarter less wall clock (scripts/bench-profiles.md), the binary 0.2 MB smaller.
# How a release build links (swiftc's options; build_memo passes them on, and
# build_floor_program links the bench's floor with them): see build_memo.
release_link_flags=(-Xclang-linker -no-pie -Xclang-linker -static-libgcc -Xlinker --no-export-dynamic)

build_memo() {
    check_target_imports || return 1
    local configuration=${1:-debug}
    local flags=()
    if [ "$configuration" = release ]; then
        static_libraries || return 1
        flags=(--static-swift-stdlib -Xswiftc -gline-tables-only
               -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
               -Xlinker --compress-debug-sections=zlib-gabi --disable-local-rpath --pkg-config-path "$static_libraries_folder")
        local flag
        for flag in "${release_link_flags[@]}"; do flags+=(-Xswiftc "$flag"); done
    fi
    local log
    log=$(mktemp)
    if ! swift build -c "$configuration" "${flags[@]}" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        return 1
    fi
    rm -f "$log"
}

# Builds $1, a static Swift "hello world" linked as build_memo links a release memo (the
# standard library, the C++ runtime and libgcc from their archives, no symbol of its own
# exported, not position-independent): the floor of a start, for scripts/bench.
build_floor_program() {
    static_libraries || return 1
    printf 'print("hello")\n' >"$1.swift"
    swiftc -O -static-stdlib -L "$static_libraries_folder" "${release_link_flags[@]}" "$1.swift" -o "$1"
}

# Makes .build/static-libraries: links to the static archives of SQLite and libedit, and of
# the libraries libedit's archive needs (its pkg-config file's Libs.private: termcap, that is
# tinfo, and libbsd, whose own Libs.private is libmd), beside pkg-config files named as the
# system's (sqlite3.pc, libedit.pc) whose -L is that folder. Package.swift's system-library
# targets read them through --pkg-config-path: their -lsqlite3 and -ledit (and the module
# maps' `link`) then find the archives first, as the folder holds no shared object, and
# libedit's needs follow it on the link line. The headers are the system's. (SQLite's own
# Libs.private, -lm -lz, are left out: libm is glibc's, linked anyway, and the library's
# archive calls nothing of zlib's.) It also links the C++ runtime's archive (libstdc++.a),
# which the -lstdc++ of swiftc's static-stdlib-args.lnk then finds first (see build_memo).
static_libraries_folder="$repo_root/.build/static-libraries"
static_libraries() {
    local folder=$static_libraries_folder package libdir library libraries
    mkdir -p "$folder"
    # Each: the pkg-config package, then the libraries its static link needs, in link order.
    for package in "sqlite3 sqlite3" "libsodium sodium" "libedit edit tinfo bsd md"; do
        set -- $package
        libdir=$(pkg-config --variable=libdir "$1") || return 1
        libraries=""
        for library in "${@:2}"; do
            [ -f "$libdir/lib$library.a" ] || { echo "error: $libdir/lib$library.a is missing (a -dev package)" >&2; return 1; }
            ln -sf "$libdir/lib$library.a" "$folder/lib$library.a"
            libraries+=" -l$library"
        done
        printf '%s\n' "Name: $1 (static)" "Description: $1 from its static archive, for memo's release build" \
            "Version: $(pkg-config --modversion "$1")" "Libs: -L$folder$libraries" "Cflags: $(pkg-config --cflags "$1")" \
            >"$folder/$1.pc.new"
        # Rewritten only when it differs, so an unchanged file does not look new to the build.
        cmp -s "$folder/$1.pc.new" "$folder/$1.pc" && rm "$folder/$1.pc.new" || mv "$folder/$1.pc.new" "$folder/$1.pc"
    done
    # The C++ runtime's archive, as the clang that swiftc links with (the one beside it)
    # finds it: beside the shared object, in the system GCC's folder. The folder comes first
    # among the link's -L folders and holds no libstdc++.so, so the -lstdc++ of swiftc's
    # static-stdlib-args.lnk takes the archive.
    local stdcxx
    stdcxx=$("$(dirname "$(readlink -f "$(command -v swiftc)")")/clang" -print-file-name=libstdc++.a) || return 1
    [ -f "$stdcxx" ] || { echo "error: libstdc++.a is missing (the libstdc++-dev package of the system's GCC)" >&2; return 1; }
    ln -sf "$stdcxx" "$folder/libstdc++.a"
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
