"""The programs of hostcompat's own regular expressions, ready-compiled: one generated module per Python version
(`py311`, ...), written by `scripts/gen_regex_codes.py` and read by `hostcompat._regex`. Never edited by hand.
"""
