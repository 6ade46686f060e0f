# SPDX-License-Identifier: MIT
"""Builds the sosrep extension with the project's own CMake (pyproject.toml names setuptools).

The extension is the CMake target sosrep_python (app/python), built without the app and the
tests. Environment:
    CMAKE_ARGS            more -D options, e.g. "-DSOSREP_NATIVE=ON" for this machine's CPU
                          (the default is portable: a wheel may be installed elsewhere)
    SOSREP_CMAKE_BUILD    an existing, configured build folder to build the target in instead
                          of a fresh one (how the test suite checks packaging without a second
                          cold build)
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version():
    """project(... VERSION x.y.z) of CMakeLists.txt: one version for the CLI and the package."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(\s*\w+\s+VERSION\s+([0-9][0-9.]*)", text)
    if not match:
        raise RuntimeError("CMakeLists.txt: no project(... VERSION x.y.z)")
    return match.group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("SOSREP_CMAKE_BUILD")
        if build:
            build = Path(build).resolve()
        else:
            build = Path(self.build_temp).resolve() / "cmake"
            args = ["-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                    "-DSOSREP_BUILD_GUI=OFF", "-DSOSREP_BUILD_TESTS=OFF", "-DSOSREP_NATIVE=OFF",
                    f"-DPYTHON_EXECUTABLE={sys.executable}"]
            args += shlex.split(os.environ.get("CMAKE_ARGS", ""))
            subprocess.run(["cmake", *args], check=True)
        jobs = str(os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", str(build), "--target", "sosrep_python",
                        "--parallel", jobs], check=True)
        built = sorted((build / "python" / "sosrep").glob("_sosrep*.so"))
        if len(built) != 1:
            raise RuntimeError(f"{build}/python/sosrep: expected one _sosrep*.so, found {built}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)


# setuptools wants egg_info's folder to exist.
os.makedirs(ROOT / "build-python", exist_ok=True)
setup(
    version=project_version(),
    packages=["sosrep"],
    package_dir={"sosrep": "app/python/sosrep"},
    package_data={"sosrep": ["__init__.pyi", "py.typed"]},  # type stubs (PEP 561)
    ext_modules=[CMakeExtension("sosrep._sosrep")],
    cmdclass={"build_ext": CMakeBuild},
    # Not ./build: that is the CMake build of the app (scripts/build.sh).
    options={"build": {"build_base": "build-python"}, "egg_info": {"egg_base": "build-python"}},
    zip_safe=False,
)
