"""Strategies as Modules: which targets each node installs, with which bound components.

A module turns a :class:`~bb_edge.training.setup.LearningSetup` into
nodes: for each node it binds components to roles (``model``, ``data``,
``aggregator``, ``codec``, ``peers``, ``liveness``, ``attack``) and registers
the strategy's protocol handlers on an ordinary :class:`Engine`. A runner
(``bb_edge.adapters.learn.simulator``) only calls the methods of :class:`StrategyModule`,
so a new strategy is a new module here: no engine or adapter change.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from bb_edge.deployment.learning import learning_clients, learning_roster
from bb_edge.engine import Engine
from bb_edge.learn.aggregators import FedAvgM
from bb_edge.learn.codecs import GaussianDPCodec
from bb_edge.learn.data import ArraySource
from bb_edge.learn.liveness import LivenessTable
from bb_edge.learn.peers import MODES, PeerSelector
from bb_edge.learn.roles import ConfigError
from bb_edge.learn.specs import component
from bb_edge.strategies.base import ModelState, install_handler
from bb_edge.strategies.fedavg import Collusion, DiLoCoServer, DiLoCoWorker, FedAvgClient, FedAvgServer
from bb_edge.strategies.gossip import GossipNode
from bb_edge.strategies.pushsum import PushSumNode
from bb_edge.strategies.split import SplitClient, SplitServer

if TYPE_CHECKING:  # the setup and its programs are built by the build wing (bb_edge.training) and handed in
    import onnx

    from bb_edge.training.setup import LearningSetup
    from bb_edge.training.split import SplitPrograms

__all__ = ["StrategyModule", "FedAvgModule", "DiLoCoModule", "GossipModule", "PushSumModule", "SplitModule",
           "STRATEGIES", "module_for", "Roster"]


def _model(vec: np.ndarray) -> ModelState:
    m = ModelState()
    m.set(vec)
    return m


@dataclass(frozen=True)
class Roster:
    """Who is in a run, computed once per strategy module (:meth:`StrategyModule.roster`); immutable."""

    clients: tuple[str, ...]
    nodes: tuple[tuple[str, int], ...]
    ids: Mapping[str, int]  # node name -> wire id
    client_set: frozenset[str]
    client_index: Mapping[str, int]  # client name -> its partition index


@dataclass
class StrategyModule(abc.ABC):
    """Base of the strategy modules (the runner's whole interface to a strategy).

    Abstract: a strategy implements :meth:`install`, :meth:`progress` and :meth:`evaluate`.
    """

    setup: LearningSetup
    name: str = "strategy"
    malicious: set[str] = field(default_factory=set, init=False)
    roster_builds: int = field(default=0, init=False)  # times roster() built its tables (once per module)

    @property
    def cfg(self) -> dict[str, Any]:
        """The resolved learning config."""
        return self.setup.cfg

    @property
    def rounds(self) -> int:
        """Rounds (or periods, or epochs) to run."""
        return int(self.cfg["rounds"])

    def nodes(self) -> list[tuple[str, int]]:
        """Every node (name, wire id): the deployment's roster (:mod:`bb_edge.deployment.learning`)."""
        return learning_roster(self._roster_cfg())

    def clients(self) -> list[str]:
        """The nodes that may leave or join late (never the server)."""
        return learning_clients(self._roster_cfg())

    def _roster_cfg(self) -> dict[str, Any]:
        return {**self.cfg, "strategy": self.name}

    def roster(self) -> Roster:
        """The run's clients and nodes, built once per module and shared (read-only) by every engine.

        :meth:`clients` and :meth:`nodes` build new lists on every call; building one engine per node
        with them made set-up quadratic in the fleet size (the issue-17 profile), so per-node code
        (``build_engine``, :meth:`peers_of`, :meth:`install`) reads this instead.
        """
        r = self.__dict__.get("_roster")
        if r is None:
            clients = tuple(self.clients())
            nodes = tuple(self.nodes())
            r = Roster(clients, nodes, MappingProxyType(dict(nodes)), frozenset(clients),
                       MappingProxyType({c: i for i, c in enumerate(clients)}))
            self.__dict__["_roster"] = r
            self.roster_builds += 1
        return r

    def peers_of(self, name: str) -> dict[str, int]:
        """The peer table of ``name``'s engine."""
        return dict(self.roster().ids)

    def compute(self) -> dict[str, onnx.ModelProto]:
        """Programs to prepare once and share (``attach_compute``) across every engine."""
        return {"train": self.setup.program.model}

    @abc.abstractmethod
    def install(self, engine: Engine, name: str, late: bool = False) -> None:
        """Bind components and register protocol handlers on ``name``'s engine."""

    @abc.abstractmethod
    def progress(self, now: float, engines: dict[str, Engine]) -> int:
        """Completed rounds so far."""

    def finished(self, now: float, engines: dict[str, Engine]) -> bool:
        """True when the run is over."""
        return self.progress(now, engines) >= self.rounds

    @abc.abstractmethod
    def evaluate(self, engines: dict[str, Engine]) -> float:
        """Held-out accuracy of the current model(s)."""

    def global_vector(self, engines: dict[str, Engine]) -> np.ndarray | None:
        """The run's single global model (a copy), if the strategy has one (FedAvg's server); else None."""
        return None

    def _data(self, name: str) -> ArraySource:
        p = self.setup.parts[self.roster().client_index[name]]
        return ArraySource(p.x, p.y)

    def _mean_acc(self, engines: dict[str, Engine], k: int = 10) -> float:
        names = [n for n in self.clients() if n in engines]
        if not names:
            return float("nan")
        pick = [names[int(i)] for i in np.linspace(0, len(names) - 1, min(k, len(names))).round()]
        return float(np.mean([self.setup.accuracy(engines[n].bindings["model"].vector) for n in pick]))


@dataclass
class FedAvgModule(StrategyModule):
    """FedAvg: one ``server`` node (server target) and clients ``c0..`` (client target)."""

    name: str = "fedavg"
    server_cls: type[FedAvgServer] = FedAvgServer
    client_cls: type[FedAvgClient] = FedAvgClient

    def __post_init__(self) -> None:
        att = self.cfg.get("attack")
        if att:
            n = int(att.get("malicious", 0))
            rng = np.random.default_rng([int(self.cfg["seed"]), 7])
            self.malicious = {self.clients()[int(i)] for i in rng.choice(len(self.clients()), n, replace=False)}
            omni = str(att.get("knowledge", "colluders")) == "omniscient"
            self._collusion = Collusion(members=max(n, 1), omniscient=omni,
                                        honest_members=len(self.clients()) - n if omni else 0)

    def peers_of(self, name: str) -> dict[str, int]:
        """Clients know only the server; the server knows everyone."""
        ids = self.roster().ids
        return dict(ids) if name == "server" else {"server": 1, name: ids[name]}

    def install(self, engine: Engine, name: str, late: bool = False) -> None:
        """Server target on ``server``, client target on the clients."""
        cfg, prog = self.cfg, self.setup.program
        init = prog.layout.flatten(prog.initial_params)
        engine.bind("model", _model(init))
        codec = component(cfg.get("codec"))
        if isinstance(codec, GaussianDPCodec):
            codec.node = engine.node_id  # every client draws its own noise
        sa = self._secagg()
        if sa is not None and codec is not None:
            raise ConfigError("secagg and a codec do not combine: secure aggregation has its own encoding")
        if codec is not None:
            engine.bind("codec", codec)
        hb = float(cfg["heartbeat"])
        blocked, sharing = self._sharing()
        if name == "server":
            engine.bind("aggregator", self._aggregator())
            engine.bind("liveness", LivenessTable(threshold=8.0, min_std=0.5 * hb, acceptable_pause=hb,
                                                  first_interval=hb))
            server_cls: type[FedAvgServer] = self.server_cls
            skw: dict[str, Any] = {}
            if sa is not None:
                from bb_edge.strategies.secagg import SecAggServer

                # no MODEL re-ask: a re-sent MODEL would restart a client's key phase; SecAgg's own dropout
                # recovery (the unmask phase) covers a client that went silent
                server_cls, skw = SecAggServer, {"threshold": sa["threshold"], "frac_bits": sa["frac_bits"],
                                                 "reask": 0.0}
            if blocked or sharing:
                ids = dict(self.nodes())
                sel = PeerSelector(nodes=[i for _, i in self.nodes()], topology="full", seed=int(cfg["seed"]))
                for c in blocked:
                    sel.block(ids["server"], ids[c])
                for c, mode in sharing.items():
                    sel.set_mode(ids[c], mode)
                engine.bind("peers", sel)
            # a blocked client is never admitted: the first round does not wait for it
            start = int(cfg.get("start_clients", cfg["clients"])) - len(blocked)
            install_handler(engine, server_cls(
                size=prog.layout.size, rounds=self.rounds, min_clients=int(cfg["min_clients"]),
                clients_per_round=int(cfg["clients_per_round"]), round_timeout=float(cfg["round_timeout"]),
                start_clients=max(start, 1), start_after=float(cfg.get("start_after", 2 * hb)),
                max_norm=cfg.get("max_norm"), seed=int(cfg["seed"]), rounds_count=self._rounds_count(),
                **{"reask": float(cfg.get("reask", -1.0)), **self._sample_caps(), **skw}))
            return
        engine.bind("data", self._data(name))
        if name in self.malicious:
            engine.bind("attack", component(cfg["attack"]))
            engine.bind("collusion", self._collusion)
        elif self.malicious and self._collusion.omniscient:
            engine.bind("collusion", self._collusion)
        kw: dict[str, Any] = {"local_steps": int(cfg["local_steps"])} if cfg.get("local_steps") else {}
        client_cls: type[FedAvgClient] = self.client_cls
        if sa is not None:
            from bb_edge.strategies.secagg import SecAggFedClient

            client_cls = SecAggFedClient
            kw.update(threshold=sa["threshold"], frac_bits=sa["frac_bits"], withhold=name in sa["withhold"],
                      garble=name in sa["garble"])
        install_handler(engine, client_cls(
            program=prog, server="server", epochs=int(cfg["epochs"]), batch_size=int(cfg["batch_size"]),
            heartbeat_interval=hb, seed=int(cfg["seed"]), **kw))

    def _rounds_count(self) -> str:
        """What ``rounds`` counts: ``"started"`` (the default) or ``"completed"`` (aborted rounds are retried)."""
        rc = self.cfg.get("rounds_count", "started")
        if rc not in ("started", "completed"):
            raise ConfigError(f"rounds_count must be 'started' or 'completed', not {rc!r}")
        return str(rc)

    def _aggregator(self) -> Any:
        return component(self.cfg["aggregator"])

    def _secagg(self) -> dict[str, Any] | None:
        """The validated ``secagg`` settings, or ``None`` when the run does not use secure aggregation."""
        spec = self.cfg.get("secagg")
        if spec is None or spec is False:
            return None
        if self.name != "fedavg":
            raise ConfigError(f"secagg runs with the fedavg strategy, not {self.name}")
        # imported here: secure aggregation (and cryptography, ~5 MB a process) loads only in runs that use it
        from bb_edge.strategies.secagg import check_secagg_config

        sa = check_secagg_config(spec, len(self.roster().clients), self.cfg.get("aggregator"))
        for key in ("withhold", "garble"):
            unknown = set(sa[key]) - self.roster().client_set
            if unknown:
                raise ConfigError(f"secagg.{key} names no client: {sorted(unknown)}")
        return sa

    def _sharing(self) -> tuple[list[str], dict[str, str]]:
        """``blocked`` (client names the server refuses) and ``sharing`` (client -> mode), validated."""
        blocked = self.cfg.get("blocked") or []
        sharing = self.cfg.get("sharing") or {}
        if not isinstance(blocked, list) or not isinstance(sharing, dict):
            raise ConfigError("'blocked' is a list of client names, 'sharing' an object {client: mode}")
        unknown = (set(blocked) | set(sharing)) - self.roster().client_set
        if unknown:
            raise ConfigError(f"'blocked'/'sharing' name no client: {sorted(map(str, unknown))}")
        bad = {k: v for k, v in sharing.items() if v not in MODES}
        if bad:
            raise ConfigError(f"unknown sharing modes {bad}; use one of {MODES}")
        return [str(b) for b in blocked], {str(k): str(v) for k, v in sharing.items()}

    def _sample_caps(self) -> dict[str, Any]:
        """The server's sample-count caps: ``"sample_cap"`` from the config, else each client's partition size."""
        spec = self.cfg.get("sample_cap", "partition")
        if spec == "partition":
            ids = dict(self.nodes())
            return {"sample_caps": {ids[c]: len(p.x) for c, p in zip(self.clients(), self.setup.parts, strict=False)}}
        if isinstance(spec, bool) or not isinstance(spec, int) or spec < 1:
            raise ConfigError(f"sample_cap must be 'partition' or a positive integer, got {spec!r}")
        return {"sample_cap": spec}

    def _server(self, engines: dict[str, Engine]) -> FedAvgServer:
        return next(h for h in engines["server"].protocols.values() if isinstance(h, FedAvgServer))

    def progress(self, now: float, engines: dict[str, Engine]) -> int:
        """Rounds closed by the server (completed or aborted)."""
        s = self._server(engines)
        return s.round - (1 if s.open else 0)

    def finished(self, now: float, engines: dict[str, Engine]) -> bool:
        """The server has run all its rounds."""
        return self._server(engines).finished

    def evaluate(self, engines: dict[str, Engine]) -> float:
        """Accuracy of the global model."""
        return self.setup.accuracy(engines["server"].bindings["model"].vector)

    def global_vector(self, engines: dict[str, Engine]) -> np.ndarray | None:
        """The server's model."""
        return np.array(engines["server"].bindings["model"].vector)


@dataclass
class DiLoCoModule(FedAvgModule):
    """DiLoCo: FedAvg's composition with DiLoCo targets and an outer momentum optimizer."""

    name: str = "diloco"
    server_cls: type[FedAvgServer] = DiLoCoServer
    client_cls: type[FedAvgClient] = DiLoCoWorker

    def _aggregator(self) -> Any:
        spec = self.cfg.get("aggregator")
        if spec and spec.get("type") != "mean":
            return component(spec)
        return FedAvgM(lr=0.7, momentum=0.9)


@dataclass
class GossipModule(StrategyModule):
    """Gossip learning: nodes ``n0..`` all running :class:`GossipNode`; a round is one ``period``."""

    name: str = "gossip"

    def install(self, engine: Engine, name: str, late: bool = False) -> None:
        """Model, data, a random-peer selector and the gossip target."""
        cfg, prog = self.cfg, self.setup.program
        self._bind_peer_roles(engine, name)
        codec = component(cfg.get("codec"))
        if codec is not None:
            engine.bind("codec", codec)
        install_handler(engine, GossipNode(program=prog, period=float(cfg["period"]), epochs=int(cfg["epochs"]),
                                            local_steps=int(cfg["local_steps"]), batch_size=int(cfg["batch_size"]),
                                            fetch_on_join=late, seed=int(cfg["seed"])))

    def _bind_peer_roles(self, engine: Engine, name: str) -> None:
        """The roles every decentralised node binds: its model, its data and a peer selector."""
        cfg, prog = self.cfg, self.setup.program
        engine.bind("model", _model(prog.layout.flatten(prog.initial_params)))
        engine.bind("data", self._data(name))
        ids = [i for _, i in self.roster().nodes]
        engine.bind("peers", PeerSelector(nodes=ids, topology=cfg.get("topology", "random"),
                                          k=int(cfg.get("k", 1)), seed=int(cfg["seed"])))

    def progress(self, now: float, engines: dict[str, Engine]) -> int:
        """Whole periods of virtual time elapsed."""
        return int(now / float(self.cfg["period"]) + 1e-9)

    def evaluate(self, engines: dict[str, Engine]) -> float:
        """Mean accuracy of (up to 10, evenly spread) live nodes' models."""
        return self._mean_acc(engines)


@dataclass
class PushSumModule(GossipModule):
    """Push-sum averaging (with local SGD when ``train`` is true, the default)."""

    name: str = "pushsum"

    def install(self, engine: Engine, name: str, late: bool = False) -> None:
        """Model, data, peers and the push-sum target."""
        cfg, prog = self.cfg, self.setup.program
        self._bind_peer_roles(engine, name)
        install_handler(engine, PushSumNode(program=prog, train=bool(cfg.get("train", True)),
                                             period=float(cfg["period"]),
                                             local_steps=int(cfg["local_steps"]) or 4,
                                             batch_size=int(cfg["batch_size"]), seed=int(cfg["seed"])))


@dataclass
class SplitModule(StrategyModule):
    """Split learning (``split``: one client) and SplitFed (``splitfed``: many, client halves averaged)."""

    name: str = "split"
    programs: SplitPrograms = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.setup.split is None:
            raise ConfigError(f"strategy {self.name}: the setup carries no split programs "
                              "(build it with bb_edge.training.setup.build_setup for a split strategy)")
        self.programs = self.setup.split

    def compute(self) -> dict[str, onnx.ModelProto]:
        """Client forward, client step and server step."""
        return self.programs.compute()

    def install(self, engine: Engine, name: str, late: bool = False) -> None:
        """Server half on ``server``, client halves on the clients."""
        cfg = self.cfg
        fed = self.name == "splitfed"
        if name == "server":
            sp = self.programs.server
            engine.bind("model", _model(sp.layout.flatten(sp.initial_params)))
            install_handler(engine, SplitServer(self.programs, splitfed=fed, fed_timeout=float(cfg["round_timeout"]),
                                                 strategy=self.name))
            return
        cp = self.programs.client
        engine.bind("model", _model(cp.layout.flatten(cp.initial_params)))
        engine.bind("data", self._data(name))
        install_handler(engine, SplitClient(self.programs, "server", epochs=self.rounds,
                                             batch_size=int(cfg["batch_size"]), splitfed=fed, seed=int(cfg["seed"]),
                                             strategy=self.name))

    def progress(self, now: float, engines: dict[str, Engine]) -> int:
        """Epochs completed by the slowest live client."""
        rounds = [engines[c].bindings["model"].round for c in self.clients() if c in engines]
        return min(rounds) if rounds else self.rounds

    def evaluate(self, engines: dict[str, Engine]) -> float:
        """Accuracy of the first live client's half joined with the server half."""
        c = next((c for c in self.clients() if c in engines), None)
        if c is None:
            return float("nan")
        params = self.programs.joined(engines[c].bindings["model"].vector, engines["server"].bindings["model"].vector)
        return self.setup.accuracy(params)


STRATEGIES: dict[str, type[StrategyModule]] = {
    "fedavg": FedAvgModule, "diloco": DiLoCoModule, "gossip": GossipModule, "pushsum": PushSumModule,
    "split": SplitModule, "splitfed": SplitModule,
}


def module_for(setup: LearningSetup) -> StrategyModule:
    """The module of ``setup.cfg['strategy']``."""
    name = str(setup.cfg["strategy"])
    if name not in STRATEGIES:
        raise ValueError(f"unknown strategy {name!r}; known: {sorted(STRATEGIES)}")
    return STRATEGIES[name](setup, name=name)
