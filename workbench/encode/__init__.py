"""The language model: the packaged MiniLM encoder, its cache, and the windows it reads of a long piece.
"""
