"""What the user takes away: the command line, the table, JSON and CSV, the HTML report and the Excel workbook, the
charts the app places, the highlights, the pieces for a pipeline and the sweep of a folder.
"""
