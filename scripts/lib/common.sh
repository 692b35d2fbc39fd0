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
    # Bounded, so a mirror that stops answering fails this step instead of holding CI until its deadline.
    "${sudo[@]}" timeout 600 env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null || return 1
    "${sudo[@]}" timeout 900 env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" \
        </dev/null || return 1
}

# pip_install PYTHON REQUIREMENT... : install into PYTHON's environment from PyPI, three tries of at most five minutes.
# A PyPI connection that stalls once held a CI run in `pip install` until the run's 90-minute deadline killed it, with
# every later suite unrun; each try is now cut off, and pip's own socket timeout makes a stalled read fail fast.
pip_install() {
    local python="$1"; shift
    local attempt
    for attempt in 1 2 3; do
        if timeout 300 "$python" -m pip install --quiet --disable-pip-version-check --timeout 30 --retries 3 "$@" \
            </dev/null; then
            return 0
        fi
        warn "pip install $* failed (try $attempt of 3)"
        sleep $((attempt * 10))
    done
    return 1
}

# Print a database URL with its password (if any) replaced by ***.
redact_url() {
    printf '%s\n' "$1" | sed -E 's#(://[^:/@]*):[^@/]*@#\1:***@#'
}
