"""The heuristic bot as the shell finds it (``adjudicator.<game>.bot.heuristic_orders``)."""

from adjudicator.gods_playground.bots import heuristic_orders

__all__ = ["heuristic_orders"]
