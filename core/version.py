"""Versions a set declares it needs; a mismatch is refused at load time."""
ENGINE_VERSION = "0.1.0"
SCHEMA_VERSION = 1
