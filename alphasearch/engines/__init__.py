"""The two engines behind one interface (:class:`.offline.DocEngine`): index a PDF, hand out the
judges, answer. :mod:`.offline` puts the offline variants of each stage together; :mod:`.llm` the
model-backed ones (falling back to the offline ones). The pipeline picks one once, from the settings.
"""
