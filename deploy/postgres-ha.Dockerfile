# PostgreSQL 15 with pg_auto_failover (monitor or node) and pgBackRest, from Debian's packages,
# for docker-compose.ha.yml. One image for the monitor and the nodes; deploy/pg-node.sh says
# which it is.
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-15 postgresql-15-auto-failover \
       pg-auto-failover-cli pgbackrest ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir -p /var/run/postgresql /var/lib/pgbackrest /var/log/pgbackrest /etc/pgbackrest \
    && chown postgres:postgres /var/run/postgresql /var/lib/pgbackrest /var/log/pgbackrest
COPY deploy/pg-node.sh /usr/local/bin/pg-node
COPY deploy/pgbackrest.conf /etc/pgbackrest/pgbackrest.conf
COPY deploy/postgresql-backup.conf /etc/turnpost/postgresql-backup.conf
ENV PATH=/usr/lib/postgresql/15/bin:$PATH \
    PGDATA=/var/lib/postgresql/15/main \
    XDG_CONFIG_HOME=/var/lib/postgresql/.config \
    XDG_DATA_HOME=/var/lib/postgresql/.local/share
USER postgres
WORKDIR /var/lib/postgresql
ENTRYPOINT ["pg-node"]
