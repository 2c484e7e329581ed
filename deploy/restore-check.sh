#!/usr/bin/env bash
# Restores Turnpost's database from a pgBackRest backup, up to a point in time, into a NEW
# data directory, starts a PostgreSQL on it (loopback only, WAL archiving off, so that the
# copy never writes into the repository), waits until recovery has ended, and checks that
# every game refolds from its log to its stored snapshot (`turnpost replay --all`).
#
# Run it as the PostgreSQL server user (the owner of the repository):
#   sudo -u postgres PGBACKREST_CONFIG=/etc/pgbackrest/pgbackrest.conf PGBACKREST_STANZA=turnpost \
#     deploy/restore-check.sh '2026-11-29 10:15:00+00' /var/lib/postgresql/restore 5433
#
#   $1  the point in time to stop at (anything PostgreSQL's recovery_target_time takes);
#       "latest" replays every archived WAL segment
#   $2  a data directory that does not exist yet (or is empty)
#   $3  the port the restored server listens on, on 127.0.0.1
#
# Environment: PGBACKREST_CONFIG, PGBACKREST_STANZA (pgBackRest reads them), PGUSER (the
# database user to check with; default: this user), PG_BINDIR (the
# server binaries; default: the highest version under /usr/lib/postgresql), TURNPOST (the
# turnpost binary; default: the one on the PATH), RESTORE_DATABASE (default turnpost),
# TURNPOST_DATA_DIR (a directory `turnpost replay` may use; default a temporary one).
#
# The restored server keeps running (its log: <data directory>/restore-check.log) so that it
# can be inspected, copied from, or made the new primary; stop it with
#   pg_ctl -D <data directory> stop
# It exits non-zero if the restore, the recovery or the check fails.
set -euo pipefail

target=${1:?the point in time (or "latest")}
pgdata=${2:?a new data directory}
port=${3:?a port for the restored server}
database=${RESTORE_DATABASE:-turnpost}
turnpost=${TURNPOST:-turnpost}
if [ -z "${PG_BINDIR:-}" ]; then
  PG_BINDIR=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi
: "${PGBACKREST_STANZA:?the pgBackRest stanza}"

if [ -e "$pgdata" ] && [ -n "$(ls -A "$pgdata")" ]; then
  echo "restore-check: $pgdata is not empty; restore into a new directory" >&2
  exit 2
fi
mkdir -p "$pgdata"
chmod 700 "$pgdata"

echo "restore-check: restoring stanza $PGBACKREST_STANZA up to $target into $pgdata"
if [ "$target" = latest ]; then
  pgbackrest --pg1-path="$pgdata" --type=default restore
else
  pgbackrest --pg1-path="$pgdata" --type=time --target="$target" --target-action=promote restore
fi

# The copy must not archive into the repository of the cluster it was restored from, nor
# listen beyond this machine; its sockets go into its own directory.
"$PG_BINDIR/pg_ctl" -D "$pgdata" -l "$pgdata/restore-check.log" -w -t 300 start -o \
  "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories='$pgdata' -c archive_mode=off"

url="postgres://${PGUSER:-$(id -un)}@127.0.0.1:$port/$database"
for _ in $(seq 600); do
  if [ "$("$PG_BINDIR/psql" -X -A -t -c 'select pg_is_in_recovery()' "$url" 2>/dev/null)" = f ]; then
    break
  fi
  sleep 0.5
done
if [ "$("$PG_BINDIR/psql" -X -A -t -c 'select pg_is_in_recovery()' "$url")" != f ]; then
  echo "restore-check: the restored server is still recovering after 5 minutes" >&2
  exit 1
fi
echo "restore-check: recovered to $("$PG_BINDIR/psql" -X -A -t -c 'select now()' "$url")"

scratch=
if [ -z "${TURNPOST_DATA_DIR:-}" ]; then
  scratch=$(mktemp -d)
  export TURNPOST_DATA_DIR=$scratch
fi
# `replay` reads; it needs a secret only because every command loads the same settings.
status=0
DATABASE_URL=$url TURNPOST_JWT_SECRET=${TURNPOST_JWT_SECRET:-restore-check-reads-only-$$-xxxxxxxxxxxxxxxx} \
  "$turnpost" replay --all || status=$?
if [ -n "$scratch" ]; then rm -rf "$scratch"; fi
echo "restore-check: the restored server runs on 127.0.0.1:$port; stop it with: $PG_BINDIR/pg_ctl -D $pgdata stop"
exit $status
