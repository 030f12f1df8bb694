"""Test-wide settings."""

from __future__ import annotations

import os
import tempfile

# Solved tables are cached on disk; tests must not read or fill the user's cache.
os.environ.setdefault("NOUGHTS_CACHE_DIR", tempfile.mkdtemp(prefix="noughts-test-cache-"))
