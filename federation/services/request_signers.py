"""Who signed an incoming request: the inboxes (every POST) and, with authorized fetch, the documents (every
GET) ask here. The signer's key is found by its ``keyId`` (``actors.actor_by_key_id``: known, or fetched) and
fetched once more when it fails, as the actor may have rotated it; a signer on a suspended server is named so
the caller refuses it before anything of it is fetched.
"""

from __future__ import annotations

from django.http import HttpRequest

from federation import signatures
from federation.services import actors, domain_blocks


def verified_actor(request: HttpRequest, body: bytes | None, signature: signatures.Signature) -> str:
    """The URI of the actor whose key signed ``request`` (``body`` None for a GET); raises ``SignatureError``."""
    headers = {name.lower(): value for name, value in request.headers.items()}
    target = request.get_full_path()
    failure: signatures.SignatureError | None = None
    for refresh in (False, True):
        try:
            actor = actors.actor_by_key_id(signature.key_id, refresh=refresh)
        except actors.ActorError as problem:
            raise failure or signatures.SignatureError(f"the key cannot be found: {problem}") from None
        try:
            signatures.verify(
                signature=signature,
                method=request.method or "POST",
                target=target,
                headers=headers,
                body=body,
                public_key_pem=actor.public_key_pem,
            )
            return actor.uri
        except signatures.SignatureError as problem:
            # The actor may have a new key since it was fetched: fetch it once more before refusing.
            failure = problem
            if refresh:
                raise
    raise signatures.SignatureError("the signature does not verify")


def from_suspended(*uris: str) -> bool:
    """Whether any of ``uris`` is on a suspended server (an unparsable one is left to the signature check)."""
    domains = []
    for uri in uris:
        try:
            domains.append(actors.domain_of(uri))
        except ValueError:
            continue
    return bool(domain_blocks.suspended_domains(domains))
