# mediagen-mock as a service (docs/guides/container.md, decisions/0023-container-image.md).
#
#   docker build -t mediagen-mock .
#   docker run --rm -p 127.0.0.1:4010:4010 -v mediagen-state:/data mediagen-mock
#
# Every flag of the command is an environment variable (MEDIAGEN_MOCK_CLOCK=manual, MEDIAGEN_MOCK_SEED=7,
# MEDIAGEN_MOCK_CONTROL_TOKEN=..., see `mediagen-mock --help`). Behind a TLS-intercepting proxy, give npm the
# proxy's CA bundle as the build secret "ca": --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt.

# Any Debian-based image with Node 20.19 or later: the official one by default, or one of Debian's nodejs package.
ARG BASE=node:20-slim

FROM ${BASE} AS build
# npm: the official Node images carry it; a base of Debian's nodejs package gets Debian's npm (this stage only).
RUN command -v npm >/dev/null \
 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >/dev/null \
     && rm -rf /var/lib/apt/lists/*)
WORKDIR /src
COPY package.json package-lock.json ./
# No install scripts: the dependencies' own are not needed (esbuild ships its binary as a package), and the sources are not copied yet.
RUN --mount=type=secret,id=ca,required=false \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi; \
    npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
COPY scripts/bundle-container.mjs scripts/ui-build.mjs scripts/
COPY schemas schemas
COPY mock mock
# the proxy (--upstream) checks answers with the verifier's checks
COPY verify verify
COPY spec spec
# /opt/mediagen-mock: the mock and its dependencies in a few JavaScript files, the dashboard's bundle (dist/ui), the
# documents and the docs renderer.
RUN node scripts/bundle-container.mjs /opt/mediagen-mock

FROM ${BASE}
LABEL org.opencontainers.image.title="mediagen-mock" \
      org.opencontainers.image.description="Stateful, deterministic mock of the Media Generation Service" \
      org.opencontainers.image.licenses="MIT"
# eSpeak NG speaks the speech endpoints' words (docs/guides/media.md, "Speech"): a separate GPL-3.0 program the mock
# runs as a process (never linked). About +18 MB in the image (194 to 212 MB) (with libpulse0 and the X11 client libraries it pulls in);
# the dictionaries of languages outside the voice catalogue (8 MB) are removed. Without it the mock speaks in tones.
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends espeak-ng >/dev/null \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/log/apt /var/log/dpkg.log /usr/share/doc/* /usr/share/man/* \
 && cd /usr/lib/*/espeak-ng-data \
 && for f in *_dict; do case "$f" in en_dict|cmn_dict|ja_dict|es_dict|pt_dict|fr_dict|de_dict|tr_dict|ko_dict|it_dict|th_dict|vi_dict) ;; *) rm -f "$f" ;; esac; done \
 && espeak-ng --version
RUN groupadd --gid 10001 mock \
 && useradd --uid 10001 --gid mock --home-dir /app --no-create-home --shell /usr/sbin/nologin mock \
 && mkdir /data && chown mock:mock /data \
 && printf '#!/bin/sh\nexec node /app/dist/cli.js "$@"\n' > /usr/local/bin/mediagen-mock \
 && chmod 755 /usr/local/bin/mediagen-mock
COPY --from=build /opt/mediagen-mock /app
# Flags as variables, so that `docker run IMAGE --seed 7` and a CI `services:` entry (no arguments) both keep them.
# Listening beyond loopback, the control API needs a token: MEDIAGEN_MOCK_CONTROL_TOKEN (else one is generated
# and printed at start). The state lives in the volume: a clean stop (docker stop: SIGTERM) saves it there.
ENV NODE_ENV=production \
    MEDIAGEN_MOCK_HOST=0.0.0.0 \
    MEDIAGEN_MOCK_PORT=4010 \
    MEDIAGEN_MOCK_STATE=/data/state.json
USER mock
WORKDIR /data
VOLUME ["/data"]
EXPOSE 4010
# No curl in a slim image: Node's fetch. /__mock/health needs no token. Docker runs the first check one interval after
# the start (CI services and compose's service_healthy wait for it): 5 s. Each check starts a short node process.
HEALTHCHECK --interval=5s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.MEDIAGEN_MOCK_PORT+'/__mock/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["mediagen-mock"]
