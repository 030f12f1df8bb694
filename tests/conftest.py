"""Test-wide settings."""

from __future__ import annotations

import os
import tempfile

# Solved tables are cached on disk; tests must not read or fill the user's cache.
os.environ.setdefault("NOUGHTS_CACHE_DIR", tempfile.mkdtemp(prefix="noughts-test-cache-"))
# ... nor the user's online-play database (the default SQLite file lives in this folder).
os.environ.setdefault("NOUGHTS_DATA_DIR", tempfile.mkdtemp(prefix="noughts-test-data-"))
