"""Findings: their model (severity, evidence, provenance), the rule table with stable ids, and remediation text."""
