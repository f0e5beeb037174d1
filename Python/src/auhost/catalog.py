"""Finding units: by LV2 URI, by triple ("aufx dely AUHs"), or by a fragment of the name, and
listing them (the engine's per-user catalog cache makes the second listing fast)."""
import difflib
import os
from dataclasses import dataclass

from . import _native
from .fourcc import from_string, to_string

_TYPES = {
    "effect": _native.kAudioUnitType_Effect,
    "instrument": _native.kAudioUnitType_MusicDevice,
    "music_effect": _native.kAudioUnitType_MusicEffect,
    "mixer": _native.kAudioUnitType_Mixer,
    "generator": _native.kAudioUnitType_Generator,
    "output": _native.kAudioUnitType_Output,
    "converter": _native.kAudioUnitType_FormatConverter,
    "panner": _native.kAudioUnitType_Panner,
}


@dataclass(frozen=True)
class Component:
    """One unit the engine can make: its codes, name and origin ("lv2 URI BUNDLE", a shared
    object's path, or "built-in")."""

    type: int
    subtype: int
    manufacturer: int
    name: str
    origin: str

    @property
    def triple(self) -> str:
        """'aufx dely AUHs'. Thread class: any."""
        return " ".join(to_string(c) for c in (self.type, self.subtype, self.manufacturer))

    @property
    def uri(self):
        """The LV2 URI, or None for a unit that is not an LV2 plug-in. Thread class: any."""
        parts = self.origin.split(" ")
        return parts[1] if len(parts) >= 2 and parts[0] == "lv2" else None

    @property
    def is_instrument(self) -> bool:
        """Thread class: any."""
        return self.type == _native.kAudioUnitType_MusicDevice

    @property
    def short_name(self) -> str:
        """The name without its "Manufacturer: " prefix, lower case. Thread class: any."""
        name = self.name.lower()
        return name.split(": ", 1)[1] if ": " in name else name


def _type_code(type):
    if type is None:
        return 0
    if isinstance(type, int):
        return type
    if type in _TYPES:
        return _TYPES[type]
    try:
        return from_string(type)
    except ValueError:
        raise ValueError(f"unknown unit type {type!r}; use one of {sorted(_TYPES)} or a code like 'aufx'") from None


def list_plugins(type=None):
    """Every unit installed (built-in, SDK plug-ins, LV2 on LV2_PATH), optionally of one type
    ("effect", "instrument", … or a code like 'aufx'). Thread class: setup."""
    return [Component(*row) for row in _native.components(_type_code(type), 0, 0)]


def _triple(text):
    parts = text.split()
    if not 2 <= len(parts) <= 3 or not all(len(p) == 4 or p == "0" for p in parts):
        return None
    try:
        codes = [0 if p == "0" else from_string(p) for p in parts]
    except ValueError:
        return None
    return codes + [0] * (3 - len(codes))


def _bundle_of(component):
    """The LV2 bundle folder or the SDK plug-in's shared object a component comes from."""
    parts = component.origin.split(" ", 2)
    if len(parts) == 3 and parts[0] == "lv2":
        bundle = parts[2]
        return bundle[len("file://"):] if bundle.startswith("file://") else bundle
    return component.origin if component.origin.startswith("/") else None


def find_path(path: str, plugin_name=None) -> Component:
    """The unit in an LV2 bundle folder or an SDK plug-in's shared object, as pedalboard's
    load_plugin(path, plugin_name=…) takes it; plugin_name chooses among several (a fragment of
    the name or the URI). The bundle must be on LV2_PATH (the engine reads plug-ins from there).
    Thread class: setup."""
    target = os.path.realpath(path)
    found = [c for c in list_plugins() if _bundle_of(c) and os.path.realpath(_bundle_of(c).rstrip("/")) == target]
    if plugin_name is not None:
        wanted = plugin_name.lower()
        found = [c for c in found if wanted in c.name.lower() or wanted == (c.uri or "").lower()]
    if len(found) == 1:
        return found[0]
    if not found:
        raise LookupError(f"no unit comes from {path}" + (f" named {plugin_name!r}" if plugin_name else "")
                          + "; an LV2 bundle must be in a folder on LV2_PATH, an SDK plug-in on AUHOST_PLUGIN_PATH")
    names = "\n".join(f"  {c.name}  {c.uri or ''}" for c in found)
    raise LookupError(f"{path} holds {len(found)} units; choose one with plugin_name=:\n{names}")


def find(text: str) -> Component:
    """The component `text` names: an LV2 URI, a triple, a fragment of one unit's name, or the
    path of an LV2 bundle / SDK plug-in (find_path).

    Raises LookupError naming the nearest names when nothing matches, or the candidates when
    several do. Thread class: setup.
    """
    if not isinstance(text, str):
        raise TypeError(f"a unit is named by a string (URI, triple or name), not {type(text).__name__}")
    if text.startswith(("/", "./", "../", "~")) and os.path.exists(os.path.expanduser(text)):
        return find_path(os.path.expanduser(text))
    needle = text.strip()
    if not needle or len(needle.encode()) > 4096:
        raise LookupError(f"no unit is called {text[:60]!r}")
    if ":" in needle and " " not in needle:
        row = _native.find_lv2(needle)
        if row is not None:
            return Component(*row)
    codes = _triple(needle)
    if codes is not None:
        rows = _native.components(*codes)
        if rows:
            return Component(*rows[0])
        raise LookupError(f"no unit is {needle}; auhost.list_plugins() shows the installed units")
    everything = list_plugins()
    lower = needle.lower()
    exact = [c for c in everything if c.name.lower() == lower or c.short_name == lower]
    if exact:
        return exact[0]
    matches = [c for c in everything if lower in c.name.lower() or lower in c.origin.lower()]
    if len(matches) == 1:
        return matches[0]
    if matches:
        shown = "\n".join(f"  {c.triple}  {c.name}  {c.uri or ''}" for c in matches[:8])
        raise LookupError(f"{needle!r} matches {len(matches)} units; name one by its triple or URI:\n{shown}")
    ranked = sorted(everything, key=lambda c: -difflib.SequenceMatcher(None, lower, c.short_name).ratio())
    hint = "\n".join(f"  {c.triple}  {c.name}  {c.uri or ''}".rstrip() for c in ranked[:5])
    raise LookupError(f"no unit is called {needle!r}. Nearest names:\n{hint}")


def find_codes(type, subtype, manufacturer=0) -> Component:
    """The first component matching the codes (0 = any). Thread class: setup."""
    rows = _native.components(type, subtype, manufacturer)
    if not rows:
        raise LookupError(f"no unit is {to_string(type)} {to_string(subtype)} {to_string(manufacturer)}")
    return Component(*rows[0])
