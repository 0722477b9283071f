"""`python -m hostcompat` runs the command line."""

from hostcompat.cli import main

if __name__ == "__main__":  # pragma: no cover - exercised through a subprocess test
    raise SystemExit(main())
