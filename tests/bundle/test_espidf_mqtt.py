"""The ESP-IDF node on the broker `bb-edge broker` generates: `bb-edge build --target n1=esp32 --transport
"mqtt://HOST:PORT?creds=credentials.json"` writes the MQTT settings (broker URI, user = node name, its
own password in a private defaults file, TLS choice, CA pem) into the generated project.

No ESP-IDF toolchain here: the project is generated and structure-checked. The topics its main.c builds
are computed by compiling the generated topic definitions with the host C compiler and compared with
bb_edge/wire/topics.py; the credentials are compared with the broker generator's own passwords.
"""

from __future__ import annotations

import json
import re
import stat
import subprocess
from pathlib import Path

import numpy as np
import pytest

from bb_edge.adapters.ops.broker import write_broker_files
from bb_edge.bbrt.espidf import EspIdfConfigError, kconfig_string, mqtt_settings, sdkconfig_transport
from bb_edge.bundle.build import build_all
from bb_edge.compiler.compile import compile_model
from bb_edge.deployment.manifest import load_deployment
from bb_edge.wire.topics import Topics
from tests.support.examples import sample_inputs, small_cnn
from tests.support.transport_helpers import make_tls


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str], int]:
    """n1 of a 3-node split built for esp32 with the generated broker's URL (creds=)."""
    d = tmp_path_factory.mktemp("dep")
    dist = tmp_path_factory.mktemp("dist")
    compile_model(small_cnn(), cuts=["p1", "g"], node_names=["n0", "n1", "n2"], out_dir=d)
    calib = sample_inputs(8, seed=7)
    np.savez(d / "calib.npz", x=np.concatenate([s["x"] for s in calib]))
    files = write_broker_files(tmp_path_factory.mktemp("broker"), load_deployment(d), port=18831)
    build_all(d, ["n1=esp32"], dist, calib=d / "calib.npz", options={"transport": files.url()})
    return d, dist / "n1" / "esp-idf", files.passwords, files.port


def _sdkconfig(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if line and not line.startswith("#"))


def test_mqtt_settings_from_generated_broker(project: tuple[Path, Path, dict[str, str], int]) -> None:
    """URI, user = node name and keepalive in sdkconfig.defaults; the node's own password (the broker
    generator's) only in sdkconfig.credentials, mode 0600, read as a second defaults file."""
    _, p, passwords, port = project
    defaults = _sdkconfig(p / "sdkconfig.defaults")
    assert defaults["CONFIG_BBRT_TRANSPORT_MQTT"] == "y" and "CONFIG_BBRT_TRANSPORT_UART" not in defaults
    assert defaults["CONFIG_BBRT_MQTT_URI"] == f'"mqtt://127.0.0.1:{port}"'
    assert defaults["CONFIG_BBRT_MQTT_USERNAME"] == '"n1"'
    assert defaults["CONFIG_BBRT_MQTT_TLS_NONE"] == "y"
    creds = p / "sdkconfig.credentials"
    assert _sdkconfig(creds) == {"CONFIG_BBRT_MQTT_PASSWORD": f'"{passwords["n1"]}"'}
    assert stat.S_IMODE(creds.stat().st_mode) == 0o600
    for f in p.rglob("*"):  # the password is nowhere else in the project; no other node's is anywhere
        if f.is_file() and f != creds and f.suffix != ".bbrt":
            text = f.read_text(errors="replace")
            assert passwords["n1"] not in text, f
        if f.is_file() and f.suffix != ".bbrt":
            assert all(passwords[n] not in f.read_text(errors="replace") for n in passwords if n != "n1"), f
    top = (p / "CMakeLists.txt").read_text()
    assert top.index('SDKCONFIG_DEFAULTS "sdkconfig.defaults;sdkconfig.credentials"') < top.index("project.cmake")
    # every option the generator sets is declared in the project's Kconfig (or is ESP-IDF's own)
    declared = set(re.findall(r"^\s*config (\w+)", (p / "main" / "Kconfig.projbuild").read_text(), re.M))
    for key in [*defaults, "CONFIG_BBRT_MQTT_PASSWORD"]:
        if key.startswith("CONFIG_BBRT_"):
            assert key[len("CONFIG_"):] in declared, key


def test_generated_topics_match_the_layout(project: tuple[Path, Path, dict[str, str], int],
                                           tmp_path: Path) -> None:
    """The topic strings main.c builds (compiled with the host compiler) are bb_edge/wire/topics.py's."""
    d, p, _, _ = project
    main_c = (p / "main" / "main.c").read_text()
    defs = [ln for ln in main_c.splitlines()
            if ln.startswith("#define BBRT_TOPIC") or re.match(r"static const char T_\w+\[\] = ", ln)]
    names = [re.match(r"static const char (T_\w+)", ln).group(1) for ln in defs if ln.startswith("static")]  # type: ignore[union-attr]
    prog = tmp_path / "topics.c"
    prog.write_text('#include <stdio.h>\n#include "bbrt_config.h"\n' + "\n".join(defs) + "\nint main(void) {\n"
                    + "".join(f'    printf("{n} %s\\n", {n});\n' for n in names) + "    return 0;\n}\n")
    exe = tmp_path / "topics"
    subprocess.run(["cc", "-std=c99", "-Wall", "-Werror", "-Wno-unused-variable", f"-I{p / 'main'}", str(prog),
                    "-o", str(exe)], check=True, timeout=60)
    got = dict(ln.split(" ", 1) for ln in subprocess.run([str(exe)], capture_output=True, text=True,
                                                         check=True, timeout=10).stdout.splitlines())
    t = Topics(load_deployment(d).name)
    assert got == {"T_INBOX": t.inbox_filter("n1"), "T_INBOX_PREFIX": t.inbox("n1", ""),
                   "T_BCAST": t.broadcast("+"), "T_BCAST_PREFIX": t.broadcast(""),
                   "T_BCAST_ME": t.broadcast("n1"), "T_PRESENCE": t.presence("n1"), "T_CTL": t.control()}


def test_session_will_and_order_in_main_c(project: tuple[Path, Path, dict[str, str], int]) -> None:
    """Persistent session under the node's client id, the retained QoS-1 last will "down" on its presence
    topic, TLS by bundle or embedded CA, subscriptions made before "up" is announced."""
    _, p, _, _ = project
    c = (p / "main" / "main.c").read_text()
    for needle in ("mcfg.session.disable_clean_session = true;", "mcfg.credentials.client_id = BBRT_NODE_NAME;",
                   "mcfg.session.last_will.topic = T_PRESENCE;", 'mcfg.session.last_will.msg = "down";',
                   "mcfg.session.last_will.qos = 1;", "mcfg.session.last_will.retain = 1;",
                   "mcfg.credentials.authentication.password = CONFIG_BBRT_MQTT_PASSWORD;",
                   "crt_bundle_attach = esp_crt_bundle_attach;", "verification.certificate = ca_pem_start;"):
        assert needle in c, needle
    connected = c[c.index("if (id == MQTT_EVENT_CONNECTED)"):]
    up = connected.index('esp_mqtt_client_publish(mqtt, T_PRESENCE, "up", 2, 1, 1);')
    for sub in ("T_INBOX", "T_BCAST", "T_CTL"):
        assert connected.index(f"esp_mqtt_client_subscribe(mqtt, {sub}, 1);") < up
    assert 'EMBED_TXTFILES "ca.pem"' in (p / "main" / "CMakeLists.txt").read_text()
    # every project option main.c reads is declared in its Kconfig (a typo would be an undefined macro)
    declared = set(re.findall(r"^\s*config (\w+)", (p / "main" / "Kconfig.projbuild").read_text(), re.M))
    used = set(re.findall(r"CONFIG_(BBRT_\w+)", c))
    assert used and used <= declared, sorted(used - declared)
    assert (p / "main" / "ca.pem").is_file()


def test_tls_choices_and_bad_urls(tmp_path: Path) -> None:
    """mqtts with ca= embeds that CA; mqtts without it verifies with the certificate bundle; bad input is
    one typed error each."""
    tls = make_tls(tmp_path / "tls")
    (tmp_path / "creds.json").write_text('{"n1": "pw\\"1", "n2": "x"}')
    s = mqtt_settings(f"mqtts://broker.lan:8884?creds={tmp_path / 'creds.json'}&ca={tls.cafile}", "n1")
    assert (s.uri, s.username, s.password, s.tls) == ("mqtts://broker.lan:8884", "n1", 'pw"1', "ca-pem")
    assert s.ca_pem == Path(tls.cafile).read_text()
    assert "CONFIG_BBRT_MQTT_TLS_CA_PEM=y" in sdkconfig_transport(s)
    assert kconfig_string(s.password or "") == '"pw\\"1"'
    b = mqtt_settings("mqtts://n1:secret@broker.lan", "n1")
    assert (b.uri, b.username, b.password, b.tls) == ("mqtts://broker.lan:8883", "n1", "secret", "bundle")
    assert "CONFIG_MBEDTLS_CERTIFICATE_BUNDLE=y" in sdkconfig_transport(b)
    assert sdkconfig_transport(None) == "CONFIG_BBRT_TRANSPORT_UART=y\n"
    (tmp_path / "not.pem").write_text("hello")
    for url in (f"mqtt://h:1883?creds={tmp_path / 'creds.json'}",  # no entry for the node (n9)
                "serial:///dev/ttyUSB0", "mqtt://h:notaport", f"mqtt://h?creds={tmp_path / 'missing.json'}",
                f"mqtts://h?ca={tmp_path / 'not.pem'}"):
        node = "n9" if "creds.json" in url else "n1"
        with pytest.raises(EspIdfConfigError):
            mqtt_settings(url, node)


def test_tls_project_embeds_the_ca(project: tuple[Path, Path, dict[str, str], int], tmp_path: Path) -> None:
    """`--transport mqtts://...&ca=CA.pem`: the project embeds that CA as main/ca.pem and selects it."""
    d, _, passwords, port = project
    tls = make_tls(tmp_path / "tls")
    creds = tmp_path / "credentials.json"
    creds.write_text(json.dumps({"n1": passwords["n1"]}))
    build_all(d, ["n1=esp32"], tmp_path / "dist", calib=d / "calib.npz",
              options={"transport": f"mqtts://127.0.0.1:{port}?creds={creds}&ca={tls.cafile}"})
    p = tmp_path / "dist" / "n1" / "esp-idf"
    defaults = _sdkconfig(p / "sdkconfig.defaults")
    assert defaults["CONFIG_BBRT_MQTT_URI"] == f'"mqtts://127.0.0.1:{port}"'
    assert defaults["CONFIG_BBRT_MQTT_TLS_CA_PEM"] == "y" and "CONFIG_BBRT_MQTT_TLS_NONE" not in defaults
    assert (p / "main" / "ca.pem").read_text() == Path(tls.cafile).read_text()
    assert _sdkconfig(p / "sdkconfig.credentials") == {"CONFIG_BBRT_MQTT_PASSWORD": f'"{passwords["n1"]}"'}
