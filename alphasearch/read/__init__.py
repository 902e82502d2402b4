"""Reading a page against a question, below both the search's page reader and the answer: table rows with
their column years and unit (:mod:`.tables`), figures stated in prose (:mod:`.prose`), figure captions
(:mod:`.figures`) and the direct figure match (:mod:`.direct`). Hands rows, figures and a direct line up.
"""
