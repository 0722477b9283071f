"""JavaScript reading for the scanner: a lexer, scope context, and the passes that find bridge calls in bundles."""
