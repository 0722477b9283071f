"""Hostile: complains on stderr and exits with code 1 before reading anything."""

import sys

if __name__ == "__main__":
    sys.stderr.write("error: MY_API_KEY is not set\n")
    sys.exit(1)
