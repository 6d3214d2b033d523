"""What a set of runs means for the owner: the verdict, the findings, the to-do list, the check-up, the injection
check and the bot-ready rewrite.
"""
