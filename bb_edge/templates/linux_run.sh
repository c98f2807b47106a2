#!/bin/sh
# Launch node @NODE@ of deployment @DEPLOYMENT@ from this bundle directory.
# The transport URL comes from $BB_TRANSPORT, else from node.env.
set -eu
HERE="$(cd "$(dirname "$0")" && pwd)"
if [ -z "${BB_TRANSPORT:-}" ] && [ -f "$HERE/node.env" ]; then
  set -a; . "$HERE/node.env"; set +a
fi
export PYTHONPATH="$HERE/lib${PYTHONPATH:+:$PYTHONPATH}"
cd "$HERE"
exec "${PYTHON:-python3}" @LAUNCH@ "$@"
