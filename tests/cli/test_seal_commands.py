"""``gamerec keys``, ``seal``, ``sign``, ``verify``: a tournament's keys to a verified record.

Key files are made by the real ``ssh-keygen -t ed25519`` and ``openssl genpkey -algorithm
ed25519`` when the machine has them (the tests say so when skipped), and by ``gamerec keys
new``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from gamerec.cli.main import app
from gamerec.recorder.codecs import read_records, write_records
from gamerec.recorder.signing import fingerprint, load_public_key

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "fixtures" / "games" / "aronda.grn"
SSH_KEYGEN = shutil.which("ssh-keygen")
OPENSSL = shutil.which("openssl")


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def ssh_key(folder: Path, name: str) -> Path:
    if SSH_KEYGEN is None:
        pytest.skip("ssh-keygen is not installed")
    path = folder / name
    subprocess.run(
        [SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(path)], check=True
    )
    return path


def openssl_key(folder: Path, name: str) -> tuple[Path, Path]:
    if OPENSSL is None:
        pytest.skip("openssl is not installed")
    private, public = folder / f"{name}.pem", folder / f"{name}.pub.pem"
    subprocess.run([OPENSSL, "genpkey", "-algorithm", "ed25519", "-out", str(private)], check=True)
    subprocess.run(
        [OPENSSL, "pkey", "-in", str(private), "-pubout", "-out", str(public)], check=True
    )
    return private, public


@pytest.fixture
def keys(tmp_path: Path) -> dict[str, Path]:
    """Ana's key by ssh-keygen, Ben's by openssl, the host's by gamerec keys new."""
    ana = ssh_key(tmp_path, "ana")
    ben, ben_public = openssl_key(tmp_path, "ben")
    host = tmp_path / "host"
    made = run("keys", "new", str(host), "--comment", "platform")
    assert made.exit_code == 0, made.output
    return {
        "ana": ana,
        "ana.pub": tmp_path / "ana.pub",
        "ben": ben,
        "ben.pub": ben_public,
        "host": host,
        "host.pub": tmp_path / "host.pub",
    }


def test_gamerec_keys_new_writes_what_ssh_keygen_reads(tmp_path: Path) -> None:
    result = run("keys", "new", str(tmp_path / "k"), "-C", "me@club")
    assert result.exit_code == 0, result.output
    assert oct((tmp_path / "k").stat().st_mode & 0o777) == "0o600"
    printed = result.output.split()[0]
    assert printed == fingerprint(load_public_key(tmp_path / "k.pub"))
    if SSH_KEYGEN is not None:
        listed = subprocess.run(
            [SSH_KEYGEN, "-l", "-f", str(tmp_path / "k")],
            capture_output=True,
            text=True,
            check=True,
        )
        assert listed.stdout.split()[1] == printed
        assert "me@club" in listed.stdout
    again = run("keys", "new", str(tmp_path / "k"))
    assert again.exit_code == 2 and "never overwritten" in again.stderr


def test_fingerprints_are_those_ssh_keygen_prints(keys: dict[str, Path]) -> None:
    assert SSH_KEYGEN is not None
    shown = run("keys", "show", str(keys["ana.pub"]), str(keys["ana"]), str(keys["ben.pub"]))
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    listed = subprocess.run(
        [SSH_KEYGEN, "-l", "-f", str(keys["ana.pub"])], capture_output=True, text=True, check=True
    )
    assert lines[0].split()[0] == lines[1].split()[0] == listed.stdout.split()[1]
    ben_line = lines[2].split(None, 2)[2]  # openssl's key as a .pub line, which ssh-keygen reads
    converted = subprocess.run(
        [SSH_KEYGEN, "-l", "-f", "/dev/stdin"],
        input=ben_line,
        capture_output=True,
        text=True,
        check=True,
    )
    assert converted.stdout.split()[1] == lines[2].split()[0]


def _seal_and_sign(keys: dict[str, Path], folder: Path) -> Path:
    out = folder / "game.grn"
    sealed = run(
        "seal", str(GAME), "-o", str(out), "--key", f"1={keys['ana.pub']}",
        "--key", f"2={keys['ben.pub']}", "--host", str(keys["host.pub"]),
    )  # fmt: skip
    assert sealed.exit_code == 0, sealed.output
    signers: tuple[tuple[Path, list[str]], ...] = (
        (keys["ana"], ["--as", "seat", "1"]),
        (keys["ben"], ["--as", "seat2"]),
        (keys["host"], []),  # no --as: the seal says whose key it is
    )
    for key, who in signers:
        signed = run("sign", str(out), "--key", str(key), *who, "-o", str(out))
        assert signed.exit_code == 0, signed.output
    return out


def test_seal_sign_verify_with_trusted_keys(keys: dict[str, Path], tmp_path: Path) -> None:
    out = _seal_and_sign(keys, tmp_path)
    trust = tmp_path / "trusted"
    trust.mkdir()
    for name in ("ana.pub", "ben.pub", "host.pub"):
        shutil.copy(keys[name], trust / name)
    result = run("verify", str(out), "--trust", str(trust))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith("verified  Aronda  25 plies  finished  seal holds")
    assert all("trusted  signed every ply and the result" in line for line in lines[1:4])
    as_json = json.loads(run("verify", str(out), "--json").output)
    assert as_json["verified"] is True and as_json["seal"] == "SEAL_STATUS_HOLDS"
    assert [signer["trusted"] for signer in as_json["signers"]] == [False] * 3  # no --trust


def test_a_key_outside_the_trust_folder_is_untrusted(keys: dict[str, Path], tmp_path: Path) -> None:
    out = _seal_and_sign(keys, tmp_path)
    trust = tmp_path / "trusted"
    trust.mkdir()
    shutil.copy(keys["ana.pub"], trust / "ana.pub")
    result = run("verify", str(out), "--trust", str(trust))
    assert result.exit_code == 1
    assert "seat 2: UNTRUSTED_KEY: seat 2's key SHA256:" in result.output
    assert "\n  UNTRUSTED_KEY: the host's key" in result.output


def test_every_encoding_and_back_keeps_the_seal(keys: dict[str, Path], tmp_path: Path) -> None:
    path = _seal_and_sign(keys, tmp_path)
    for suffix in ("pb", "grn", "jsonl", "json", "pbs", "pb"):
        following = tmp_path / f"step.{suffix}"
        assert run("convert", str(path), str(following)).exit_code == 0
        path = following
    result = run("verify", str(path))
    assert result.exit_code == 0, result.output


def test_a_changed_ply_exits_1_with_the_break(keys: dict[str, Path], tmp_path: Path) -> None:
    out = _seal_and_sign(keys, tmp_path)
    (record,) = read_records(str(out))
    record.moves[4].aronda.placements[1].index += 1  # ply 5, o6,o6 becomes o6,o7
    write_records([record], str(out))
    result = run("verify", str(out))
    assert result.exit_code == 1
    assert "seal BROKEN" in result.output.splitlines()[0]
    assert "  ply 5: SEAL_BROKEN: the seal is broken: ply 5 (seat 1)" in result.output
    ruling = run("adjudicate", str(out))
    assert "SEAL_BROKEN at ply 5" in ruling.output
    verdict = json.loads(run("validate", str(out), "--json").stdout)
    assert verdict["seal"] == "SEAL_STATUS_BROKEN"


def test_signing_fails_cleanly(keys: dict[str, Path], tmp_path: Path) -> None:
    out = _seal_and_sign(keys, tmp_path)
    wrong = run("sign", str(out), "--key", str(keys["ben"]), "--as", "seat", "1", "-o", "-")
    assert wrong.exit_code == 2
    assert wrong.stderr.startswith("gamerec: error: record 1: the key SHA256:")
    assert "is not seat 1's" in wrong.stderr and len(wrong.stderr.splitlines()) == 1
    unsealed = run("sign", str(GAME), "--key", str(keys["ana"]), "--as", "1", "-o", "-")
    assert unsealed.exit_code == 2 and "not sealed" in unsealed.stderr
    bad_as = run("sign", str(out), "--key", str(keys["ana"]), "--as", "referee", "-o", "-")
    assert bad_as.exit_code == 2 and "--as 'referee'" in bad_as.stderr
    stranger = tmp_path / "stranger"
    assert run("keys", "new", str(stranger)).exit_code == 0
    unknown = run("sign", str(out), "--key", str(stranger), "-o", "-")
    assert unknown.exit_code == 2 and "is not in the seal" in unknown.stderr
    not_a_key = run("sign", str(out), "--key", str(GAME), "--as", "1", "-o", "-")
    assert not_a_key.exit_code == 2 and "not a private key file" in not_a_key.stderr


def test_verify_reports_an_unreadable_input_with_exit_2(tmp_path: Path) -> None:
    missing = run("verify", str(tmp_path / "none.grn"))
    assert missing.exit_code == 2
    unsealed = run("verify", str(GAME))
    assert unsealed.exit_code == 1 and "NOT_SEALED" in unsealed.output
    no_trust = run("verify", str(GAME), "--trust", str(tmp_path))
    assert no_trust.exit_code == 2 and "holds no public key file" in no_trust.stderr


def test_a_ruling_on_a_sealed_record_states_what_the_signatures_prove(
    keys: dict[str, Path], tmp_path: Path
) -> None:
    out = _seal_and_sign(keys, tmp_path)
    ruling = run("adjudicate", str(out))
    assert ruling.exit_code == 0, ruling.output
    ana = fingerprint(load_public_key(keys["ana.pub"]))
    assert f"Seat 1 ({ana}) signed every ply and the result." in ruling.output


def test_the_platform_example_gives_the_ruling_the_readme_shows(
    keys: dict[str, Path], tmp_path: Path
) -> None:
    """examples/seals/platform.py: Ben's device stops signing after ply 40."""
    shutil.copy(keys["host"], tmp_path / "platform")
    script = ROOT / "examples" / "seals" / "platform.py"
    done = subprocess.run(
        [sys.executable, str(script), "dispute.grn"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    ruling = run("adjudicate", str(tmp_path / "dispute.grn"))
    ben = fingerprint(load_public_key(keys["ben.pub"]))
    assert "Confirmed. Seat 2 was to move when the record stops after ply 45" in ruling.output
    assert (
        f"Seat 2 ({ben}) signed every ply up to 40; plies 41-45 carry only seat 1's and the "
        "host's signatures." in ruling.output
    )
    verified = run("verify", str(tmp_path / "dispute.grn"))
    assert verified.exit_code == 1
    assert "ply 41, seat 2: UNSIGNED_PLIES" in verified.output
