"""The widget scanner: what a widget's HTML and JavaScript really call, with evidence (pure, bounded in time).

`widget` scans a page or a script, `meta` a tool's `_meta`, `needs` is the vocabulary of bridge needs, and `js/`
reads JavaScript (lexer, scopes, the bundled SDK's wiring, wrappers, indirect calls, URLs and styles).
"""
