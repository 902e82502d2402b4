"""Evaluation over a labelled set (``python -m alphasearch eval``): hit@k of the pages each search method
ranks first, answer-level figures, and the paths a user gives kept inside their directory.
"""
