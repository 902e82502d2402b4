"""One router per resource: documents, folders, questions (ask and conversations), jobs, health."""
