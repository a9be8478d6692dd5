"""`python -m scorekeeper` runs the `hachi-score` command."""

from .cli import main

main()
