"""Specific exception types, each carrying one sentence a user can act on."""
from __future__ import annotations


class AlphaSearchError(Exception):
    """Base class. ``str(err)`` is a single sentence fit to show a user."""


# --- PDF input -------------------------------------------------------------
class PDFError(AlphaSearchError):
    """The file cannot be used as a PDF."""


class FileMissingError(PDFError):
    pass


class NotAFileError(PDFError):
    pass


class WrongExtensionError(PDFError):
    pass


class EmptyFileError(PDFError):
    pass


class NotAPDFError(PDFError):
    pass


class CorruptPDFError(PDFError):
    pass


class EncryptedPDFError(PDFError):
    pass


class NoPagesError(PDFError):
    pass


class TooManyPagesError(PDFError):
    pass


class FileTooLargeError(PDFError):
    pass


class DecompressionBombError(PDFError):
    """A compressed stream or image expands far beyond any real document's (a "zip bomb")."""


class TooComplexError(PDFError):
    """Its pages together would make the PDF reader interpret far more than any real document's
    (``pdf.budget.MAX_DOCUMENT_CONTENT_MB``), e.g. many pages drawing one huge content stream."""


class OutlineTooDeepError(PDFError):
    """Bookmarks nested so deep that opening the file could crash the PDF reader."""


class UnsupportedFormatError(PDFError):
    """The file's type is not one AlphaSearch reads (``pdf.convert.ACCEPTED`` lists those it does)."""


class UnsafeFileError(PDFError):
    """The file declares what no real document of its type needs and a parser can be attacked with
    (an XML entity, an external DTD)."""


class UnsafePDFError(PDFError):
    """Reading the file crashed the PDF reader, ran it out of memory or took too long (it ran in
    a worker process, so nothing else was affected)."""


# --- configuration, models, storage ----------------------------------------
class QuestionTooLongError(AlphaSearchError):
    """The question is longer than the engine reads (``pipeline.MAX_QUESTION_CHARS``)."""


class SearchStopped(AlphaSearchError):
    """The caller asked the search to stop (a client of the HTTP API went away); no answer follows."""


class ConfigError(AlphaSearchError):
    """A setting is missing or invalid."""


class MissingAPIKeyError(ConfigError):
    pass


class OutsideDirectoryError(AlphaSearchError):
    """A path given by a user or read from a file points outside the directory it must stay in."""


class LLMError(AlphaSearchError):
    """The language model could not give a usable reply (after retries)."""


class LLMUnavailableError(LLMError):
    """Timeout, connection error or an HTTP error status, after the SDK's retries."""


class LLMRefusalError(LLMError):
    """The model declined to answer, or its reply was empty."""


class LLMMalformedError(LLMError):
    """The model's reply did not have the expected JSON shape, even after one retry."""


class StoreError(AlphaSearchError):
    """The library on disk cannot do what was asked."""


class InvalidNameError(StoreError):
    pass


class NotFoundError(StoreError):
    pass


class AlreadyExistsError(StoreError):
    pass


class InvalidFactError(StoreError):
    """A document fact typed by a user is not valid (an unknown field, a year or quarter out of range)."""


class NotYoursError(StoreError):
    """A conversation, chat or saved search belongs to another visitor (their browser, or their sign-in)."""


class ReadOnlyError(StoreError):
    """This server lets its visitors ask and browse only (``ALPHASEARCH_VISITOR_ROLE=reader``)."""


class FolderGoneError(NotFoundError):
    """The folder an answer was searched in was deleted before the answer could be saved: nothing was written."""


class TraceFileError(AlphaSearchError):
    """An uploaded search trace is not one AlphaSearch wrote, or is beyond the trace limits."""
