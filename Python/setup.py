"""Builds auhost: the Swift library and its helper programs (swift build -c release in the checkout
this folder belongs to), copied into the package's _lib folder, where the library looks for them
beside itself (the unit-host child runs units out of process; lv2-sweep-child describes LADSPA
libraries, since describing one means running it, and reads half of a cold LV2 catalog), and the
C extension compiled against the checkout's own headers (Sources/CAudioToolbox/include) and linked
to that library.

The extension finds libauhost-capi.so through an rpath of $ORIGIN/_lib; the library finds the
Swift runtime through the rpath swiftc gives it (the toolchain's lib/swift/linux), so the
toolchain must stay where it was when the package was built. AUHOST_SWIFT (default: swift) picks
the swift executable.
"""
import os
import shutil
import subprocess
from pathlib import Path

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
HELPERS = ["auhost-unit-host", "lv2-sweep-child"]
PRODUCTS = ["auhost-capi", *HELPERS]
SHIPPED = ["libauhost-capi.so", *HELPERS]


def swift_build():
    """Builds the release products; returns the folder holding them."""
    swift = os.environ.get("AUHOST_SWIFT", "swift")
    if not (ROOT / "Package.swift").exists():
        raise SystemExit(f"auhost: {ROOT} is not the AUHost checkout (no Package.swift); install from the checkout's Python folder")
    for product in PRODUCTS:
        print(f"auhost: swift build -c release --product {product} (the first build takes several minutes)", flush=True)
        subprocess.run([swift, "build", "-c", "release", "--package-path", str(ROOT), "--product", product], check=True)
    out = subprocess.run(
        [swift, "build", "-c", "release", "--package-path", str(ROOT), "--show-bin-path"],
        check=True, capture_output=True, text=True)
    return Path(out.stdout.strip())


class BuildWithSwift(build_ext):
    """build_ext that first builds and ships the Swift library and its helper programs."""

    def run(self):
        bin_path = swift_build()
        lib_dir = Path(self.build_lib) / "auhost" / "_lib"
        lib_dir.mkdir(parents=True, exist_ok=True)
        for name in SHIPPED:
            shutil.copy2(bin_path / name, lib_dir / name)
        for ext in self.extensions:
            ext.library_dirs.append(str(lib_dir))
        if self.inplace:
            local = HERE / "src" / "auhost" / "_lib"
            local.mkdir(exist_ok=True)
            for name in SHIPPED:
                shutil.copy2(lib_dir / name, local / name)
        super().run()


native = Extension(
    "auhost._native",
    sources=[str(Path("csrc") / name) for name in ("module.c", "unit.c", "graph.c", "file.c", "render.c", "resample.c")],
    include_dirs=[str(ROOT / "Sources" / "CAudioToolbox" / "include"), numpy.get_include()],
    libraries=["auhost-capi"],
    runtime_library_dirs=["$ORIGIN/_lib"],
    extra_compile_args=["-std=c17", "-Wall", "-Werror", "-Wno-multichar"],
    depends=[str(Path("csrc") / "native.h")],
)

setup(ext_modules=[native], cmdclass={"build_ext": BuildWithSwift})
