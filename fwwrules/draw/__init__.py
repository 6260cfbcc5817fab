"""Drawing layer (matplotlib)."""
