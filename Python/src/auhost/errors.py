"""The exceptions auhost raises. Thread class: any."""
from ._native import AUHostError


class PluginCrashed(AUHostError):
    """An isolated plug-in crashed, hung or wrote NaN; the interpreter lives on.

    The message is the engine's sentence naming the unit and the fault. The plug-in is restarted
    before its next use.
    """

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


__all__ = ["AUHostError", "PluginCrashed"]
