"""The service on a real network: TLS, who may do what, limits per client, metrics."""
