"""What is kept on this computer: the SQLite helper, the embedding cache, the run history, the app's saved work,
the finished results kept in memory, and the stamp a result is bound to.
"""
