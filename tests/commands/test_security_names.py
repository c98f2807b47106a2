"""Hostile names (issue 25, item 2): names are identifiers, paths stay inside their output, configs are escaped.

Each case reproduces one the issue found: a node named ``..`` that made ``bb-edge build`` delete a file
next to the output directory, names with a newline that injected lines into the broker's ``passwd`` and
``acl``, and ``bb-edge broker --prefix`` / ``--site`` / ``keygen --hmac-nodes`` / ``compile --standby``
values that exited 0. Every refusal is one line on stderr, exit 1 or 2, and nothing is written.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bb_edge.adapters.ops.broker import write_broker_files
from bb_edge.deployment.manifest import Deployment, load_deployment, validate_manifest
from bb_edge.errors import OutputPathError
from bb_edge.names import NAME_PATTERN, ConfigValueError, config_value, is_name
from bb_edge.paths import path_inside
from tests.support.tiny import tiny_deployment

TIMEOUT = 120


def bb(*args: str) -> subprocess.CompletedProcess[str]:
    """The CLI as a user runs it (no debug tracebacks)."""
    env = {k: v for k, v in os.environ.items() if k != "BB_EDGE_DEBUG"}
    return subprocess.run([sys.executable, "-m", "bb_edge.cli", *args], capture_output=True, text=True,
                          timeout=TIMEOUT, env=env)


def refused(r: subprocess.CompletedProcess[str], code: int | None = None) -> None:
    """A one-line typed refusal: non-zero exit, no traceback."""
    assert r.returncode != 0 and (code is None or r.returncode == code), (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-node deployment of a 3-op model (nodes n0, n1)."""
    return tiny_deployment(tmp_path_factory.mktemp("tiny"))


def renamed(src: Path, dst: Path, old: str, new: str) -> Path:
    """A copy of deployment ``src`` whose node ``old`` is called ``new`` everywhere in deployment.json."""
    shutil.copytree(src, dst)
    raw = json.loads((dst / "deployment.json").read_text())
    for n in raw["nodes"]:
        n["name"] = new if n["name"] == old else n["name"]
    for e in raw["edges"]:
        e["src"], e["dst"] = (new if e["src"] == old else e["src"]), (new if e["dst"] == old else e["dst"])
    for x in raw["inputs"] + raw["outputs"]:
        x["node"] = new if x["node"] == old else x["node"]
    raw["bindings"] = {(new if k == old else k): v for k, v in raw.get("bindings", {}).items()}
    (dst / "deployment.json").write_text(json.dumps(raw))
    return dst


def test_the_name_rule() -> None:
    """One rule: a letter, then up to 62 letters, digits, - or _; reserved identities start with _."""
    good = ["n1", "camera-front", "site_2", "A" + "b" * 62]
    bad = ["", "..", ".", "_host", "1n", "a/b", "a#", "a+", "a b", "a\nb", "a:b", "a.b", "A" + "b" * 63, "é"]
    assert all(is_name(n) for n in good) and not any(is_name(n) for n in bad)
    import re

    assert [bool(re.fullmatch(NAME_PATTERN.strip("^$"), n)) for n in good + bad] == [is_name(n) for n in good + bad]


def test_manifest_refuses_names_that_are_not_identifiers(tiny_dir: Path) -> None:
    """The schema refuses every bad node, edge end, io node, standby and deployment name, naming the field."""
    raw = json.loads((tiny_dir / "deployment.json").read_text())
    for bad in ("..", ".", "a\nb", "x:$7$101$abc", "a:b", "\x1b[5m", "_host", "a/b"):
        r = copy.deepcopy(raw)
        r["nodes"][0]["name"] = bad
        assert any(p.startswith("nodes[0].name") for p in validate_manifest(r)), bad
        r = copy.deepcopy(raw)
        r["name"] = bad
        assert any(p.startswith("name") for p in validate_manifest(r)), bad
        r = copy.deepcopy(raw)
        r["edges"][0]["dst"] = bad
        assert any(p.startswith("edges[0].dst") for p in validate_manifest(r)), bad
        r = copy.deepcopy(raw)
        r["standby"] = {"n1": [bad]}
        assert any(p.startswith("standby") for p in validate_manifest(r)), bad
    assert validate_manifest(raw) == []


def test_dotdot_node_deletes_nothing_outside_the_output(tiny_dir: Path, tmp_path: Path) -> None:
    """The issue's case: ``--target ..=host -o trav/victim/out`` once deleted trav/victim/important.txt."""
    dep = renamed(tiny_dir, tmp_path / "trav" / "dep", "n1", "..")
    victim = tmp_path / "trav" / "victim"
    victim.mkdir()
    (victim / "important.txt").write_text("keep me")
    r = bb("build", str(dep), "--target", "..=host", "-o", str(victim / "out"))
    refused(r, 2)  # a bad --target is a usage error now (argparse, exit 2): nothing is built
    assert "'..'" in r.stderr or "nodes[1].name" in r.stderr, r.stderr
    assert (victim / "important.txt").read_text() == "keep me"
    assert sorted(p.name for p in victim.iterdir()) == ["important.txt"]  # not even -o was created


def test_path_inside_refuses_every_escape(tmp_path: Path) -> None:
    """The guard every name-built path goes through: .., absolute parts and symlinks out are refused."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "link").symlink_to(tmp_path)
    assert path_inside(out, "n1") == (out / "n1").resolve()
    for parts in (("..",), ("/etc",), ("link", "x"), ("",), (".",), ("a", "..", "..", "b")):
        with pytest.raises(OutputPathError):
            path_inside(out, *parts)


def test_newline_names_never_reach_passwd_or_acl(tiny_dir: Path, tmp_path: Path) -> None:
    """The issue's case: a node named ``x\\nx:$7$101$abc`` once added a passwd line with a chosen hash."""
    dep = renamed(tiny_dir, tmp_path / "nl", "n1", "x\nx:$7$101$abc")
    r = bb("broker", str(dep), "-o", str(tmp_path / "b"), "--write-only")
    refused(r, 1)
    assert not (tmp_path / "b").exists()
    # past the schema (a Deployment built in code), the config helper still refuses, before writing anything
    good: Deployment = load_deployment(tiny_dir)
    for bad in ("x\nx:$7$101$abc", "a:b", "..", "a b", "a/#"):
        evil = copy.deepcopy(good)
        evil.nodes[1].name = bad
        for e in evil.edges:
            e.dst = bad if e.dst == "n1" else e.dst
            e.src = bad if e.src == "n1" else e.src
        for x in evil.inputs + evil.outputs:
            x.node = bad if x.node == "n1" else x.node
        with pytest.raises(ConfigValueError):
            write_broker_files(tmp_path / "direct", evil)
        assert not (tmp_path / "direct").exists(), bad


@pytest.mark.parametrize("args", [
    ("--prefix", "bb\ntopic readwrite #"), ("--prefix", "a/#"), ("--prefix", ".."), ("--prefix", "_host"),
    ("--site", ".."), ("--site", "a\nb"), ("--accept-bridge", "east"), ("--accept-bridge", "e\nx=n0"),
    ("--accept-bridge", "east=n0,.."),
])
def test_broker_refuses_bad_names_on_the_command_line(tiny_dir: Path, tmp_path: Path, args: tuple[str, ...]) -> None:
    """``--prefix $'bb\\ntopic readwrite #'`` once exited 0 and granted every user everything."""
    r = bb("broker", str(tiny_dir), "-o", str(tmp_path / "b"), "--write-only", *args)
    refused(r, 2)
    assert not (tmp_path / "b").exists()


def test_broker_refuses_ghosts_and_a_bridge_without_credentials(tiny_dir: Path, tmp_path: Path) -> None:
    """Nodes a deployment does not have, and a bridge with no password, are refused before anything is written."""
    for args in (("--accept-bridge", "east=ghost"),
                 ("--site", "east", "--site-nodes", "n0", "--bridge-to", "mqtt://127.0.0.1:1"),
                 ("--site", "east", "--bridge-to", "mqtt://127.0.0.1:1"),
                 ("--site", "east", "--site-nodes", "ghost", "--bridge-to", "mqtt://u:p@127.0.0.1:1")):
        r = bb("broker", str(tiny_dir), "-o", str(tmp_path / "b"), "--write-only", *args)
        refused(r, 1)
        assert not (tmp_path / "b").exists(), args


def test_keygen_and_compile_refuse_bad_names(tiny_dir: Path, tmp_path: Path) -> None:
    """``keygen --hmac-nodes ghost`` and ``compile --standby n1=..`` once exited 0."""
    refused(bb("keygen", "-o", str(tmp_path / "k"), "--hmac-nodes", "../../evil"), 2)
    refused(bb("keygen", "-o", str(tmp_path / "k"), "--hmac-nodes", "ghost", "--deployment", str(tiny_dir)), 2)
    assert not (tmp_path / "k" / "hmac").exists()
    model = tiny_dir.parent / "tiny.onnx"
    refused(bb("compile", str(model), "--nodes", "2", "--standby", "n1=..", "-o", str(tmp_path / "c")), 2)
    refused(bb("node", str(tiny_dir), "--node", "../n1"), 2)


def test_config_value_quotes_or_refuses() -> None:
    """The one helper: each format's quoting, and a refusal for what a format cannot hold."""
    assert config_value('a"b%c$d\\', "systemd") == '"a\\"b%%c$$d\\\\"'
    assert config_value('pa"ss\\', "kconfig") == '"pa\\"ss\\\\"'
    assert config_value("<a&'b'>", "xml") == "&lt;a&amp;&apos;b&apos;&gt;"
    assert config_value("it's", "python") == '"it\'s"'
    assert config_value("bb/dep/in/+", "acl_topic") == "bb/dep/in/+"
    assert config_value("_host", "passwd_user") == "_host"
    for value, kind in (("a\nb", "conf"), ("a\rb", "systemd"), ("a\x00", "kconfig"), ("a\nb", "python"),
                        ("a:b", "passwd_user"), ("a b", "acl_user"), ("bb/a#", "acl_topic"), ("bb/#/x", "acl_topic"),
                        ("bb/x y", "acl_topic"), ("", "acl_topic"), ("a\tb", "xml")):
        with pytest.raises(ConfigValueError):
            config_value(value, kind)  # type: ignore[arg-type]
