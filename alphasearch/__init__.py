"""AlphaSearch: ask questions of PDFs by Monte Carlo Tree Search over their section trees."""
from .config import Settings
from .errors import AlphaSearchError
from .models import Answer, Citation, DocumentIndex, SearchNode, SearchStep, SearchTrace, Section
from .pipeline import Engine

__all__ = ["Settings", "Engine", "AlphaSearchError", "Answer", "Citation", "DocumentIndex", "SearchNode",
           "SearchStep", "SearchTrace", "Section"]
