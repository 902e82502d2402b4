"""Folder mode: route a question to a folder (Phase 0, :mod:`.router`), pick its documents (Phase 1)
and search them in parallel (Phase 2, :mod:`.search`); the model-read document facts beside the offline ones.
Hands a folder answer (per-document answers, the routing and Phase 1 traces) to the pipeline.
"""
