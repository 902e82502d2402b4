"""Reading an uploaded file within the size limit (413 past it, before it is indexed)."""
from __future__ import annotations

from fastapi import UploadFile

from ... import pdf

CHUNK = 1 << 20


async def read_upload(file: UploadFile, max_file_mb: int) -> tuple[str, bytes]:
    """(file name, bytes); FileTooLargeError once more than ``max_file_mb`` MB have been read."""
    name = (file.filename or "document.pdf").replace("\\", "/").rsplit("/", 1)[-1][:255] or "document.pdf"
    limit = max_file_mb * 1024 * 1024
    parts, size = [], 0
    while chunk := await file.read(CHUNK):
        parts.append(chunk)
        size += len(chunk)
        if size > limit:
            break
    data = b"".join(parts)
    pdf.check_size(data, name, max_file_mb=max_file_mb)
    return name, data
