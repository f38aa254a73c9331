"""Built-in plugins: keywords, effect primitives, agents and modes, loaded like third-party ones."""
