"""HTML forms, one module per area."""
