"""The command line: ``python -m alphasearch index|inspect|query|eval|demo|folder …|ask …|cache …``.

A face over :class:`alphasearch.pipeline.Engine`; it prints, nothing below it does.
"""
