#!/usr/bin/env bash
# Builds the desktop package and the Python wheel into dist/ (issue 50):
#   dist/sosrep-studio_VERSION_amd64.deb  both programs, the desktop entry, the icon and the
#                                         project files' MIME type (sudo apt install ./dist/...)
#   dist/sosrep-VERSION-*.whl             the Python package (pip install dist/sosrep-*.whl)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
mkdir -p "$root/dist"
(cd "$root/build" && cpack -G DEB -B "$root/dist/cpack" >/dev/null)
mv "$root"/dist/cpack/sosrep-studio_*.deb "$root/dist/"
rm -rf "$root/dist/cpack"
# Debian's setuptools and wheel, offline: the extension is built by setup.py's CMake run.
/usr/bin/python3 -m pip wheel --no-build-isolation --no-deps -w "$root/dist" "$root" >/dev/null
ls -l "$root"/dist/*.deb "$root"/dist/*.whl
