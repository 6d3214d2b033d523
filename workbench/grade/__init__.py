"""Grading a ranking against the answer (clean, mixed, missed), the confidence and refusal, the metrics and the
statistics that compare two setups, and where an offset lies in the user's own file.
"""
