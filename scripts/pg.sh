#!/usr/bin/env bash
# A real, throwaway PostgreSQL server on loopback for the tests: our own cluster in DIR
# (never the Debian service cluster), a superuser `navegador` with a random password,
# 127.0.0.1 only, on a free port, with durability turned off for speed.
#
# Usage:
#   bash scripts/pg.sh start DIR          start (or reuse) the server in DIR; prints its URL
#   bash scripts/pg.sh url DIR            print the URL of the server running in DIR (exit 1 if none)
#   bash scripts/pg.sh createdb DIR NAME  create an empty database NAME; prints its URL
#   bash scripts/pg.sh stop DIR           stop the server in DIR (no error if none is running)
#
# The server also speaks TLS: its CA certificate is DIR/ca.pem (for sslrootcert=...).
# stdout carries only the URL (postgres://navegador:PASSWORD@127.0.0.1:PORT/DB); progress and
# errors go to stderr. Works as root (the server runs as the unprivileged `postgres` user, and
# PostgreSQL is installed with apt-get if missing) and as an ordinary user (runs as that user).
# PG_BIN=/path/to/bin overrides the search for the server binaries.
set -euo pipefail

PG_USER=postgres        # the OS user that owns and runs the cluster when we are root
SUPERUSER=navegador     # the database superuser
TEST_DB=navegador_test  # the database created by `start`
START_TIMEOUT=30        # seconds

log() { printf 'pg.sh: %s\n' "$*" >&2; }
die() { printf 'pg.sh: error: %s\n' "$*" >&2; exit 1; }

usage() { # the header comment above, as text
    sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
}

is_root() { [ "$(id -u)" -eq 0 ]; }

# ---------------------------------------------------------------------------------------------
# Binaries

install_postgres() {
    is_root || die "PostgreSQL server binaries not found and we are not root to install them.
  Fix: sudo apt-get install -y postgresql-15   (or set PG_BIN=/path/to/postgresql/bin)"
    command -v apt-get >/dev/null || die "PostgreSQL server binaries not found and apt-get is not available.
  Fix: install the PostgreSQL server (postgres, initdb, pg_ctl, pg_isready, psql) and set PG_BIN to its bin directory"
    local apt=(apt-get install -y --no-install-recommends)
    log "PostgreSQL not found; installing postgresql-15 with apt-get (this takes a minute)..."
    export DEBIAN_FRONTEND=noninteractive
    if "${apt[@]}" postgresql-15 >&2; then return 0; fi
    log "install failed; refreshing the package lists (apt-get update) and retrying..."
    apt-get update >&2 || log "apt-get update failed; trying anyway"
    if "${apt[@]}" postgresql-15 >&2; then return 0; fi
    log "postgresql-15 is not installable here; falling back to the distribution's 'postgresql' package..."
    "${apt[@]}" postgresql >&2 || die "could not install PostgreSQL with apt-get (see the output above).
  Fix: apt-get update && apt-get install -y postgresql   (or set PG_BIN=/path/to/postgresql/bin)"
}

# Sets BIN to the directory holding postgres/initdb/pg_ctl (highest installed version first).
find_bin() {
    if [ -n "${PG_BIN:-}" ]; then
        [ -x "$PG_BIN/postgres" ] || die "PG_BIN=$PG_BIN has no executable 'postgres'. Fix: point PG_BIN at the PostgreSQL bin directory"
        BIN=$PG_BIN
        return
    fi
    local cand p
    cand=$(ls -d /usr/lib/postgresql/*/bin/postgres 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -z "$cand" ] && p=$(command -v postgres 2>/dev/null); then
        cand=$(readlink -f "$p")
    fi
    if [ -z "$cand" ]; then
        install_postgres
        cand=$(ls -d /usr/lib/postgresql/*/bin/postgres 2>/dev/null | sort -V | tail -n 1 || true)
        [ -n "$cand" ] || die "apt-get reported success but no /usr/lib/postgresql/*/bin/postgres exists.
  Fix: check 'dpkg -L postgresql-15' or set PG_BIN=/path/to/postgresql/bin"
    fi
    BIN=$(dirname "$cand")
}

# Sets INITDB PG_CTL PG_ISREADY PSQL and MAJOR from BIN (client tools may live in PATH instead).
find_tools() {
    find_bin
    local t v
    for t in initdb pg_ctl pg_isready psql; do
        if [ -x "$BIN/$t" ]; then v="$BIN/$t"
        elif v=$(command -v "$t" 2>/dev/null); then :
        else die "'$t' not found next to $BIN/postgres nor in PATH. Fix: install the PostgreSQL client and server packages (apt-get install -y postgresql-15)"
        fi
        case $t in
            initdb) INITDB=$v ;; pg_ctl) PG_CTL=$v ;; pg_isready) PG_ISREADY=$v ;; psql) PSQL=$v ;;
        esac
    done
    MAJOR=$("$BIN/postgres" --version | sed -n 's/^[^0-9]*\([0-9][0-9]*\).*/\1/p')
    [ -n "$MAJOR" ] || die "could not read the version of $BIN/postgres"
}

# ---------------------------------------------------------------------------------------------
# Running things as the cluster's owner

ensure_pg_user() {
    is_root || return 0
    if ! id -u "$PG_USER" >/dev/null 2>&1; then
        log "creating the system user '$PG_USER' (PostgreSQL refuses to run as root)"
        useradd --system --user-group --home-dir /var/lib/postgresql --no-create-home \
            --shell /usr/sbin/nologin "$PG_USER" 2>/dev/null \
            || adduser --system --group --home /var/lib/postgresql --no-create-home "$PG_USER" >&2 \
            || die "could not create the system user '$PG_USER'. Fix: useradd --system --user-group $PG_USER"
    fi
}

# as_owner CMD...: run as the postgres user when root, else as ourselves; cwd = DIR (the
# caller's cwd, e.g. /root, may be unreadable for that user). fd 9 (our lock on DIR) is closed
# so that the postmaster started by pg_ctl does not inherit it and hold the lock forever.
as_owner() {
    (
        exec 9>&-
        cd "$DIR"
        if ! is_root; then
            exec "$@"
        elif command -v runuser >/dev/null; then
            exec runuser -u "$PG_USER" -- "$@"
        else
            exec setpriv --reuid="$PG_USER" --regid="$PG_USER" --init-groups -- "$@"
        fi
    )
}

# ---------------------------------------------------------------------------------------------
# State in DIR: data/ (the cluster), password, url, server.log, .lock

set_dir() {
    [ -n "${1:-}" ] || { usage >&2; die "missing DIR"; }
    DIR=$1
}

resolve_existing_dir() {
    [ -d "$DIR" ] || return 1
    DIR=$(cd "$DIR" && pwd -P)
    DATA=$DIR/data
}

prepare_dir() {
    mkdir -p "$DIR" || die "cannot create $DIR"
    DIR=$(cd "$DIR" && pwd -P)
    DATA=$DIR/data
    if is_root; then
        chown "$PG_USER:" "$DIR"
        chmod 0700 "$DIR"
        as_owner test -w "$DIR" 2>/dev/null || die "the '$PG_USER' user cannot write to $DIR (a parent directory is not searchable by it).
  Fix: chmod o+x on the parent directories of $DIR, or use a DIR under /tmp"
    fi
}

# is_running: 0 if the cluster in DATA has a live postmaster.
is_running() {
    [ -f "$DATA/postmaster.pid" ] || return 1
    as_owner "$PG_CTL" status -D "$DATA" >/dev/null 2>&1
}

# The port of the running server, from postmaster.pid (line 4).
running_port() { sed -n 4p "$DATA/postmaster.pid" 2>/dev/null; }

url_for() { # DB
    local pw port
    pw=$(cat "$DIR/password" 2>/dev/null) || die "$DIR/password is missing. Fix: bash $0 stop $DIR && rm -rf $DIR, then start again"
    port=$(running_port)
    [ -n "$port" ] || die "cannot read the port from $DATA/postmaster.pid"
    printf 'postgres://%s:%s@127.0.0.1:%s/%s\n' "$SUPERUSER" "$pw" "$port" "$1"
}

# Serialises start/stop/createdb on one DIR (tests may call start concurrently).
lock_dir() {
    exec 9>"$DIR/.lock"
    if command -v flock >/dev/null; then flock -w 120 9 || die "timed out waiting for the lock on $DIR/.lock"; fi
}

random_hex() {
    od -An -tx1 -N16 /dev/urandom | tr -d ' \n'
}

free_port() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' && return
    fi
    local p
    for ((p = 54320 + RANDOM % 200; p < 60000; p++)); do
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
    done
    die "no free TCP port found on 127.0.0.1"
}

psql_q() { # URL SQL...  (quiet, no psqlrc, stop on error)
    local url=$1; shift
    "$PSQL" -X -q -v ON_ERROR_STOP=1 -d "$url" "$@"
}

# ---------------------------------------------------------------------------------------------
# Commands

init_cluster() {
    log "initialising a PostgreSQL $MAJOR cluster in $DATA"
    local pwfile=$DIR/password
    random_hex > "$pwfile"
    chmod 0600 "$pwfile"
    is_root && chown "$PG_USER:" "$pwfile"
    local auth=scram-sha-256
    [ "$MAJOR" -ge 14 ] || auth=md5
    local args=(-D "$DATA" -U "$SUPERUSER" --pwfile="$pwfile" --auth="$auth"
                --encoding=UTF8 --locale=C --nosync)
    [ "$MAJOR" -lt 15 ] || args+=(--locale-provider=libc)
    [ "$MAJOR" -lt 13 ] || args+=(--no-instructions)
    local out
    out=$(as_owner "$INITDB" "${args[@]}" 2>&1) || { printf '%s\n' "$out" >&2; die "initdb failed (see above). Fix: rm -rf $DATA and run start again"; }

    # Unix sockets in DIR, unless the socket path would exceed the kernel's 107-byte limit.
    local sockdir=$DIR
    if [ $(( ${#DIR} + 17 )) -gt 107 ]; then
        log "warning: $DIR is too long for a unix socket path; the server listens on TCP only"
        sockdir=
    fi
    cat >> "$DATA/postgresql.conf" <<EOF

# --- scripts/pg.sh: a throwaway test server ---
listen_addresses = '127.0.0.1'
unix_socket_directories = '$sockdir'
max_connections = 200
fsync = off
synchronous_commit = off
full_page_writes = off
password_encryption = '$auth'
EOF
    make_tls
}

# TLS for clients that ask for it (sslmode=require): a throwaway CA (DIR/ca.pem, what a
# client passes as sslrootcert) and a server certificate for 127.0.0.1 and localhost signed
# by it. Plain connections stay allowed. Skipped with a warning when openssl is missing.
make_tls() {
    if ! command -v openssl >/dev/null; then
        log "warning: openssl not found; the server runs without TLS (sslmode=require tests will fail)"
        return
    fi
    (
        cd "$DIR"
        openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=navegador test CA" \
            -keyout ca.key -out ca.pem >/dev/null 2>&1
        openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout server.key -out server.csr >/dev/null 2>&1
        printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n' > server.ext
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 30 \
            -extfile server.ext -out server.pem >/dev/null 2>&1
        rm -f server.csr server.ext ca.srl ca.key
    ) || die "could not make the test TLS certificates with openssl"
    chmod 0600 "$DIR/server.key"
    chmod 0644 "$DIR/ca.pem" "$DIR/server.pem"
    if is_root; then chown "$PG_USER:" "$DIR/server.key" "$DIR/server.pem" "$DIR/ca.pem"; fi
    cat >> "$DATA/postgresql.conf" <<EOF
ssl = on
ssl_cert_file = '$DIR/server.pem'
ssl_key_file = '$DIR/server.key'
EOF
}

start_server() {
    local attempt port off
    : >> "$DIR/server.log"
    is_root && chown "$PG_USER:" "$DIR/server.log"
    for attempt in 1 2 3 4 5; do
        port=$(free_port)
        off=$(stat -c %s "$DIR/server.log")
        log "starting the server on 127.0.0.1:$port (log: $DIR/server.log)"
        if as_owner "$PG_CTL" start -D "$DATA" -l "$DIR/server.log" -o "-p $port" \
                -w -t "$START_TIMEOUT" >/dev/null 2>&1; then
            wait_ready "$port"
            return
        fi
        # Someone took the port between our probe and the bind: pick another.
        if tail -c +"$((off + 1))" "$DIR/server.log" | grep -q 'Address already in use'; then
            log "port $port was taken meanwhile; retrying with another"
            continue
        fi
        break
    done
    log "the server did not start; the end of $DIR/server.log (this attempt):"
    tail -c +"$((off + 1))" "$DIR/server.log" | tail -n 30 >&2 || true
    exit 1
}

wait_ready() { # PORT
    local i
    for ((i = 0; i < START_TIMEOUT * 2; i++)); do
        if "$PG_ISREADY" -q -h 127.0.0.1 -p "$1"; then return 0; fi
        sleep 0.5
    done
    log "the server does not accept connections on 127.0.0.1:$1 after ${START_TIMEOUT}s; the end of $DIR/server.log:"
    tail -n 30 "$DIR/server.log" >&2 || true
    exit 1
}

probe_icu() { # URL
    local sql="CREATE COLLATION IF NOT EXISTS nocase_probe (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
SELECT 'ABC' = 'abc' COLLATE nocase_probe;
DROP COLLATION nocase_probe;"
    local out
    if out=$(psql_q "$1" -At -c "$sql" 2>&1); then
        if [ "$out" = t ]; then
            log "ICU collations: available (case-insensitive 'und-u-ks-level2' works)"
        else
            log "warning: the ICU collation 'und-u-ks-level2' was created but 'ABC' = 'abc' gave '$out'"
        fi
    else
        log "warning: ICU collations are NOT available in this PostgreSQL build; case-insensitive"
        log "  (nondeterministic) collations will fail. psql said: $out"
        log "  Fix: use a PostgreSQL built with ICU (Debian's postgresql-15 is)"
    fi
}

cmd_start() {
    set_dir "${1:-}"
    find_tools
    ensure_pg_user
    prepare_dir
    lock_dir
    if is_running; then
        log "a server is already running in $DIR"
        url_for "$TEST_DB" | tee "$DIR/url"
        return
    fi
    if [ ! -f "$DATA/PG_VERSION" ]; then
        [ ! -e "$DATA" ] || [ -z "$(ls -A "$DATA")" ] || die "$DATA exists but is not a PostgreSQL cluster. Fix: remove it (rm -rf $DATA) or use another DIR"
        init_cluster
    else
        [ -s "$DIR/password" ] || die "$DATA is a cluster but $DIR/password is missing. Fix: rm -rf $DIR and start again"
        local have; have=$(cat "$DATA/PG_VERSION")
        [ "${have%%.*}" = "$MAJOR" ] || die "$DATA was made by PostgreSQL $have but the binaries are $MAJOR. Fix: rm -rf $DIR and start again"
    fi
    start_server
    local admin; admin=$(url_for postgres)
    if [ "$(psql_q "$admin" -At -c "SELECT 1 FROM pg_database WHERE datname = '$TEST_DB'")" != 1 ]; then
        psql_q "$admin" -c "CREATE DATABASE $TEST_DB" || die "could not create the database $TEST_DB"
    fi
    local url; url=$(url_for "$TEST_DB")
    probe_icu "$url"
    log "ready: $("$PSQL" -X -At -d "$url" -c 'SHOW server_version')"
    printf '%s\n' "$url" | tee "$DIR/url"
}

cmd_url() {
    set_dir "${1:-}"
    resolve_existing_dir || die "no server in $DIR (the directory does not exist). Fix: bash $0 start $DIR"
    find_tools
    is_running || die "no server is running in $DIR. Fix: bash $0 start $DIR"
    url_for "$TEST_DB"
}

cmd_createdb() {
    set_dir "${1:-}"
    local name=${2:-}
    [ -n "$name" ] || { usage >&2; die "missing NAME"; }
    [[ $name =~ ^[A-Za-z_][A-Za-z0-9_]{0,62}$ ]] || die "bad database name '$name': use letters, digits and _ (at most 63, not starting with a digit)"
    resolve_existing_dir || die "no server in $DIR. Fix: bash $0 start $DIR"
    find_tools
    is_running || die "no server is running in $DIR. Fix: bash $0 start $DIR"
    psql_q "$(url_for postgres)" -c "CREATE DATABASE \"$name\"" \
        || die "could not create the database '$name' (does it exist already? each test should use a new name)"
    url_for "$name"
}

cmd_stop() {
    set_dir "${1:-}"
    resolve_existing_dir || { log "no server in $DIR (no such directory)"; return 0; }
    find_tools
    lock_dir
    if ! is_running; then
        log "no server is running in $DIR"
        return 0
    fi
    as_owner "$PG_CTL" stop -D "$DATA" -m fast -w -t 60 >&2 || die "pg_ctl stop failed; see $DIR/server.log"
    rm -f "$DIR/url"  # the next start picks a new port
}

case "${1:-}" in
    start) shift; cmd_start "$@" ;;
    stop) shift; cmd_stop "$@" ;;
    url) shift; cmd_url "$@" ;;
    createdb) shift; cmd_createdb "$@" ;;
    -h|--help|help) usage ;;
    '') usage >&2; exit 2 ;;
    *) usage >&2; die "unknown command '$1'" ;;
esac
