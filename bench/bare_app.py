"""The anchor of bench/trivial_bench.py: a bare Flask "ok", served by the same gunicorn
settings as the portal (portal/gunicorn_conf.py)."""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def ok() -> str:
    return "ok"
