"""Versions a set declares it needs; a mismatch is refused at load time."""
ENGINE_VERSION = "0.1.0"
SCHEMA_VERSION = 1


def engine_build() -> str:
    """How the kernel runs here: its modules compiled to C by mypyc (a regular install, setup.py) or
    pure Python (an editable install, or RIFTSCRIPT_COMPILE=0): what a speed report must name."""
    from .engine import decisions

    return "compiled with mypyc" if not decisions.__file__.endswith(".py") else "pure Python"
