"""The fast byte relay for a stdio client in front of a stdio server: line by line, pipe to pipe."""
