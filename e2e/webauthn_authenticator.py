"""A software WebAuthn authenticator for the tests (W3C Web Authentication Level 3).

One discoverable credential per instance, on a P-256 (ES256) or Ed25519 (EdDSA) key, with
`none` attestation. It answers a relying party's options the way a browser hands responses
back: `create()` and `get()` take PublicKeyCredentialCreationOptionsJSON /
PublicKeyCredentialRequestOptionsJSON (dicts) and return the `PublicKeyCredential.toJSON()`
shape, every binary member unpadded base64url. Each ceremony can be made wrong on purpose
(origin, RP ID, flags, type, counter, cross-origin), one keyword at a time, so a test can
fail each check of the server on its own.

Run as a script, it writes the fixed vector Tests/LatchkeyWebAuthnTests/Fixtures uses:
    python e2e/webauthn_authenticator.py > Tests/LatchkeyWebAuthnTests/Fixtures/python-authenticator.json
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519

UP, UV, BE, BS, AT, ED = 0x01, 0x04, 0x08, 0x10, 0x40, 0x80
ES256, EDDSA = -7, -8


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def cbor(value) -> bytes:
    """The CBOR encoding of `value` (int, bytes, str, list, dict, bool, None), shortest form;
    dict keys in the order given (callers give them in CTAP2 canonical order)."""

    def head(major: int, argument: int) -> bytes:
        if argument < 24:
            return bytes([major << 5 | argument])
        for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
            if argument < 1 << (8 * size):
                return bytes([major << 5 | info]) + argument.to_bytes(size, "big")
        raise ValueError("integer too large for CBOR")

    if value is False:
        return b"\xf4"
    if value is True:
        return b"\xf5"
    if value is None:
        return b"\xf6"
    if isinstance(value, int):
        return head(0, value) if value >= 0 else head(1, -1 - value)
    if isinstance(value, bytes):
        return head(2, len(value)) + value
    if isinstance(value, str):
        encoded = value.encode("utf-8")
        return head(3, len(encoded)) + encoded
    if isinstance(value, list):
        return head(4, len(value)) + b"".join(cbor(item) for item in value)
    if isinstance(value, dict):
        return head(5, len(value)) + b"".join(cbor(k) + cbor(v) for k, v in value.items())
    raise TypeError(f"cannot encode {type(value).__name__} as CBOR")


class SoftwareAuthenticator:
    """One discoverable credential on a P-256 or Ed25519 key."""

    def __init__(self, algorithm: str = "ES256", *, private_key=None, credential_id: bytes | None = None,
                 sign_count: int = 0, backup_eligible: bool = True, backed_up: bool = True):
        if algorithm not in ("ES256", "EdDSA"):
            raise ValueError("algorithm must be ES256 or EdDSA")
        self.algorithm = algorithm
        self.cose_algorithm = ES256 if algorithm == "ES256" else EDDSA
        if private_key is None:
            private_key = ec.generate_private_key(ec.SECP256R1()) if algorithm == "ES256" else ed25519.Ed25519PrivateKey.generate()
        self.private_key = private_key
        self.credential_id = credential_id if credential_id is not None else os.urandom(32)
        self.sign_count = sign_count
        self.backup_eligible = backup_eligible
        self.backed_up = backed_up
        self.user_handle: bytes | None = None
        self.rp_id: str | None = None

    # The credential's public key.

    def cose_public_key(self) -> bytes:
        public = self.private_key.public_key()
        if self.algorithm == "ES256":
            numbers = public.public_numbers()
            return cbor({1: 2, 3: ES256, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        return cbor({1: 1, 3: EDDSA, -1: 6, -2: raw})

    def spki_public_key(self) -> bytes:
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)

    def sign(self, message: bytes) -> bytes:
        """A signature as WebAuthn carries it: DER for ES256, 64 bytes for Ed25519."""
        if self.algorithm == "ES256":
            return self.private_key.sign(message, ec.ECDSA(hashes.SHA256()))
        return self.private_key.sign(message)

    # The parts of a response.

    def flags(self, *, up=True, uv=True, be=None, bs=None) -> int:
        be = self.backup_eligible if be is None else be
        bs = self.backed_up if bs is None else bs
        return (UP if up else 0) | (UV if uv else 0) | (BE if be else 0) | (BS if bs else 0)

    @staticmethod
    def client_data(kind: str, challenge: str, origin: str, *, cross_origin: bool | None = False,
                    top_origin: str | None = None) -> bytes:
        """Client data JSON as browsers serialize it (§5.8.1.1): type, challenge, origin,
        crossOrigin, then topOrigin when there is one."""
        data = {"type": kind, "challenge": challenge, "origin": origin}
        if cross_origin is not None:
            data["crossOrigin"] = cross_origin
        if top_origin is not None:
            data["topOrigin"] = top_origin
        return json.dumps(data, separators=(",", ":")).encode("utf-8")

    def authenticator_data(self, rp_id: str, flags: int, sign_count: int, *, attested: bool) -> bytes:
        data = hashlib.sha256(rp_id.encode("utf-8")).digest()
        data += bytes([flags | (AT if attested else 0)]) + struct.pack(">I", sign_count)
        if attested:
            data += bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id + self.cose_public_key()
        return data

    # The two ceremonies.

    def create(self, options: dict, origin: str, *, rp_id: str | None = None, kind: str = "webauthn.create",
               challenge: str | None = None, up=True, uv=True, be=None, bs=None, cross_origin: bool | None = False,
               top_origin: str | None = None, transports=("internal", "hybrid")) -> dict:
        """The registration response to `options` (PublicKeyCredentialCreationOptionsJSON),
        as `navigator.credentials.create()` at `origin` would answer; remembers the RP ID and
        the user handle, as a discoverable credential does."""
        offered = [parameter.get("alg") for parameter in options.get("pubKeyCredParams", [])]
        if offered and self.cose_algorithm not in offered:
            raise ValueError(f"the relying party does not offer {self.algorithm}")
        self.rp_id = options["rp"]["id"] if rp_id is None else rp_id
        self.user_handle = b64url_decode(options["user"]["id"])
        client_data = self.client_data(kind, options["challenge"] if challenge is None else challenge, origin,
                                       cross_origin=cross_origin, top_origin=top_origin)
        auth_data = self.authenticator_data(self.rp_id, self.flags(up=up, uv=uv, be=be, bs=bs), self.sign_count,
                                            attested=True)
        attestation_object = cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {"credProps": {"rk": True}},
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation_object),
                "authenticatorData": b64url(auth_data),
                "publicKey": b64url(self.spki_public_key()),
                "publicKeyAlgorithm": self.cose_algorithm,
                "transports": list(transports),
            },
        }

    def get(self, options: dict, origin: str, *, rp_id: str | None = None, kind: str = "webauthn.get",
            challenge: str | None = None, up=True, uv=True, be=None, bs=None, cross_origin: bool | None = False,
            top_origin: str | None = None, sign_count: int | None = None, user_handle: bytes | None = None,
            advance_counter: bool = False) -> dict:
        """The assertion response to `options` (PublicKeyCredentialRequestOptionsJSON), as
        `navigator.credentials.get()` at `origin` would answer with this discoverable
        credential. With `advance_counter` the counter goes up by one first (a security key);
        by default it stays 0, as synced passkeys report it."""
        allowed = [b64url_decode(entry["id"]) for entry in options.get("allowCredentials", [])]
        if allowed and self.credential_id not in allowed:
            raise ValueError("the relying party does not allow this credential")
        if advance_counter:
            self.sign_count += 1
        client_data = self.client_data(kind, options["challenge"] if challenge is None else challenge, origin,
                                       cross_origin=cross_origin, top_origin=top_origin)
        rp = rp_id or options.get("rpId") or self.rp_id
        auth_data = self.authenticator_data(rp, self.flags(up=up, uv=uv, be=be, bs=bs),
                                            self.sign_count if sign_count is None else sign_count, attested=False)
        signature = self.sign(auth_data + hashlib.sha256(client_data).digest())
        handle = self.user_handle if user_handle is None else user_handle
        response = {
            "clientDataJSON": b64url(client_data),
            "authenticatorData": b64url(auth_data),
            "signature": b64url(signature),
        }
        if handle:
            response["userHandle"] = b64url(handle)
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": response,
        }


def fixture() -> dict:
    """A registration and an assertion from a P-256 and an Ed25519 credential, for
    `example.com` at `https://example.com`, to check that the Swift verifier agrees."""
    rp = {"id": "example.com", "name": "Example"}
    vectors = {}
    for algorithm in ("ES256", "EdDSA"):
        authenticator = SoftwareAuthenticator(algorithm)
        user_id = os.urandom(16)
        registration_challenge = b64url(os.urandom(32))
        authentication_challenge = b64url(os.urandom(32))
        creation = {
            "rp": rp, "challenge": registration_challenge,
            "user": {"id": b64url(user_id), "name": "ada@example.com", "displayName": "Ada"},
            "pubKeyCredParams": [{"type": "public-key", "alg": ES256}, {"type": "public-key", "alg": EDDSA}],
            "authenticatorSelection": {"residentKey": "required", "userVerification": "required"},
            "attestation": "none",
        }
        request = {"challenge": authentication_challenge, "rpId": "example.com", "userVerification": "required"}
        vectors[algorithm] = {
            "rpId": "example.com",
            "origin": "https://example.com",
            "userHandle": b64url(user_id),
            "registrationChallenge": registration_challenge,
            "registration": authenticator.create(creation, "https://example.com"),
            "authenticationChallenge": authentication_challenge,
            "authentication": authenticator.get(request, "https://example.com", advance_counter=True),
        }
    return vectors


if __name__ == "__main__":
    json.dump(fixture(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
