"""A unit's parameters as Python sees them: name, range, unit, default, value strings; writes
outside the range raise ValueError (the engine itself clamps silently with noErr, as Apple's
does, so the check lives here)."""
import math
import re
from dataclasses import dataclass

from . import _native

_UNIT_NAMES = {
    _native.kAudioUnitParameterUnit_Generic: "",
    _native.kAudioUnitParameterUnit_Indexed: "index",
    _native.kAudioUnitParameterUnit_Boolean: "boolean",
    _native.kAudioUnitParameterUnit_Percent: "%",
    _native.kAudioUnitParameterUnit_Seconds: "s",
    _native.kAudioUnitParameterUnit_Hertz: "Hz",
    _native.kAudioUnitParameterUnit_Decibels: "dB",
    _native.kAudioUnitParameterUnit_LinearGain: "gain",
    _native.kAudioUnitParameterUnit_Milliseconds: "ms",
    _native.kAudioUnitParameterUnit_Cents: "cents",
    _native.kAudioUnitParameterUnit_Ratio: "ratio",
    _native.kAudioUnitParameterUnit_Pan: "pan",
    _native.kAudioUnitParameterUnit_BPM: "BPM",
}


def python_name(name: str) -> str:
    """'Delay Time (s)' -> 'delay_time_s': the attribute a parameter answers to. Thread class: any."""
    text = re.sub(r"[^0-9a-zA-Z]+", "_", name).strip("_").lower()
    if not text or text[0].isdigit():
        text = "p_" + text
    return text


@dataclass(frozen=True)
class Parameter:
    """One global-scope parameter of a unit."""

    id: int
    name: str
    python_name: str
    min: float
    max: float
    default: float
    unit: str
    value_strings: tuple
    writable: bool

    @property
    def range(self):
        """(min, max). Thread class: any."""
        return (self.min, self.max)

    def check(self, value) -> float:
        """The float to write for `value` (a number, or one of the value strings); ValueError when
        outside the range or not a known string, TypeError for other types. Thread class: any."""
        if isinstance(value, str):
            if value in self.value_strings:
                return float(self.min + self.value_strings.index(value))
            raise ValueError(f"{self.name}: {value!r} is not one of {list(self.value_strings)}")
        if isinstance(value, bool):
            value = float(value)
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise TypeError(f"{self.name} takes a number, not {type(value).__name__}") from None
        if not math.isfinite(number) or not self.min <= number <= self.max:
            raise ValueError(f"{self.name} must be within {self.min:g} … {self.max:g} {self.unit}".rstrip() + f", not {value!r}")
        if not self.writable:
            raise ValueError(f"{self.name} is read-only")
        return number

    def string_for(self, value):
        """The value string for `value` when the parameter has them, else None. Thread class: any."""
        index = int(round(value - self.min))
        return self.value_strings[index] if self.value_strings and 0 <= index < len(self.value_strings) else None


def read_parameters(unit):
    """{python_name: Parameter} of a _native.Unit, in the unit's order. Thread class: setup."""
    result = {}
    for pid in unit.parameter_ids():
        info = unit.parameter_info(pid)
        name = python_name(info["name"])
        while name in result:
            name += "_"
        result[name] = Parameter(
            id=pid, name=info["name"], python_name=name, min=info["min"], max=info["max"], default=info["default"],
            unit=info["unit_name"] or _UNIT_NAMES.get(info["unit"], ""),
            value_strings=tuple(info["value_strings"] or ()),
            writable=bool(info["flags"] & _native.kAudioUnitParameterFlag_IsWritable))
    return result
