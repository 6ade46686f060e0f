#!/usr/bin/env bash
# The .deb of a build (issue 50): made by cpack as scripts/package.sh makes it, unpacked into a
# scratch root (dpkg -x, no install), its programs run from there: `sosrep --version` says the
# project's version and the studio writes a screenshot of its demo; the desktop entry opens
# project files, whose MIME type is declared. Usage: check_deb_package.sh BUILD_DIR VERSION
set -euo pipefail
build="$1"
version="$2"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
(cd "$build" && cpack -G DEB -B "$scratch/pkg" >/dev/null)
deb="$(ls "$scratch"/pkg/sosrep-studio_"$version"_*.deb)"
dpkg-deb -f "$deb" Depends | grep -q libqt6widgets6 || { echo "no Qt dependency"; exit 1; }
dpkg -x "$deb" "$scratch/root"
usr="$scratch/root/usr"
for f in bin/sosrep bin/sosrep-studio share/applications/sosrep-studio.desktop \
    share/icons/hicolor/scalable/apps/sosrep-studio.svg share/mime/packages/sosrep-studio.xml; do
    [ -f "$usr/$f" ] || { echo "missing /usr/$f"; exit 1; }
done
if dpkg-deb -c "$deb" | grep -q dist-packages; then
    echo "the Python package is in the .deb (it ships as a wheel)"
    exit 1
fi
got="$("$usr/bin/sosrep" --version)"
case "$got" in *"$version"*) ;; *) echo "sosrep --version: '$got', not $version"; exit 1 ;; esac
QT_QPA_PLATFORM=offscreen "$usr/bin/sosrep-studio" --demo --size 800x600 \
    --screenshot "$scratch/demo.png" >/dev/null 2>&1
[ -s "$scratch/demo.png" ] || { echo "the unpacked studio wrote no screenshot"; exit 1; }
grep -q '^MimeType=.*application/x-sosrep-project' "$usr/share/applications/sosrep-studio.desktop"
grep -q '^Exec=sosrep-studio %f' "$usr/share/applications/sosrep-studio.desktop"
/usr/bin/python3 - "$usr/share/mime/packages/sosrep-studio.xml" <<'PY'
import sys
import xml.etree.ElementTree as ET
ns = "{http://www.freedesktop.org/standards/shared-mime-info}"
t = ET.parse(sys.argv[1]).getroot().find(ns + "mime-type")
assert t.get("type") == "application/x-sosrep-project", t.get("type")
assert t.find(ns + "glob").get("pattern") == "*.sosrep.json"
PY
echo "ok: $(basename "$deb")"
