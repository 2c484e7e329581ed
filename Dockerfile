# turnpost from source: build with cargo, run on a slim Debian.
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY migrations ./migrations
COPY tests ./tests
RUN cargo build --release --locked --bin turnpost

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* && useradd --system --home /var/lib/turnpost turnpost
COPY --from=build /src/target/release/turnpost /usr/local/bin/turnpost
USER turnpost
WORKDIR /var/lib/turnpost
ENV TURNPOST_ADDR=0.0.0.0:8080 TURNPOST_DATA_DIR=/var/lib/turnpost
EXPOSE 8080
ENTRYPOINT ["turnpost"]
CMD ["serve"]
