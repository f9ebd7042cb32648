"""`portal files copy SOURCE DEST [--prune]` against moto's S3 server: the file store's backup
copies what is new, skips what is there, and with `--prune` deletes from the backup what the
live store no longer holds (the retention pass's deletions), keys in any order."""

from __future__ import annotations

import socket
import uuid

import pytest
from click.testing import CliRunner

from portal.cli import main


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def s3(monkeypatch):  # noqa: ANN001, ANN201
    pytest.importorskip("moto.server", reason="moto's S3 server is not installed")
    import boto3
    from moto.server import ThreadedMotoServer
    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    for k, v in {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                 "AWS_DEFAULT_REGION": "us-east-1",
                 "STORAGE_S3_ENDPOINT_URL": f"http://127.0.0.1:{port}"}.items():
        monkeypatch.setenv(k, v)
    client = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}")
    # moto's buckets live in the process, whichever server: each test has its own two
    names = {b: f"{b}-{uuid.uuid4().hex[:12]}" for b in ("live", "backup")}
    for bucket in names.values():
        client.create_bucket(Bucket=bucket)
    yield client, names["live"], names["backup"]
    server.stop()


def _keys(client, bucket: str) -> list[str]:  # noqa: ANN001
    return sorted(o["Key"] for o in client.list_objects_v2(Bucket=bucket).get("Contents", []))


def test_the_backup_copies_the_new_and_prunes_what_retention_deleted(s3):
    s3, live_bucket, backup = s3
    live = ["aa" + "1" * 62, "bb" + "2" * 62, "dd" + "4" * 62]
    for key in live:
        s3.put_object(Bucket=live_bucket, Key=key, Body=key.encode())
    # the backup holds one live file already and three the live store has since deleted:
    # before every live key, between two, and after them all
    stale = ["00" + "0" * 62, "cc" + "3" * 62, "ff" + "6" * 62]
    for key in (live[0], *stale):
        s3.put_object(Bucket=backup, Key=key, Body=key.encode())

    out = CliRunner().invoke(main, ["files", "copy", live_bucket, backup])
    assert out.exit_code == 0, out.output
    assert "copied 2 files" in out.output and "(1 already there)" in out.output
    assert _keys(s3, backup) == sorted(live + stale)  # without --prune nothing is deleted

    out = CliRunner().invoke(main, ["files", "copy", live_bucket, backup, "--prune"])
    assert out.exit_code == 0, out.output
    assert "copied 0 files" in out.output and "deleted 3 files" in out.output
    assert _keys(s3, backup) == live
    assert s3.get_object(Bucket=backup, Key=live[2])["Body"].read() == live[2].encode()

    out = CliRunner().invoke(main, ["files", "copy", live_bucket, backup, "--prune"])
    assert "deleted 0 files" in out.output and _keys(s3, backup) == live


def test_an_empty_live_store_prunes_the_whole_backup(s3):
    s3, live_bucket, backup = s3
    s3.put_object(Bucket=backup, Key="ab" * 32, Body=b"x")
    out = CliRunner().invoke(main, ["files", "copy", live_bucket, backup, "--prune"])
    assert out.exit_code == 0 and "deleted 1 files" in out.output
    assert _keys(s3, backup) == []
