"""Built-in modes (placeholder until the kernel lands)."""
