"""brass: a rules engine for the Brass board games."""

from brass._errors import BrassError, ConfigError, IllegalActionError, InvalidStateError, NotationError
from brass._brass import __version__

__all__ = [
    "BrassError",
    "ConfigError",
    "IllegalActionError",
    "InvalidStateError",
    "NotationError",
    "__version__",
]
