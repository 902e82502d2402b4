"""The model client, knowing no stage: the protocol and the OpenAI-compatible client (:mod:`.client`),
the one disk cache every call goes through (:mod:`.cache`), streamed drafts (:mod:`.streaming`) and usage.
"""
