"""Replay, validate, score and adjudicate records with the rules engines in ``games``."""
