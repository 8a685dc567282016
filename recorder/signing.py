"""Ed25519 keys and signatures of record seals (docs/seals.md "Keys" and "Signatures").

Key files are read as people already make them: ``ssh-keygen -t ed25519`` (an OpenSSH
private key and its ``.pub`` line) and ``openssl genpkey -algorithm ed25519`` (PKCS#8 PEM; its
public half from ``openssl pkey -pubout``, SubjectPublicKeyInfo PEM). A public key is named by
its fingerprint as ``ssh-keygen -l`` prints it (``SHA256:`` and the unpadded base64 of the
SHA-256 of the key's OpenSSH blob), whichever file it came from.

Only keys and bytes here: the chain is ``gamerec.recorder.seal``'s. The ``cryptography``
package is imported when a key is loaded or a signature made or checked, not before (reading
a GRN record with a seal needs neither).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Final

from gamerec.recorder.arguments import require_record
from gamerec.recorder.atomic import atomic_output
from gamerec.recorder.ed25519_checks import (
    KEYS_REMEMBERED,
    key_weakness,
    signature_is_canonical,
)
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.seal import (
    HOST,
    KEY_BYTES,
    chain_of,
    final_message,
    next_head,
    ply_head,
    ply_message,
    result_items,
    seal_record,
)
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from google.protobuf.internal.containers import RepeatedCompositeFieldContainer

#: The key type of the OpenSSH form, as its blob and its public line name it.
SSH_KEY_TYPE: Final = b"ssh-ed25519"
#: The biggest key file read (a key file is a few hundred bytes).
MAX_KEY_FILE_BYTES: Final = 64 * 1024


class KeyFileError(GamerecError):
    """A key file that cannot be read as an Ed25519 key, or a key that may not sign."""


class SealError(GamerecError):
    """A record that cannot be signed: not sealed, or its seal does not hold."""


# -- names and forms of public keys ---------------------------------------------------------------


def _ssh_string(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def ssh_blob(public: bytes) -> bytes:
    """The OpenSSH wire form of an Ed25519 public key (``string "ssh-ed25519", string key``)."""
    return _ssh_string(SSH_KEY_TYPE) + _ssh_string(public)


def fingerprint(public: bytes) -> str:
    """``SHA256:...`` as ``ssh-keygen -l`` prints it for this key."""
    digest = hashlib.sha256(ssh_blob(public)).digest()
    return "SHA256:" + base64.b64encode(digest).decode().rstrip("=")


def openssh_line(public: bytes, comment: str = "") -> str:
    """The key as one ``.pub`` line: ``ssh-ed25519 AAAA... comment``."""
    line = f"ssh-ed25519 {base64.b64encode(ssh_blob(public)).decode()}"
    return f"{line} {comment}" if comment else line


def parse_openssh_line(text: str) -> bytes:
    """The 32-byte key of an ``ssh-ed25519 AAAA... [comment]`` line.

    Raises:
        KeyFileError: not an OpenSSH Ed25519 public key line.
    """
    parts = text.strip().split(None, 2)
    if len(parts) < 2 or parts[0] != SSH_KEY_TYPE.decode():
        raise KeyFileError("expected an OpenSSH Ed25519 public key such as 'ssh-ed25519 AAAA...'")
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except (binascii.Error, ValueError):
        raise KeyFileError("the key's base64 text is not base64") from None
    expected_prefix = _ssh_string(SSH_KEY_TYPE) + KEY_BYTES.to_bytes(4, "big")
    if len(blob) != len(expected_prefix) + KEY_BYTES or not blob.startswith(expected_prefix):
        raise KeyFileError("the key's blob is not an Ed25519 key of 32 bytes")
    return blob[len(expected_prefix) :]


# -- key files ------------------------------------------------------------------------------------


def _key_bytes(path: Path) -> bytes:
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_KEY_FILE_BYTES + 1)
    except OSError as error:
        raise KeyFileError(f"{path}: cannot read the key file: {error.strerror}") from None
    if len(data) > MAX_KEY_FILE_BYTES:
        raise KeyFileError(f"{path}: over {MAX_KEY_FILE_BYTES:,} bytes, so not a key file")
    return data


def load_private_key(path: str | Path) -> Ed25519PrivateKey:
    """An Ed25519 private key from an OpenSSH or PKCS#8 PEM file (unencrypted).

    Raises:
        KeyFileError: the file cannot be read, is encrypted, or holds no Ed25519 private key.
    """
    from cryptography.exceptions import UnsupportedAlgorithm  # noqa: PLC0415 (see docstring)
    from cryptography.hazmat.primitives import serialization  # noqa: PLC0415
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415
        Ed25519PrivateKey,
    )

    path = Path(path)
    data = _key_bytes(path)
    try:
        if b"OPENSSH PRIVATE KEY" in data:
            key: object = serialization.load_ssh_private_key(data, password=None)
        else:
            key = serialization.load_pem_private_key(data, password=None)
    except TypeError:
        raise KeyFileError(f"{path}: the key is encrypted; give an unencrypted key file") from None
    except (ValueError, UnsupportedAlgorithm) as error:
        raise KeyFileError(f"{path}: not a private key file ({_short(error)})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"{path}: the key is not an Ed25519 key ({type(key).__name__})")
    return key


def load_public_key(path: str | Path) -> bytes:
    """The 32-byte Ed25519 public key of a key file.

    The file is a ``.pub`` line, a public PEM, or a private key file of either form (whose
    public half is taken).

    Raises:
        KeyFileError: the file cannot be read or holds no Ed25519 key.
    """
    path = Path(path)
    data = _key_bytes(path)
    if data.lstrip().startswith(SSH_KEY_TYPE):
        try:
            return _strong(path, parse_openssh_line(data.decode("ascii", "replace")))
        except KeyFileError as error:
            raise KeyFileError(f"{path}: {error}") from None
    if b"PRIVATE KEY" in data:
        return public_bytes(load_private_key(path))
    return _strong(path, _public_pem(path, data))


def _strong(path: Path, key: bytes) -> bytes:
    """The key, unless it is weak (small order, non-canonical: docs/seals.md "Keys").

    Raises:
        KeyFileError: the key is weak, naming the file and why.
    """
    weakness = key_weakness(key)
    if weakness is not None:
        raise KeyFileError(f"{path}: the key is refused: {weakness}")
    return key


def _public_pem(path: Path, data: bytes) -> bytes:
    from cryptography.exceptions import UnsupportedAlgorithm  # noqa: PLC0415 (see module)
    from cryptography.hazmat.primitives import serialization  # noqa: PLC0415
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415
        Ed25519PublicKey,
    )

    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, UnsupportedAlgorithm) as error:
        raise KeyFileError(f"{path}: not a public key file ({_short(error)})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"{path}: the key is not an Ed25519 key ({type(key).__name__})")
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _short(error: Exception) -> str:
    return str(error).splitlines()[0][:200] if str(error) else type(error).__name__


def public_bytes(key: Ed25519PrivateKey) -> bytes:
    """The 32 raw bytes of a private key's public half."""
    from cryptography.hazmat.primitives import serialization  # noqa: PLC0415 (see module)

    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def new_key() -> Ed25519PrivateKey:
    """A new random Ed25519 private key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415
        Ed25519PrivateKey,
    )

    return Ed25519PrivateKey.generate()


def write_key_pair(key: Ed25519PrivateKey, path: str | Path, comment: str = "") -> Path:
    """Write ``path`` (OpenSSH private key, mode 0600) and ``path.pub``; return the ``.pub``.

    The files are the very forms ``ssh-keygen -t ed25519 -N ""`` writes. Neither file may exist
    yet (a key is never overwritten).

    Raises:
        KeyFileError: a file exists or cannot be written.
    """
    from cryptography.hazmat.primitives import serialization  # noqa: PLC0415 (see module)

    private_path = Path(path)
    public_path = private_path.with_name(private_path.name + ".pub")
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.OpenSSH,
        serialization.NoEncryption(),
    )
    public = (openssh_line(public_bytes(key), comment) + "\n").encode()
    for target, data, mode in ((private_path, private, 0o600), (public_path, public, 0o644)):
        try:
            with atomic_output(target, permissions=mode, overwrite=False) as stream:
                stream.write(data)
        except FileExistsError:
            raise KeyFileError(f"{target}: exists already; a key is never overwritten") from None
        except OSError as error:
            raise KeyFileError(f"{target}: cannot write: {error.strerror}") from None
    return public_path


def trusted_keys(folder: str | Path) -> dict[bytes, Path]:
    """Every Ed25519 public key in the files of ``folder`` (not recursive), with its file.

    Files that hold no key (a README, a private key is not read) are skipped; a folder that
    cannot be read is an error, and so is a weak key (small order, non-canonical).

    Raises:
        KeyFileError: the folder cannot be listed, holds no key at all, or a weak key.
    """
    root = Path(folder)
    try:
        paths = sorted(path for path in root.iterdir() if path.is_file())
    except OSError as error:
        raise KeyFileError(f"{root}: cannot list the trusted keys: {error.strerror}") from None
    keys: dict[bytes, Path] = {}
    for path in paths:
        for key in _public_keys_in(path):
            keys.setdefault(key, path)
    if not keys:
        raise KeyFileError(f"{root}: holds no public key file (.pub lines or public PEM)")
    return keys


def _public_keys_in(path: Path) -> Iterator[bytes]:
    """The public keys of one file of a trust folder: ``.pub`` lines (several allowed) or PEM."""
    try:
        data = _key_bytes(path)
    except KeyFileError:
        return
    if b"PRIVATE KEY" in data:
        return
    if b"PUBLIC KEY" in data:
        try:
            key = _public_pem(path, data)
        except KeyFileError:
            return
        yield _strong(path, key)
        return
    for line in data.decode("utf-8", "replace").splitlines():
        if line.strip().startswith(SSH_KEY_TYPE.decode()):
            try:
                key = parse_openssh_line(line)
            except KeyFileError:
                continue
            yield _strong(path, key)


# -- signatures ------------------------------------------------------------------------------------


def verify_signature(public: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is a valid Ed25519 signature of ``message`` by ``public``.

    A weak key (small order, non-canonical) verifies nothing, and a signature whose S is the
    group's order or more is refused (docs/seals.md "Keys").
    """
    return verifier(public)(message, signature)


@lru_cache(maxsize=KEYS_REMEMBERED)
def verifier(public: bytes) -> Callable[[bytes, bytes], bool]:
    """A check of ``(message, signature)`` pairs against one public key (loaded once).

    Remembered for the last :data:`KEYS_REMEMBERED` keys: an archive's records are sealed
    with the same few keys, and loading one costs about as much as judging it.
    """
    from cryptography.exceptions import InvalidSignature  # noqa: PLC0415 (see module)
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415
        Ed25519PublicKey,
    )

    if key_weakness(public) is not None:  # it would accept forged signatures
        return lambda message, signature: False
    try:
        key = Ed25519PublicKey.from_public_bytes(public)
    except ValueError:
        return lambda message, signature: False

    def check(message: bytes, signature: bytes) -> bool:
        if not signature_is_canonical(signature):  # S >= L: a second form of a signature
            return False
        try:
            key.verify(signature, message)
        except InvalidSignature:
            return False
        return True

    return check


def signer_name(signer: int) -> str:
    """``seat 2`` or ``the host``."""
    return "the host" if signer == HOST else f"seat {signer}"


def sign_record(
    record: pb.GameRecord, key: Ed25519PrivateKey, signer: int | None = None, *, plies: bool = True
) -> pb.GameRecord:
    """A copy of the sealed ``record`` signed by ``signer`` (a seat, or 0 for the host).

    ``signer`` None: the place the seal gives the key (the first seat that has it, else the
    host).

    The signer signs the head after every ply the record says it made (``Move.seat``; the
    host: every ply, when ``plies``) and the final head. A signature it made before over the
    same head is replaced (Ed25519 signatures are deterministic, so it is the same).

    Raises:
        SealError: the record is not sealed, or its chain does not recompute to its heads.
        KeyFileError: the key is not the one the seal names for ``signer``.
    """
    require_record(record, "sign_record")
    if not record.HasField("seal"):
        raise SealError("the record is not sealed; seal it first (gamerec seal)")
    seal = record.seal
    public = public_bytes(key)
    if signer is None:
        signer = _place_of(seal, public)
    expected = seal.host_key if signer == HOST else _seat_key(record, signer)
    if public != expected:
        named = fingerprint(expected) if expected else "no key"
        raise KeyFileError(
            f"the key {fingerprint(public)} is not {signer_name(signer)}'s: the seal names "
            f"{named}; seal the record with this key first"
        )
    chain = chain_of(record, list(seal.seat_keys), seal.host_key)
    if chain.plies != tuple(ply.head for ply in seal.plies) or chain.final != seal.final_head:
        raise SealError("the record's seal does not hold (gamerec verify says where); seal again")
    signed = pb.GameRecord()
    signed.CopyFrom(record)
    for ply, (move, sealed) in enumerate(zip(signed.moves, signed.seal.plies, strict=True), 1):
        if plies and signer in (move.seat, HOST):
            _replace(sealed.signatures, signer, key.sign(ply_message(ply, sealed.head)))
    _replace(signed.seal.final_signatures, signer, key.sign(final_message(chain.final)))
    return signed


def _place_of(seal: spb.Seal, public: bytes) -> int:
    """The signer whose key in the seal is ``public``."""
    if public in seal.seat_keys:
        return list(seal.seat_keys).index(public) + 1
    if public == seal.host_key:
        return HOST
    raise KeyFileError(
        f"the key {fingerprint(public)} is not in the seal: seal the record with it first, "
        "or say who signs with --as"
    )


def _seat_key(record: pb.GameRecord, seat: int) -> bytes:
    if not 1 <= seat <= len(record.seats):
        raise KeyFileError(f"the record has no seat {seat} (it has {len(record.seats)})")
    keys = record.seal.seat_keys
    return keys[seat - 1] if seat <= len(keys) else b""


def _replace(
    signatures: RepeatedCompositeFieldContainer[spb.Signature], signer: int, signature: bytes
) -> None:
    """Put ``signer``'s signature in a repeated Signature field, replacing its old one."""
    kept = [entry for entry in signatures if entry.signer != signer]
    del signatures[:]
    signatures.extend(kept)
    signatures.add(signer=signer, signature=signature)


class LiveSeal:
    """The seal of a record being written ply by ply, signed the moment each ply is made.

    The record builder keeps one: after every ply the head after it is added to the seal and
    signed by the seat that moved and by the host, when their private keys are held here;
    when the record's result is final (the game over, or stopped), the final head is signed
    by every key held. Signers whose keys are elsewhere (a player's own device) add their
    signatures with :meth:`add_signature`.

    Args:
        record: the record, with no moves yet; its seal is written in place.
        public_keys: public keys of signers that sign elsewhere, by signer (0: the host).
        private_keys: private keys held here, by signer (0: the host).

    Raises:
        KeyFileError: a signer that is not a seat of the record nor the host.
    """

    def __init__(
        self,
        record: pb.GameRecord,
        public_keys: dict[int, bytes],
        private_keys: dict[int, Ed25519PrivateKey],
    ) -> None:
        """Seal ``record`` with the keys (see the class docstring)."""
        keys = dict(public_keys) | {who: public_bytes(key) for who, key in private_keys.items()}
        for signer in keys:
            if signer != HOST and not 1 <= signer <= len(record.seats):
                raise KeyFileError(f"a key for seat {signer}, but the record has no such seat")
        seat_keys = [keys.get(seat, b"") for seat in range(1, len(record.seats) + 1)]
        while seat_keys and not seat_keys[-1]:
            seat_keys.pop()
        record.seal.CopyFrom(seal_record(record, seat_keys, keys.get(HOST, b"")).seal)
        self._private = private_keys
        self._keys = keys

    def ply_played(self, record: pb.GameRecord, mover: int) -> None:
        """Seal the record's last ply (made by seat ``mover``) and sign its head."""
        seal, ply = record.seal, len(record.moves)
        previous = seal.plies[-1].head if seal.plies else seal.identity_head
        head = ply_head(previous, ply, record.moves[-1], record.rules.game)
        sealed = seal.plies.add(head=head)
        for signer in (mover, HOST):
            if signer in self._private:
                sealed.signatures.add(
                    signer=signer, signature=self._private[signer].sign(ply_message(ply, head))
                )
        self.result_changed(record, final=False)

    def result_changed(self, record: pb.GameRecord, *, final: bool) -> None:
        """Seal the record's result anew; sign it with every key held when ``final``."""
        seal = record.seal
        last = seal.plies[-1].head if seal.plies else seal.identity_head
        seal.final_head = next_head(last, result_items(record))
        del seal.final_signatures[:]
        if final:
            for signer in sorted(self._private, key=lambda who: (who == HOST, who)):
                signature = self._private[signer].sign(final_message(seal.final_head))
                seal.final_signatures.add(signer=signer, signature=signature)

    def add_signature(self, record: pb.GameRecord, ply: int, signer: int, signature: bytes) -> None:
        """Add a signature made elsewhere over the head after ``ply`` (0: the final head).

        Raises:
            SealError: no such ply, or the signature is not the signer's over that head.
        """
        seal = record.seal
        if not 0 <= ply <= len(seal.plies):
            raise SealError(f"no ply {ply} to sign (the record has {len(seal.plies)})")
        head = seal.final_head if ply == 0 else seal.plies[ply - 1].head
        message = final_message(head) if ply == 0 else ply_message(ply, head)
        key = self._keys.get(signer, b"")
        if not key or not verify_signature(key, message, signature):
            raise SealError(
                f"the signature is not {signer_name(signer)}'s over the head after ply {ply}"
            )
        into = seal.final_signatures if ply == 0 else seal.plies[ply - 1].signatures
        _replace(into, signer, signature)
