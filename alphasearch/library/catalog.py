"""The SQLite catalog: its schema (WAL mode, one transaction per change), every SQL statement the
library runs, named by verb, table and key, and the conversion of rows to records."""
from __future__ import annotations

import json
import os
import sqlite3
from typing import Any

from .records import DocumentRecord


SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS folders (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY,
    folder_id TEXT NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
    name TEXT NOT NULL, name_key TEXT NOT NULL, sha256 TEXT NOT NULL,
    pages INTEGER NOT NULL, size_bytes INTEGER NOT NULL, summary TEXT NOT NULL, profile TEXT NOT NULL,
    index_version INTEGER NOT NULL, added REAL NOT NULL, vocab TEXT NOT NULL DEFAULT '',
    UNIQUE (folder_id, name_key));
CREATE INDEX IF NOT EXISTS documents_sha ON documents(sha256);
CREATE TABLE IF NOT EXISTS pending (token TEXT PRIMARY KEY, sha256 TEXT NOT NULL, pid INTEGER NOT NULL,
    started REAL NOT NULL);
CREATE TABLE IF NOT EXISTS chat (
    id INTEGER PRIMARY KEY AUTOINCREMENT, conversation TEXT NOT NULL, role TEXT NOT NULL, text TEXT NOT NULL,
    folder_id TEXT NOT NULL DEFAULT '', meta TEXT NOT NULL DEFAULT '{}', created REAL NOT NULL);
CREATE INDEX IF NOT EXISTS chat_conversation ON chat(conversation, id);
CREATE TABLE IF NOT EXISTS owners (conversation TEXT PRIMARY KEY, owner TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS facts (
    document_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
    auto TEXT NOT NULL, user TEXT NOT NULL DEFAULT '{}', version INTEGER NOT NULL);
"""


# document facts (alphasearch.index.facts): ``auto`` as read from the document, ``user`` the fields a user set
FACTS_SQL = ("SELECT d.id, d.sha256, d.name, f.auto, f.user, f.version FROM documents d "
              "LEFT JOIN facts f ON f.document_id = d.id")


FACTS_PUT = ("INSERT INTO facts(document_id, auto, user, version) VALUES (?,?,?,?) ON CONFLICT(document_id) "
              "DO UPDATE SET auto=excluded.auto, version=excluded.version")


def pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    # a zombie (killed child not yet reaped) is dead for our purposes
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().split(b")")[-1].split()[0] != b"Z"
    except OSError:
        return True


def rollback(con: sqlite3.Connection) -> None:
    try:
        if con.in_transaction:
            con.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def json_dict(text: str) -> dict[str, Any]:
    try:
        out = json.loads(text)
        return out if isinstance(out, dict) else {}
    except ValueError:
        return {}


# the columns of a DocumentRecord (not the vocabulary: listing a big folder need not read it)
RECORD_COLUMNS = "id, folder_id, name, sha256, pages, size_bytes, summary, profile, index_version, added"


def record_of_row(r: sqlite3.Row) -> DocumentRecord:
    return DocumentRecord(r["id"], r["folder_id"], r["name"], r["sha256"], r["pages"], r["size_bytes"], r["summary"],
                          r["profile"], r["index_version"], r["added"])


# --- every statement the library runs (named by verb, table and key) ---------------
SELECT_DOCUMENTS_RECORDS = f"SELECT {RECORD_COLUMNS} FROM documents ORDER BY folder_id, name_key"
SELECT_DOCUMENTS_RECORDS_BY_FOLDER_ID = f"SELECT {RECORD_COLUMNS} FROM documents WHERE folder_id=? ORDER BY name_key"
SELECT_DOCUMENTS_BY_FOLDER_ID_NAME_KEY = "SELECT * FROM documents WHERE folder_id=? AND name_key=?"
SELECT_DOCUMENTS_NAME_KEY_SHA256_BY_FOLDER_ID = "SELECT name_key, sha256 FROM documents WHERE folder_id=?"
DELETE_DOCUMENTS_BY_ID = "DELETE FROM documents WHERE id=?"
INSERT_PENDING = "INSERT INTO pending(token, sha256, pid, started) VALUES (?,?,?,?)"
DELETE_DOCUMENTS_BY_FOLDER_ID_NAME_KEY = "DELETE FROM documents WHERE folder_id=? AND name_key=?"
INSERT_DOCUMENTS = (
    "INSERT INTO documents(id, folder_id, name, name_key, sha256, pages, size_bytes, summary, profile, "
    "index_version, added, vocab) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")
DELETE_PENDING_BY_TOKEN = "DELETE FROM pending WHERE token=?"
SELECT_DOCUMENTS_NAME_BY_FOLDER_ID_SHA256_NAME_KEY = ("SELECT name FROM documents WHERE folder_id=? AND sha256=? AND "
    "name_key<>?")
SELECT_DOCUMENTS_SHA256_BY_FOLDER_ID_NAME_KEY = "SELECT sha256 FROM documents WHERE folder_id=? AND name_key=?"
SELECT_FOLDERS_EXISTS_BY_ID = "SELECT 1 FROM folders WHERE id=?"
SELECT_PENDING_TOKEN_SHA256 = "SELECT token, sha256, pid FROM pending"
SELECT_DOCUMENTS_EXISTS_BY_SHA256 = "SELECT 1 FROM documents WHERE sha256=? LIMIT 1"
SELECT_DOCUMENTS = "SELECT * FROM documents ORDER BY folder_id, name_key"
FACTS_SQL_BY_FOLDER_ID = FACTS_SQL + " WHERE d.folder_id=?"
SELECT_DOCUMENTS_EXISTS_BY_ID = "SELECT 1 FROM documents WHERE id=?"
UPDATE_FACTS_USER_BY_DOCUMENT_ID = "UPDATE facts SET user=? WHERE document_id=?"
SELECT_DOCUMENTS_BY_ID = "SELECT * FROM documents WHERE id=?"
UPDATE_DOCUMENTS_INDEX_VERSION_BY_SHA256 = (
    "UPDATE documents SET index_version=?, pages=?, summary=?, profile=?, vocab=? WHERE sha256=?")
INSERT_CHAT = "INSERT INTO chat(conversation, role, text, folder_id, meta, created) VALUES (?,?,?,?,?,?)"
SELECT_CHAT_ROLE_TEXT_BY_CONVERSATION = (
    "SELECT role, text, folder_id, meta, created FROM chat WHERE conversation=? ORDER BY id DESC LIMIT ?")
DELETE_CHAT_BY_CONVERSATION = "DELETE FROM chat WHERE conversation=?"
SELECT_CHAT_CONVERSATION = "SELECT conversation FROM chat GROUP BY conversation ORDER BY MAX(id) DESC"
UPDATE_META_VALUE = "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'revision'"
PRAGMA_JOURNAL_MODE = "PRAGMA journal_mode=WAL"
INSERT_META = "INSERT OR IGNORE INTO meta(key, value) VALUES ('revision', '0')"
PRAGMA_FOREIGN_KEYS = "PRAGMA foreign_keys=ON"
PRAGMA_SYNCHRONOUS = "PRAGMA synchronous=NORMAL"
BEGIN = "BEGIN IMMEDIATE"
COMMIT = "COMMIT"
SELECT_META_VALUE = "SELECT value FROM meta WHERE key='revision'"
SELECT_DOCUMENTS_D_FOLDER_NAME = (
    "SELECT d.*, f.name AS folder_name FROM documents d JOIN folders f ON f.id=d.folder_id "
    "ORDER BY f.name_key, d.name_key")
SELECT_FOLDERS_ID = "SELECT id FROM folders"
SELECT_PENDING_TOKEN_PID = "SELECT token, pid FROM pending"
SELECT_DOCUMENTS_EXISTS_BY_SHA256_2 = "SELECT 1 FROM documents WHERE sha256=?"
INSERT_FOLDERS = "INSERT INTO folders(id, name, name_key, created) VALUES (?,?,?,?)"
UPDATE_FOLDERS_NAME_BY_ID = "UPDATE folders SET name=?, name_key=? WHERE id=?"
DELETE_FOLDERS_BY_ID = "DELETE FROM folders WHERE id=?"
DELETE_CHAT_BY_FOLDER_ID = "DELETE FROM chat WHERE folder_id=?"
SELECT_OWNERS_OWNER_BY_CONVERSATION = "SELECT owner FROM owners WHERE conversation=?"
INSERT_OWNERS = "INSERT INTO owners(conversation, owner, created) VALUES (?,?,?)"
SELECT_CHAT_EXISTS_BY_CONVERSATION = "SELECT 1 FROM chat WHERE conversation=? LIMIT 1"
SELECT_CHAT_CONVERSATION_BY_OWNER = (
    "SELECT c.conversation FROM chat c JOIN owners o ON o.conversation = c.conversation WHERE o.owner=? "
    "GROUP BY c.conversation ORDER BY MAX(c.id) DESC")
SELECT_DOCUMENTS_SHA256_BY_FOLDER_ID = "SELECT sha256 FROM documents WHERE folder_id=?"
SELECT_FOLDERS_TOTALS = (
    "SELECT f.id, f.name, f.created, COUNT(d.id), COALESCE(SUM(d.pages),0), COALESCE(SUM(d.size_bytes),0) "
    "FROM folders f LEFT JOIN documents d ON d.folder_id = f.id GROUP BY f.id ORDER BY f.name_key")
SELECT_DOCUMENTS_TOTALS_BY_FOLDER_ID = (
    "SELECT COUNT(id), COALESCE(SUM(pages),0), COALESCE(SUM(size_bytes),0) FROM documents WHERE "
    "folder_id=?")
SELECT_FOLDERS_BY_NAME_KEY = "SELECT * FROM folders WHERE name_key=?"
SELECT_FOLDERS_BY_ID = "SELECT * FROM folders WHERE id=?"
