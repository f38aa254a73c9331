"""Tidecallers (CMT): an example community card set for RiftScript.

The hooks live in one module per entry point: ``sets`` (the set manifest and its cards),
``keywords`` (the Undertow keyword, a YAML script) and ``effects`` (the ``riptide`` primitive).
"""
from pathlib import Path

HERE = Path(__file__).parent
