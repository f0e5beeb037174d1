"""Four-character codes as Core Audio writes them ('aufx'). Thread class: any."""


def to_string(code: int) -> str:
    """'aufx' from 0x61756678; printable characters only, else the hex number. Thread class: any."""
    raw = code.to_bytes(4, "big")
    if all(32 <= b < 127 for b in raw):
        return raw.decode("ascii")
    return f"{code:08x}"


def from_string(text: str) -> int:
    """0x61756678 from 'aufx'; ValueError unless text is four ASCII characters. Thread class: any."""
    raw = text.encode("ascii", errors="strict") if text.isascii() else b""
    if len(raw) != 4:
        raise ValueError(f"{text!r} is not a four-character code (like 'aufx')")
    return int.from_bytes(raw, "big")
