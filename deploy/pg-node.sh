#!/bin/sh
# The entry point of deploy/postgres-ha.Dockerfile: creates a pg_auto_failover monitor or
# node in $PGDATA the first time (ROLE=monitor, or ROLE=node with NODE_NAME and MONITOR set),
# then runs its keeper. A node archives its WAL into pgBackRest's repository
# (deploy/postgresql-backup.conf) while it is the primary.
#
# Authentication: `trust` on the compose network, as in pg_auto_failover's own examples, and
# TLS with a self-signed certificate. On a network that is not yours alone, use scram-sha-256
# with passwords (pg_autoctl --auth scram-sha-256, and `pg_autoctl config set
# replication.password`) and certificates you trust; docs/OPERATIONS.md says where.
set -eu
host=$(hostname)
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  case "${ROLE:?ROLE is monitor or node}" in
    monitor)
      pg_autoctl create monitor --hostname "$host" --auth trust --ssl-self-signed
      ;;
    node)
      pg_autoctl create postgres --hostname "$host" --name "${NODE_NAME:?}" \
        --monitor "${MONITOR:?}" --auth trust --ssl-self-signed --pg-hba-lan \
        --username turnpost --dbname turnpost
      cat /etc/turnpost/postgresql-backup.conf >> "$PGDATA/postgresql.conf"
      ;;
  esac
fi
exec pg_autoctl run
