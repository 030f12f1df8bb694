"""Online play's HTTP routes, one module per concern."""
