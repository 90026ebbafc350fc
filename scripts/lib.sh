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
build_memo() {
    local configuration=${1:-debug}
    local flags=()
    [ "$configuration" = release ] && flags=(--static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie -Xswiftc -gline-tables-only)
    local log
    log=$(mktemp)
    if ! swift build -c "$configuration" "${flags[@]}" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        return 1
    fi
    rm -f "$log"
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
