"""Learning strategies built on the engine: protocol components plus the modules that compose them.

See :mod:`bb_edge.strategies.base` for the protocol ids and message
layout, and :mod:`bb_edge.strategies.modules` for the compositions.
"""

from bb_edge.strategies.base import ModelState, Msg
from bb_edge.strategies.fedavg import Collusion, DiLoCoServer, DiLoCoWorker, FedAvgClient, FedAvgServer
from bb_edge.strategies.gossip import GossipNode
from bb_edge.strategies.pushsum import PushSumNode
from bb_edge.strategies.split import SplitClient, SplitServer

__all__ = ["ModelState", "Msg", "Collusion", "FedAvgServer", "FedAvgClient", "DiLoCoServer", "DiLoCoWorker",
           "GossipNode", "PushSumNode", "SplitClient", "SplitServer"]
