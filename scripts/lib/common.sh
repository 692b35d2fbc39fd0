# shellcheck shell=bash
# Shared helpers for scripts/test and scripts/bench. Source it; do not execute it.

# Print a clear section heading.
heading() {
    printf '\n==> %s\n' "$*"
}

info() {
    printf '    %s\n' "$*"
}

warn() {
    printf 'WARNING: %s\n' "$*" >&2
}

die() {
    printf 'ERROR: %s\n' "$*" >&2
    exit 1
}

# Make sure `swift` is callable; fall back to the toolchain location used on the dev/CI machines.
ensure_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        local dir
        for dir in "${SWIFT_BIN_DIR:-}" /opt/swift/usr/bin /usr/share/swift/usr/bin; do
            if [[ -n "$dir" && -x "$dir/swift" ]]; then
                export PATH="$dir:$PATH"
                break
            fi
        done
    fi
    command -v swift >/dev/null 2>&1 || die "swift not found on PATH (set SWIFT_BIN_DIR to the toolchain's usr/bin)"
}

# Print a TCP port on 127.0.0.1 that is free right now (the kernel picks it).
free_port() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
        return
    fi
    # Fallback without python: try random high ports until nothing is listening there.
    local port _
    for _ in $(seq 1 50); do
        port=$(( 20000 + RANDOM % 40000 ))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    return 1
}

# apt_install PKG... : install Debian packages non-interactively (apt-get update first).
apt_install() {
    local sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null 2>&1 || { warn "need root (or sudo) to apt-get install $*"; return 1; }
        sudo=(sudo -n)
    fi
    command -v apt-get >/dev/null 2>&1 || { warn "apt-get not available; install manually: $*"; return 1; }
    info "apt-get install -y $*"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null || return 1
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" </dev/null || return 1
}

# Print a database URL with its password (if any) replaced by ***.
redact_url() {
    printf '%s\n' "$1" | sed -E 's#(://[^:/@]*):[^@/]*@#\1:***@#'
}
