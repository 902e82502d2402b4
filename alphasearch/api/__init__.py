"""The HTTP API and the MCP server: other programs and AI assistants ask the library.

``python -m alphasearch serve`` runs :func:`alphasearch.api.app.create_app` (FastAPI, one router per
resource under ``routes/``) on uvicorn; ``python -m alphasearch mcp`` runs :mod:`alphasearch.api.mcp`
over stdio. Both sit on the same :class:`alphasearch.pipeline.Engine` and library as the app and the
command line, and hand on the answer object that ``query --json`` / ``ask --json`` print. A face of
the engine, like ``cli``: nothing below it imports the web framework.
"""
