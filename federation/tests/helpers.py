"""A remote actor for in-process tests: a real key pair and an actor document recorded as a fetch would record
it (``actors.record_actor``), and requests signed with its key as its server would sign them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.test import Client

from federation import contexts, signatures
from federation.models import RemoteActor
from federation.services import actors
from timelines import queue


@dataclass
class Remote:
    uri: str
    key: rsa.RSAPrivateKey
    actor: RemoteActor

    @property
    def key_id(self) -> str:
        return f"{self.uri}#main-key"

    @property
    def followers(self) -> str:
        return f"{self.uri}/followers"


def remote_actor(login: str, domain: str = "remote.example", **fields: Any) -> Remote:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    uri = f"https://{domain}/users/{login}"
    document = {
        "id": uri,
        "type": "Person",
        "preferredUsername": login,
        "name": login.title(),
        "inbox": f"{uri}/inbox",
        "followers": f"{uri}/followers",
        "endpoints": {"sharedInbox": f"https://{domain}/inbox"},
        "publicKey": {"id": f"{uri}#main-key", "owner": uri, "publicKeyPem": pem.decode()},
        **fields,
    }
    return Remote(uri=uri, key=key, actor=actors.record_actor(document))


def post_signed(
    client: Client, remote: Remote, activity: Any, *, path: str = "/inbox", body: bytes | None = None, **change: str
):
    """POST ``activity`` to ``path`` signed by ``remote`` (``body`` instead of its JSON; ``change`` replaces
    headers after signing, to tamper with them)."""
    raw = body if body is not None else json.dumps(activity).encode()
    headers = signatures.sign(
        method="POST", url=f"http://testserver{path}", key_id=remote.key_id, key=remote.key, body=raw
    )
    headers.update(change)
    meta = {f"HTTP_{name.upper().replace('-', '_')}": value for name, value in headers.items()}
    return client.generic("POST", path, raw, content_type="application/activity+json", **meta)


def queued_jobs() -> list[Any]:
    return queue.get_queue().jobs


def run_queued(prefix: str = "federation.tasks.process_inbound") -> list[Any]:
    """Run the queued jobs of entry point ``prefix`` in this process, as a worker would (their entry point with
    their arguments), and take them off the queue; returns their results."""
    results = []
    job_queue = queue.get_queue()
    for job in job_queue.jobs:
        if job.func_name == prefix:
            results.append(job.perform())
            job_queue.remove(job)
    return results


def public_create(remote: Remote, number: int, text: str = "hello", **fields: Any) -> dict[str, Any]:
    """The ``Create`` of ``remote``'s public Note number ``number`` saying ``text`` (``fields`` added to the Note),
    as Mastodon addresses one: to the public, cc its followers."""
    note = {
        "id": f"{remote.uri}/statuses/{number}",
        "type": "Note",
        "attributedTo": remote.uri,
        "content": f"<p>{text}</p>",
        "to": [contexts.PUBLIC],
        "cc": [remote.followers],
        **fields,
    }
    return {"id": f"{note['id']}/activity", "type": "Create", "actor": remote.uri, "object": note}
