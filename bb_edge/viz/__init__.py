"""Pictures people would rather see than read (partition graphs)."""
