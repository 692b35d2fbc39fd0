# shellcheck shell=bash
# PgBouncer in transaction mode in front of the throwaway PostgreSQL cluster (scripts/lib/postgres.sh), for the
# suite's run through a pooler. Source it after common.sh and postgres.sh; do not execute it.
#
#   start_pgbouncer   needs start_postgres first; installs Debian's pgbouncer if missing, starts it on
#                     127.0.0.1 on a free port with its files in $SPROUT_PG_DIR/pgbouncer, and exports
#                       SPROUT_PGBOUNCER_URL   postgres://sprout@127.0.0.1:PORT/sprout_test
#   stop_pgbouncer    stops it. Idempotent; always returns 0, so it is safe in an EXIT trap.
#
# Any role may log in (auth_type trust, looked up with auth_query as the cluster's own role): the tests give each
# test a role of its own whose defaults hold its schema and statement timeout (PooledTestRole in the tests).
# deploy/pgbouncer.ini is the example for production; this one differs where a test cluster needs it (trust, short
# idle times so the pools of finished tests give their server connections back).

start_pgbouncer() {
    [[ -n "${SPROUT_PG_DIR:-}" && -n "${SPROUT_PG_PORT:-}" ]] || { warn "start_pgbouncer: start_postgres first"; return 1; }
    if ! command -v pgbouncer >/dev/null 2>&1 && [[ ! -x /usr/sbin/pgbouncer ]]; then
        info "pgbouncer not found; trying apt-get install pgbouncer"
        apt_install pgbouncer || return 1
    fi
    local bin
    bin="$(command -v pgbouncer 2>/dev/null || echo /usr/sbin/pgbouncer)"
    local dir="$SPROUT_PG_DIR/pgbouncer" port
    mkdir -p "$dir"
    port=$(free_port) || { warn "could not find a free port"; return 1; }
    printf '"%s" ""\n' "$SPROUT_PG_USER" >"$dir/users.txt"
    cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$SPROUT_PG_PORT

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
pool_mode = transaction
auth_type = trust
auth_file = $dir/users.txt
auth_user = $SPROUT_PG_USER
max_client_conn = 10000
; Per test role and database. The cluster takes 2000 connections; pools of roles whose tests are done close theirs
; after server_idle_timeout.
default_pool_size = 8
max_db_connections = 1200
server_idle_timeout = 5
; A refused login (PostgreSQL restarting) is tried again after 1 s, not the default 15 s.
server_login_retry = 1
query_wait_timeout = 60
log_connections = 0
log_disconnections = 0
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
    if [[ $(id -u) -eq 0 ]]; then
        chown -R postgres:postgres "$dir"
    fi
    # A client connection is a file descriptor: max_client_conn needs more than the usual 1024.
    if ! ( ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
           if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$bin" -d "$dir/pgbouncer.ini"; else "$bin" -d "$dir/pgbouncer.ini"; fi ); then
        warn "pgbouncer did not start"
        tail -n 20 "$dir/pgbouncer.log" >&2 2>/dev/null || true
        return 1
    fi
    local _
    for _ in $(seq 1 40); do
        if "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$port" -U "$SPROUT_PG_USER" -d "$SPROUT_PG_DB"; then
            export SPROUT_PGBOUNCER_DIR="$dir" SPROUT_PGBOUNCER_PORT="$port"
            export SPROUT_PGBOUNCER_URL="postgres://$SPROUT_PG_USER@127.0.0.1:$port/$SPROUT_PG_DB"
            info "PgBouncer $("$bin" --version | head -n 1 | awk '{print $2}') (transaction mode) ready: $SPROUT_PGBOUNCER_URL"
            return 0
        fi
        sleep 0.25
    done
    warn "pgbouncer did not answer on 127.0.0.1:$port"
    tail -n 20 "$dir/pgbouncer.log" >&2 2>/dev/null || true
    stop_pgbouncer
    return 1
}

stop_pgbouncer() {
    local dir="${SPROUT_PGBOUNCER_DIR:-}"
    [[ -n "$dir" ]] || return 0
    local pid=""
    [[ -f "$dir/pgbouncer.pid" ]] && pid=$(cat "$dir/pgbouncer.pid" 2>/dev/null || true)
    if [[ "$pid" =~ ^[0-9]+$ ]]; then
        kill -INT "$pid" 2>/dev/null || true
        local _
        for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
        kill -KILL "$pid" 2>/dev/null || true
    fi
    unset SPROUT_PGBOUNCER_DIR SPROUT_PGBOUNCER_PORT SPROUT_PGBOUNCER_URL
    return 0
}
