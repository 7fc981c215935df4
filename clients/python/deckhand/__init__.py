"""Deckhand's Python client: drive a Deckhand server's browser sessions, remote or (env="LOCAL") one it starts (standard library only)."""
__version__ = "0.1.0"

from .client import Deckhand, DeckhandAgent, InitResult
from .errors import DeckhandApiError, DeckhandError, DeckhandOptionsError
from .options import DeckhandConfig, DeckhandOptions, ModelClientOptions

__all__ = [
    "Deckhand",
    "DeckhandAgent",
    "DeckhandApiError",
    "DeckhandConfig",
    "DeckhandError",
    "DeckhandOptions",
    "DeckhandOptionsError",
    "InitResult",
    "ModelClientOptions",
    "__version__",
]
