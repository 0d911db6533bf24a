"""Conformance suite: every registered configuration (catalog game × player count × option combination) on
both engines, in the manner of OpenSpiel's random-simulation tests (conftest.py, support.py)."""
