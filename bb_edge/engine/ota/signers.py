"""Signers and verifiers of OTA manifests: Ed25519 (Linux nodes) and HMAC-SHA-256 (C and MicroPython nodes).

What is signed is :func:`bb_edge.engine.ota.messages.signed_manifest`; these only turn a key into the
callable that signs or checks those bytes.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable

Verifier = Callable[[bytes, bytes], bool]
Signer = Callable[[bytes], bytes]


def ed25519_verifier(public_key: bytes) -> Verifier:
    """A verifier for raw 32-byte Ed25519 public keys (the ``cryptography`` package)."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    key = Ed25519PublicKey.from_public_bytes(public_key)

    def verify(message: bytes, signature: bytes) -> bool:
        try:
            key.verify(signature, message)
        except (InvalidSignature, ValueError):
            return False
        return True

    return verify


def ed25519_signer(private_key: bytes) -> Signer:
    """A signer for a raw 32-byte Ed25519 private key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.from_private_bytes(private_key)
    return key.sign


def hmac_verifier(key: bytes) -> Verifier:
    """HMAC-SHA-256 with a per-node key (C and MicroPython nodes); constant-time compare."""
    def verify(message: bytes, signature: bytes) -> bool:
        return hmac.compare_digest(hmac.new(key, message, hashlib.sha256).digest(), signature)

    return verify


def hmac_signer(key: bytes) -> Signer:
    """The HMAC-SHA-256 counterpart of :func:`hmac_verifier`."""
    return lambda message: hmac.new(key, message, hashlib.sha256).digest()
