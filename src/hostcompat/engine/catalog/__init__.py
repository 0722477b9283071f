"""The sourced host catalog: its data model, vocabulary, loading, validation, coverage and host contexts."""
