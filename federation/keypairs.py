"""Key pairs of local accounts and of the instance actor: made on first use, kept in SQL (``KeyPair``).

A key is made the first time an account is served as an actor or signs a request, not at sign-up: most accounts
of a site that never federates never need one, and an RSA key costs tens of milliseconds to make.
"""

from __future__ import annotations

from functools import lru_cache

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from django.db import IntegrityError, transaction

from federation.models import KeyPair

INSTANCE_UID = 0
KEY_BITS = 2048


def _generate() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return private, public


def key_pair(uid: int) -> KeyPair:
    """The key pair of account ``uid`` (``INSTANCE_UID``: the instance actor), made now if it has none. Two
    racing first uses keep the same pair: the loser of the unique insert reads the winner's."""
    found = KeyPair.objects.filter(uid=uid).first()
    if found is not None:
        return found
    private, public = _generate()
    try:
        with transaction.atomic():
            return KeyPair.objects.create(uid=uid, private_key_pem=private, public_key_pem=public)
    except IntegrityError:
        return KeyPair.objects.get(uid=uid)


def public_key_pem(uid: int) -> str:
    return key_pair(uid).public_key_pem


@lru_cache(maxsize=256)
def _load_private(pem: str) -> rsa.RSAPrivateKey:
    key = serialization.load_pem_private_key(pem.encode(), password=None)
    if not isinstance(key, rsa.RSAPrivateKey):
        raise ValueError("not an RSA key")
    return key


def private_key(uid: int) -> rsa.RSAPrivateKey:
    """The loaded private key of ``uid`` (parsed keys are kept per process)."""
    return _load_private(key_pair(uid).private_key_pem)
