"""Library methods for folders: create, rename, delete, list, look up."""
from __future__ import annotations

import sqlite3
import time
import unicodedata
import uuid

from . import catalog as sql
from ..errors import AlreadyExistsError, NotFoundError
from .names import name_key, shown, validate_name
from .records import FolderInfo


class FolderMethods:
    """Folders: create, rename, delete, list, look up (part of :class:`~alphasearch.library.Library`)."""

    def create_folder(self, name: str) -> FolderInfo:
        """A new empty folder; :class:`AlreadyExistsError` if the name is taken (case-insensitive)."""
        self._may_change()
        name = validate_name(name, "folder")
        fid = uuid.uuid4().hex
        with self._db(write=True) as con:
            try:
                con.execute(sql.INSERT_FOLDERS,
                            (fid, name, name_key(name), time.time()))
            except sqlite3.IntegrityError:
                raise AlreadyExistsError(f"A folder named {shown(name)} already exists.") from None
            self._bump(con)
        return self.folder(fid)

    def rename_folder(self, folder: str, new_name: str) -> FolderInfo:
        self._may_change()
        new_name = validate_name(new_name, "folder")
        with self._db(write=True) as con:
            row = self._folder_row(con, folder)
            try:
                con.execute(sql.UPDATE_FOLDERS_NAME_BY_ID, (new_name, name_key(new_name), row["id"]))
            except sqlite3.IntegrityError:
                raise AlreadyExistsError(f"A folder named {shown(new_name)} already exists.") from None
            self._bump(con)
        return self.folder(row["id"])

    def delete_folder(self, folder: str) -> FolderInfo:
        """Delete a folder, its documents (and their files unless another folder
        holds the same PDF), its chat turns and its saved trace."""
        self._may_change()
        info = self.folder(folder)
        with self._db(write=True) as con:
            shas = [r[0] for r in con.execute(sql.SELECT_DOCUMENTS_SHA256_BY_FOLDER_ID, (info.folder_id,))]
            con.execute(sql.DELETE_FOLDERS_BY_ID, (info.folder_id,))
            con.execute(sql.DELETE_CHAT_BY_FOLDER_ID, (info.folder_id,))
            self._bump(con)
        self._drop_trace(info.folder_id)
        for sha in set(shas):
            self._purge_unreferenced(sha)
        return info

    def folders(self) -> list[FolderInfo]:
        """Every folder, by name."""
        with self._db() as con:
            rows = con.execute(
                sql.SELECT_FOLDERS_TOTALS).fetchall()
        return [FolderInfo(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]

    def folder(self, folder: str) -> FolderInfo:
        """A folder by name (case-insensitive) or id; :class:`NotFoundError` otherwise."""
        with self._db() as con:
            row = self._folder_row(con, folder)
            r = con.execute(sql.SELECT_DOCUMENTS_TOTALS_BY_FOLDER_ID, (row["id"],)).fetchone()
        return FolderInfo(row["id"], row["name"], row["created"], r[0], r[1], r[2])

    def _folder_row(self, con: sqlite3.Connection, folder: str) -> sqlite3.Row:
        if isinstance(folder, FolderInfo):
            folder = folder.folder_id
        if not isinstance(folder, str):
            raise NotFoundError("No such folder.")
        row = con.execute(sql.SELECT_FOLDERS_BY_NAME_KEY,
                          (name_key(unicodedata.normalize("NFC", folder).strip()),)).fetchone()
        if row is None:
            row = con.execute(sql.SELECT_FOLDERS_BY_ID, (folder,)).fetchone()
        if row is None:
            raise NotFoundError(f"There is no folder named {shown(folder)}; "
                                f"create it first or pick one from the folder list.")
        return row
