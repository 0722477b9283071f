"""`python -m hostcompat` runs the command line (and leaves without the interpreter's teardown: `cli.run`)."""

from hostcompat.cli import run

if __name__ == "__main__":  # pragma: no cover - exercised through a subprocess test
    run()
