"""Built-in agents (placeholder until the kernel lands)."""
