"""The deployment contract every stage reads: the manifest, the per-node programs' wire ports, the schema.

It sits below the compiler, the lowerings, the bundles and the engine: each of them reads a compiled
deployment through this package and none of them imports another stage to do so.
"""
