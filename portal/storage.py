"""Uploaded and generated files, stored by content hash behind one interface (evidence, print
files, documents); deleted only by the retention policy (`portal.roll.retention`).

`store()` gives the configured store: the instance folder by default (`<instance>/files/`,
two levels of hash prefixes), or an S3-compatible object store when `STORAGE_S3_BUCKET` is
set (with `STORAGE_S3_ENDPOINT_URL` for a non-AWS server such as MinIO or moto's, and the
usual AWS credentials in the environment), so web workers on several machines share it.

A file's key is the SHA-256 of its bytes: the same file uploaded twice is stored once, and
what is read back can be checked against its key. Nothing here decides who may read a file:
the web layer serves files only through an access-checked route.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from portal import config

_KEY = re.compile(r"^[0-9a-f]{64}$")


def content_key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _check_key(key: str) -> str:
    if not _KEY.match(key):
        raise ValueError("a storage key is a SHA-256 hex digest")
    return key


class Store(Protocol):
    def put(self, data: bytes) -> str: ...
    def get(self, key: str) -> bytes: ...
    def exists(self, key: str) -> bool: ...
    def delete(self, key: str) -> bool: ...


class FolderStore:
    """Files in a folder: `<root>/ab/cd/abcd...` (written to a temporary name, then renamed,
    so a reader never sees half a file)."""

    def __init__(self, root: Path | str):
        self.root = Path(root)

    def _path(self, key: str) -> Path:
        key = _check_key(key)
        return self.root / key[:2] / key[2:4] / key

    def put(self, data: bytes) -> str:
        key = content_key(data)
        path = self._path(key)
        if path.exists():
            return key
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".upload-")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return key

    def get(self, key: str) -> bytes:
        data = self._path(key).read_bytes()
        if content_key(data) != key:
            raise OSError(f"stored file {key} does not match its hash")
        return data

    def exists(self, key: str) -> bool:
        return self._path(key).exists()

    def delete(self, key: str) -> bool:
        """Remove the file; False when it was not there."""
        try:
            self._path(key).unlink()
        except FileNotFoundError:
            return False
        return True


class S3Store:
    """Files in an S3-compatible bucket (boto3), under `prefix` + the key."""

    def __init__(self, bucket: str, *, endpoint_url: str | None = None, prefix: str = "files/",
                 client: object | None = None):
        import boto3

        self.bucket, self.prefix = bucket, prefix
        self.client = client or boto3.client("s3", endpoint_url=endpoint_url or None)

    def _name(self, key: str) -> str:
        return self.prefix + _check_key(key)

    def put(self, data: bytes) -> str:
        key = content_key(data)
        if not self.exists(key):
            self.client.put_object(Bucket=self.bucket, Key=self._name(key), Body=data)
        return key

    def get(self, key: str) -> bytes:
        body = self.client.get_object(Bucket=self.bucket, Key=self._name(key))["Body"].read()
        if content_key(body) != key:
            raise OSError(f"stored file {key} does not match its hash")
        return body

    def exists(self, key: str) -> bool:
        from botocore.exceptions import ClientError

        try:
            self.client.head_object(Bucket=self.bucket, Key=self._name(key))
        except ClientError as e:
            if e.response.get("Error", {}).get("Code") in ("404", "NoSuchKey", "NotFound"):
                return False
            raise
        return True

    def delete(self, key: str) -> bool:
        """Remove the object (with versioning on, S3 keeps it as a noncurrent version until
        the bucket's lifecycle rule expires it); False when it was not there."""
        if not self.exists(key):
            return False
        self.client.delete_object(Bucket=self.bucket, Key=self._name(key))
        return True


def _keys(s3: Any, bucket: str) -> Iterator[tuple[str, int]]:
    """(key, size) of every object of `bucket`, in S3's order (by key's UTF-8 bytes), a page
    of 1,000 at a time."""
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for obj in page.get("Contents", []):
            yield obj["Key"], obj["Size"]


def copy_bucket(source: str, dest: str, endpoint_url: str | None = None,
                client: Any = None) -> tuple[int, int]:
    """Copy every object of bucket `source` into bucket `dest` (server-side, a page of 1,000
    keys at a time: constant memory), skipping a key `dest` already holds with the same size
    (files are content-addressed and never rewritten); (copied, skipped). The backup of the
    file store and its restore into a fresh bucket (`portal files copy`,
    docs/OPERATIONS.md)."""
    import boto3

    s3 = client or boto3.client("s3", endpoint_url=endpoint_url or None)
    copied = skipped = 0
    for key, size in _keys(s3, source):
        try:
            if s3.head_object(Bucket=dest, Key=key)["ContentLength"] == size:
                skipped += 1
                continue
        except s3.exceptions.ClientError:
            pass  # not there yet
        s3.copy_object(Bucket=dest, Key=key, CopySource={"Bucket": source, "Key": key})
        copied += 1
    return copied, skipped


def prune_bucket(source: str, dest: str, endpoint_url: str | None = None,
                 client: Any = None) -> int:
    """Delete from bucket `dest` every object `source` no longer holds (what the retention
    pass deleted: print files' access codes, removed evidence), so the backup keeps no file
    longer than the live store does (with versioning on `dest`, a noncurrent version stays
    until its lifecycle rule expires it, docs/OPERATIONS.md); the number deleted. Both
    listings are walked side by side in S3's key order: constant memory."""
    import boto3

    s3 = client or boto3.client("s3", endpoint_url=endpoint_url or None)
    live = _keys(s3, source)
    current = next(live, None)
    deleted = 0
    for key, _size in _keys(s3, dest):
        while current is not None and current[0].encode() < key.encode():
            current = next(live, None)
        if current is not None and current[0] == key:
            continue
        s3.delete_object(Bucket=dest, Key=key)
        deleted += 1
    return deleted


_override: Store | None = None


def use(store_: Store | None) -> None:
    """Tests: use this store instead of the configured one (None: back to the setting)."""
    global _override
    _override = store_


def store() -> Store:
    """The configured store (see the module's docstring)."""
    if _override is not None:
        return _override
    bucket = os.environ.get("STORAGE_S3_BUCKET")
    if bucket:
        return S3Store(bucket, endpoint_url=os.environ.get("STORAGE_S3_ENDPOINT_URL"))
    return FolderStore(config.instance_path() / "files")
