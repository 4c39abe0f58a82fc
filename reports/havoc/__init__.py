"""Havoc battle reports (docs/havoc-reports.md)."""
