"""Learning at run time: the roles and components of federated learning, its events and its strategies.

Submodules: :mod:`.roles` (protocols and the component registry), :mod:`.specs`
(a component from its config spec), :mod:`.aggregators`, :mod:`.attacks`,
:mod:`.peers`, :mod:`.codecs`, :mod:`.data`, :mod:`.liveness` (phi-accrual),
:mod:`.validation`, :mod:`.events` and :mod:`.strategies` (the protocol handlers
and the modules that compose them). The training programs they run are built by
:mod:`bb_edge.training` (the build wing). Nothing here performs I/O or reads a clock.
"""
