"""The Noddy game server: a sans-IO core (lobby, tables, games) behind an asyncio network layer.

>>> from noddy.server import ServerCore, ServerConfig, NoddyServer
"""

from __future__ import annotations

from .config import ServerConfig
from .core import BotJob, Close, Send, ServerCore
from .net.network import NoddyServer

__all__ = ["BotJob", "Close", "NoddyServer", "Send", "ServerConfig", "ServerCore"]
