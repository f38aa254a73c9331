"""Card sets bundled with RiftScript, each a pluggy plugin like any third-party set."""
