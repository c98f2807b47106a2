"""``bb-edge keygen -o KEYDIR [--deployment DIR] [--hmac-nodes a,b]``: keys for signed program updates.

Writes ``KEYDIR/ota_ed25519.key`` (the raw 32-byte private key as hex, mode
0600) and ``ota_ed25519.pub`` (the public key as hex). ``--deployment DIR``
embeds the public key in ``DIR/deployment.json`` as ``ota.public_key``, so
every Linux node of DIR verifies updates with it. ``--hmac-nodes`` also
writes one random 32-byte HMAC-SHA-256 key per named node
(``KEYDIR/hmac/NODE.key``): the per-node secret that C and MicroPython nodes
are provisioned with at build time (docs/wire.md, "Program updates").
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
from pathlib import Path

from bb_edge.commands._args import name_list
from bb_edge.errors import DeploymentError, UsageError
from bb_edge.names import check_name
from bb_edge.paths import check_output_dir, path_inside


def _write_secret(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text + "\n")


def embed_public_key(directory: str | Path, public_hex: str) -> Path:
    """Set ``ota.public_key`` (and ``ota.program_version`` when absent) in ``DIR/deployment.json`` (rewritten
    atomically)."""
    path = Path(directory) / "deployment.json"
    try:
        raw = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise DeploymentError(f"{path}: cannot read the deployment: {exc}") from None
    ota = raw.setdefault("ota", {})
    if not isinstance(ota, dict):
        raise DeploymentError(f"{path}: 'ota' must be an object")
    ota["public_key"] = public_hex
    # the version of the programs this deployment ships, on bb-edge deploy's scale (wall-clock ms): a node
    # installed from it refuses any older signed update (the anti-rollback floor before its first update)
    from bb_edge.adapters.ops.ota_store import version_now

    ota.setdefault("program_version", version_now())
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(raw, indent=2) + "\n")
    os.replace(tmp, path)
    return path


def make_keys(out: str | Path, hmac_nodes: list[str] | None = None) -> tuple[str, str]:
    """Create the Ed25519 pair (and HMAC keys) in ``out``; ``(private_hex, public_hex)``."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

    d = Path(out)
    d.mkdir(parents=True, exist_ok=True)
    key = Ed25519PrivateKey.generate()
    priv = key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption()).hex()
    pub = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
    _write_secret(d / "ota_ed25519.key", priv)
    (d / "ota_ed25519.pub").write_text(pub + "\n")
    for node in hmac_nodes or []:
        (d / "hmac").mkdir(exist_ok=True)
        _write_secret(path_inside(d, "hmac", f"{check_name(node, '--hmac-nodes')}.key"), secrets.token_hex(32))
    return priv, pub


def _run(args: argparse.Namespace) -> int:
    if args.deployment and not (Path(args.deployment) / "deployment.json").is_file():
        # refused before any key is written
        raise DeploymentError(f"--deployment {args.deployment}: no deployment.json there; "
                              "compile the deployment first (bb-edge compile MODEL -o DIR)")
    if args.deployment and args.hmac_nodes:
        from bb_edge.deployment.learning import is_learning, learning_node_names
        from bb_edge.deployment.manifest import load_deployment

        dep = load_deployment(args.deployment)
        known = learning_node_names(dep) if is_learning(dep) else dep.node_names
        ghosts = [n for n in args.hmac_nodes if n not in known]
        if ghosts:  # refused before any key is written
            raise UsageError(f"--hmac-nodes {','.join(ghosts)}: not a node of {args.deployment} "
                             f"(nodes: {', '.join(known)})")
    _, pub = make_keys(args.out, args.hmac_nodes)
    print(f"wrote {Path(args.out) / 'ota_ed25519.key'} (keep it secret) and ota_ed25519.pub: {pub}")
    if args.deployment:
        print(f"embedded ota.public_key in {embed_public_key(args.deployment, pub)}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``keygen`` subcommand."""
    p = sub.add_parser("keygen", help="make the signing keys for over-the-air program updates")
    p.add_argument("-o", "--out", required=True, type=lambda t: str(check_output_dir(t, "-o")),
                   help="directory for the key files")
    p.add_argument("--deployment", default=None, metavar="DIR",
                   help="embed the public key in DIR/deployment.json (ota.public_key)")
    p.add_argument("--hmac-nodes", type=name_list, default=None, metavar="A,B",
                   help="also write a per-node HMAC-SHA-256 key for these (C, MicroPython) nodes")
    p.set_defaults(func=_run)
