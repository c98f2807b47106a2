"""Learning strategies built on the engine: protocol components plus the modules that compose them.

See :mod:`bb_edge.learn.strategies.base` for the protocol ids and message
layout, and :mod:`bb_edge.learn.strategies.modules` for the compositions.
"""

from bb_edge.learn.strategies.base import ModelState, Msg
from bb_edge.learn.strategies.fedavg import Collusion, DiLoCoServer, DiLoCoWorker, FedAvgClient, FedAvgServer
from bb_edge.learn.strategies.gossip import GossipNode
from bb_edge.learn.strategies.pushsum import PushSumNode
from bb_edge.learn.strategies.split import SplitClient, SplitServer

__all__ = ["ModelState", "Msg", "Collusion", "FedAvgServer", "FedAvgClient", "DiLoCoServer", "DiLoCoWorker",
           "GossipNode", "PushSumNode", "SplitClient", "SplitServer"]
