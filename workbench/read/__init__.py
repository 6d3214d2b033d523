"""Reading the user's files: the loaders (one per kind of file, registered by extension), the file reader with its
limits, the golden questions and the questions generated from a spreadsheet.
"""
