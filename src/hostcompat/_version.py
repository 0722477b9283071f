"""The package version, kept in one place so `--version` needs no imports."""

__version__ = "0.1.0"
