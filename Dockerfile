# The portal's image: one image for the web instances (gunicorn) and the workers.
# NOT BUILT ON THE DEVELOPMENT MACHINE: its base image comes from a registry that machine
# cannot reach (docs/OPERATIONS.md, "Image and compose file"). Build it where Docker Hub
# (or a mirror of python:3.11-slim and node:20-slim) is reachable:
#   docker build -t portal .
FROM node:20-slim AS assets
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
RUN mkdir -p /vendor/uswds && cp -R node_modules/@uswds/uswds/dist/css \
      node_modules/@uswds/uswds/dist/js node_modules/@uswds/uswds/dist/fonts \
      node_modules/@uswds/uswds/dist/img /vendor/uswds/ && find /vendor -name '*.map' -delete

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PORTAL_ENV=production \
    PORTAL_INSTANCE=/var/lib/portal PORTAL_BIND=0.0.0.0:8000 \
    PROMETHEUS_MULTIPROC_DIR=/var/lib/portal/metrics
RUN useradd --system --home-dir /var/lib/portal --create-home portal
WORKDIR /app
COPY pyproject.toml README.md alembic.ini babel.cfg ./
COPY portal ./portal
COPY migrations ./migrations
COPY templates ./templates
COPY translations ./translations
COPY --from=assets /vendor ./portal/static/vendor
RUN pip install --no-cache-dir . && pybabel compile -d translations
USER portal
EXPOSE 8000
# The metrics' folder is emptied before each start (prometheus_client's multiprocess mode).
CMD ["sh", "-c", "rm -rf \"$PROMETHEUS_MULTIPROC_DIR\" && mkdir -p \"$PROMETHEUS_MULTIPROC_DIR\" && exec gunicorn -c python:portal.gunicorn_conf 'portal.app:create_app()'"]
