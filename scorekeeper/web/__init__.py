"""`hachi-score serve`: the web companion over the same book (Starlette, imported only by serve)."""
