"""The records everything points into (Document, Chunk, Question, results), the registry, the limits and the rules of
quoting and cell escaping that every layer shares. Imports nothing of the workbench above it.
"""
