# shellcheck shell=bash
# Throwaway PostgreSQL cluster for tests. Source it (after scripts/lib/common.sh); do not execute it.
#
#   start_postgres   creates a fresh cluster in a temp dir, listening only on 127.0.0.1 on a free
#                    port (unix socket inside the temp dir), creates database $SPROUT_PG_DB, and exports
#                      SPROUT_PG_URL   postgres://sprout@127.0.0.1:PORT/sprout_test
#                      SPROUT_PG_HOST / SPROUT_PG_PORT / SPROUT_PG_USER / SPROUT_PG_DB / SPROUT_PG_DIR
#                    Returns non-zero (and prints the server log) on failure; never exits the shell.
#   stop_postgres    stops the cluster and deletes the temp dir. Idempotent; always returns 0,
#                    so it is safe in an EXIT trap.
#
# Knobs: PG_BIN (dir with initdb/pg_ctl), SPROUT_PG_VERSION (default 15), SPROUT_PG_DB (default
# sprout_test), SPROUT_PG_MAX_CONNECTIONS (default 500: every test opens its own pool, and the suites run at once), SPROUT_PG_LOCALE (default C.UTF-8: byte order like C,
# but a UTF-8 ctype, without which pg_trgm treats Hangul as punctuation and cannot index Korean search).
#
# When run as root the cluster is owned by and runs as the `postgres` system user (initdb refuses
# root); otherwise it runs as the current user.

SPROUT_PG_VERSION="${SPROUT_PG_VERSION:-15}"

# Sets PG_BIN to a directory containing initdb, pg_ctl and postgres. Returns 1 if none found.
_pg_find_bin() {
    local cand candidates=()
    [[ -n "${PG_BIN:-}" ]] && candidates+=("$PG_BIN")
    candidates+=("/usr/lib/postgresql/${SPROUT_PG_VERSION}/bin")
    if command -v pg_config >/dev/null 2>&1; then
        candidates+=("$(pg_config --bindir 2>/dev/null || true)")
    fi
    # Any other installed major version, newest first.
    while IFS= read -r cand; do candidates+=("$cand"); done < <(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V -r)
    for cand in "${candidates[@]}"; do
        if [[ -n "$cand" && -x "$cand/initdb" && -x "$cand/pg_ctl" && -x "$cand/postgres" ]]; then
            PG_BIN="$cand"
            return 0
        fi
    done
    return 1
}

# Find the binaries, installing postgresql-$SPROUT_PG_VERSION from apt if they are missing.
ensure_postgres_binaries() {
    _pg_find_bin && return 0
    info "PostgreSQL server binaries not found; trying apt-get install postgresql-${SPROUT_PG_VERSION}"
    apt_install "postgresql-${SPROUT_PG_VERSION}" || return 1
    _pg_find_bin
}

# Run a PostgreSQL server-side binary as the cluster owner, from inside the cluster dir
# (the postgres user may not be able to read the caller's cwd).
_pg_as_owner() {
    if [[ $(id -u) -eq 0 ]]; then
        (cd "$SPROUT_PG_DIR" && runuser -u postgres -- "$@")
    else
        (cd "$SPROUT_PG_DIR" && "$@")
    fi
}

_pg_dump_log() {
    local f
    for f in "$SPROUT_PG_DIR/initdb.log" "$SPROUT_PG_DIR/postgres.log"; do
        if [[ -s "$f" ]]; then
            echo "----- tail of $f -----" >&2
            tail -n 40 "$f" >&2 || true
        fi
    done
}

start_postgres() {
    local user="${SPROUT_PG_USER:-sprout}"
    local db="${SPROUT_PG_DB:-sprout_test}"
    # Every test application on PostgreSQL opens its own pools as the parallel suite needs them, and the backup
    # tests start pg_dump and pg_restore beside them. Sampled every 0.5 s, the whole suite (924 tests) opened 680
    # client connections in its first 15 s and peaked at 996 of 1000; a backup test's pg_dump then met "too many
    # clients" in CI. 2000 leaves the same headroom again; an idle backend costs a few MB of this machine's 24 GB.
    local max_conn="${SPROUT_PG_MAX_CONNECTIONS:-2000}"

    if [[ -n "${SPROUT_PG_DIR:-}" ]]; then
        warn "start_postgres: a cluster is already running in $SPROUT_PG_DIR"
        return 1
    fi
    ensure_postgres_binaries || { warn "no PostgreSQL server binaries (initdb/pg_ctl/postgres) available"; return 1; }
    info "using $("$PG_BIN/postgres" --version) from $PG_BIN"

    if [[ $(id -u) -eq 0 ]]; then
        id postgres >/dev/null 2>&1 || { warn "running as root but there is no 'postgres' system user to own the cluster"; return 1; }
        # Under /tmp explicitly: the postgres user must be able to traverse the parent dir.
        SPROUT_PG_DIR=$(mktemp -d /tmp/sprout-pg.XXXXXX) || return 1
        chown postgres:postgres "$SPROUT_PG_DIR" || return 1
    else
        SPROUT_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/sprout-pg.XXXXXX") || return 1
    fi
    chmod 700 "$SPROUT_PG_DIR"
    export SPROUT_PG_DIR
    info "cluster dir: $SPROUT_PG_DIR"

    if ! _pg_as_owner "$PG_BIN/initdb" -D "$SPROUT_PG_DIR/data" -U "$user" -A trust \
            -E UTF8 --locale="${SPROUT_PG_LOCALE:-C.UTF-8}" --no-sync >"$SPROUT_PG_DIR/initdb.log" 2>&1; then
        warn "initdb failed"
        _pg_dump_log
        return 1
    fi

    # The port is picked just before starting, so another process could grab it in between;
    # retry with a new port a few times in that case.
    # The tests trade durability for speed; SPROUT_PG_DURABLE=1 (the benchmarks) keeps PostgreSQL's defaults:
    # fsync, synchronous_commit and full_page_writes on, every commit flushed to disk before it is answered.
    local durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    [[ "${SPROUT_PG_DURABLE:-0}" == "1" ]] && durability="-c fsync=on -c synchronous_commit=on -c full_page_writes=on"
    local port="" attempt started=0
    for attempt in 1 2 3 4 5; do
        port=$(free_port) || { warn "could not find a free port"; return 1; }
        if _pg_as_owner "$PG_BIN/pg_ctl" -D "$SPROUT_PG_DIR/data" -l "$SPROUT_PG_DIR/postgres.log" \
                -w -t 60 -s \
                -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$SPROUT_PG_DIR -c max_connections=$max_conn $durability" \
                start >/dev/null; then
            started=1
            break
        fi
        warn "pg_ctl start on port $port failed (attempt $attempt)"
    done
    if [[ $started -ne 1 ]]; then
        _pg_dump_log
        return 1
    fi

    local _ ready=0
    for _ in $(seq 1 60); do
        if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -U "$user" -d postgres; then
            ready=1
            break
        fi
        sleep 0.5
    done
    if [[ $ready -ne 1 ]]; then
        warn "PostgreSQL did not become ready on 127.0.0.1:$port"
        _pg_dump_log
        return 1
    fi

    if ! "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U "$user" "$db"; then
        warn "createdb $db failed"
        _pg_dump_log
        return 1
    fi

    export SPROUT_PG_HOST=127.0.0.1 SPROUT_PG_PORT="$port" SPROUT_PG_USER="$user" SPROUT_PG_DB="$db"
    export SPROUT_PG_URL="postgres://$user@127.0.0.1:$port/$db"
    info "PostgreSQL ready: $SPROUT_PG_URL"
}

stop_postgres() {
    local dir="${SPROUT_PG_DIR:-}"
    [[ -n "$dir" ]] || return 0
    if [[ -d "$dir" ]]; then
        local pidfile="$dir/data/postmaster.pid" pid=""
        if [[ -f "$pidfile" ]]; then
            pid=$(head -n 1 "$pidfile" 2>/dev/null || true)
            if ! _pg_as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w -t 30 -s stop >/dev/null 2>&1; then
                # Last resort: make sure no orphaned postmaster outlives us.
                if [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
                    warn "pg_ctl stop failed; killing postmaster $pid"
                    kill -KILL "$pid" 2>/dev/null || true
                    sleep 0.5
                fi
            fi
        fi
        rm -rf -- "$dir" || true
    fi
    unset SPROUT_PG_DIR SPROUT_PG_URL SPROUT_PG_HOST SPROUT_PG_PORT
    return 0
}
