"""The answer stage: rank the pages the search read, then answer from them.

The offline answer is extractive (:mod:`.extractive`: cited sentences, the direct figure line of
:mod:`alphasearch.read`, a confidence from :mod:`.calibration`); :mod:`.compare` answers "which of A, B, C
 has the most"; the model-written answer and its knowledge-gap rounds (:mod:`.gaps`) sit beside them.
Hands an :class:`alphasearch.models.Answer` (text, citations, confidence, structured parts) to the engines.
"""
