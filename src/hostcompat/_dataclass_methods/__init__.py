"""The methods `dataclasses` writes for hostcompat's own dataclasses, ready-compiled: one generated module per layer
of the package and Python version (`py311_engine`, ...), written by `scripts/gen_dataclass_code.py` and read by
`hostcompat._dataclass`. Never edited by hand.
"""
