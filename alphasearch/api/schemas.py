"""The request bodies: the contract of the API (unknown fields are refused with 422, so no request
can slip in a setting such as a model endpoint)."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Question(Body):
    """A question to one document. ``iterations``/``seed``: the search's, as ``query --iterations --seed``."""

    question: str = Field(min_length=1, description="asked as typed; at most 2,000 characters (413 beyond)")
    iterations: int | None = Field(default=None, ge=1, le=500)
    seed: int | None = None


class FolderQuestion(Question):
    """A question to the library: routed to a folder unless ``folder`` names one; ``conversation`` keeps
    the chat under that id (follow-ups stay in its folder); ``documents``: only these documents."""

    folder: str | None = None
    conversation: str | None = Field(default=None, max_length=200)
    documents: list[str] | None = None
    top_k: int | None = Field(default=None, ge=1, le=50)


class FolderName(Body):
    name: str = Field(min_length=1, max_length=500)


class FactChanges(Body):
    """Corrections to one document's facts ("" clears one)."""

    org: str | None = None
    year: str | None = None
    quarter: str | None = None
    kind: str | None = None
    title: str | None = None
