#!/usr/bin/env bash
# Installs the Debian packages SOSREP Studio needs, skipping those already present (idempotent).
#   install-deps.sh               what the build, the app and the tests need
#   install-deps.sh --sanitizers  also clang with its runtimes (ASan, UBSan, libFuzzer, OpenMP)
#   install-deps.sh --python      the same (NumPy, scikit-learn, pybind11 and pytest are now
#                                 in the base list: the Python package is built and tested)
set -euo pipefail
packages=(build-essential cmake pkg-config qt6-base-dev qt6-svg-dev libqcustomplot-dev
          libqcustomplot2.1-qt6 libeigen3-dev zlib1g-dev nlohmann-json3-dev libgl-dev xvfb xauth
          locales universal-ctags
          python3 python3-dev pybind11-dev python3-numpy python3-sklearn python3-pytest
          python3-dask python3-distributed python3-pandas python3-matplotlib
          python3-pip python3-setuptools python3-wheel python3-sphinx)
if [ "${1:-}" = "--sanitizers" ]; then
    packages+=(clang libclang-rt-14-dev libomp-dev)
elif [ "${1:-}" = "--python" ]; then
    packages+=(python3 python3-numpy python3-sklearn)
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
echo "Installing missing Debian packages: ${missing[*]}"
sudo_cmd=""
if [ "$(id -u)" -ne 0 ]; then
    sudo_cmd="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
