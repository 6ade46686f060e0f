#!/usr/bin/env bash
# `pip install --no-build-isolation --target` of a copy of the checkout (pyproject.toml, setup.py),
# offline, then checks the installed package: imported from where pip put it, one version for
# sosrep.__version__, importlib.metadata and `sosrep --version`, and a fit.
#   check_pip_install.sh SOURCE_DIR WORK_DIR PYTHON SOSREP_CLI [CMAKE_BUILD_DIR]
# With CMAKE_BUILD_DIR the extension is built there (already built by the test run: no second
# cold build); without it, setup.py configures a fresh build of its own (minutes).
set -euo pipefail
src="$1" work="$2" python="$3" cli="$4"
rm -rf "$work"
mkdir -p "$work/checkout"
# The checkout without build folders: what a user has after `git clone`.
(cd "$src" && tar --exclude='./build' --exclude='./build-*' --exclude='./.git' -cf - .) |
    (cd "$work/checkout" && tar -xf -)
if [ $# -ge 5 ]; then
    export SOSREP_CMAKE_BUILD="$5"
fi
"$python" -m pip install --no-build-isolation --no-deps --no-index --quiet --root-user-action=ignore \
    --target "$work/site" "$work/checkout"
cd "$work"  # not the source tree: the import must come from the installed copy
PYTHONPATH="$work/site" "$python" - "$work/site" "$("$cli" --version)" <<'PY'
import importlib.metadata
import sys

import numpy as np
import sosrep

site, cli_version = sys.argv[1], sys.argv[2]
assert sosrep.__file__.startswith(site), sosrep.__file__
assert sosrep._sosrep.__file__.startswith(site), sosrep._sosrep.__file__
meta = importlib.metadata.version("sosrep")
assert cli_version == f"sosrep {sosrep.__version__}", (cli_version, sosrep.__version__)
assert meta == sosrep.__version__, (meta, sosrep.__version__)
X = np.random.default_rng(0).normal(size=(200, 2))
log_p = sosrep.KDE(length_scale=0.1).fit(X).score_samples(X[:5])
assert log_p.shape == (5,) and np.all(np.isfinite(log_p)), log_p
print(f"pip-installed sosrep {meta} in {site}: ok")
PY
