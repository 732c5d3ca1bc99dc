#!/usr/bin/env python3
"""Trunk post-build hook: allow exactly the inline loader script trunk writes into index.html.

The page's Content-Security-Policy allows scripts from its own origin only. Trunk's loader is an
inline <script type="module">, whose text (file names with content hashes) changes with every
build, so this hook adds its sha256 to script-src instead of allowing all inline scripts."""

import base64
import hashlib
import os
import re
import sys

path = os.path.join(os.environ.get("TRUNK_STAGING_DIR", sys.argv[1] if len(sys.argv) > 1 else "dist"), "index.html")
html = open(path, encoding="utf-8").read()
hashes = []
for body in re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, flags=re.S):
    digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
    hashes.append(f"'sha256-{digest}'")
if hashes:
    html, n = re.subn(r"script-src 'self' 'wasm-unsafe-eval'", "script-src 'self' 'wasm-unsafe-eval' " + " ".join(hashes), html)
    if n != 1:
        sys.exit(f"{path}: no script-src 'self' 'wasm-unsafe-eval' to extend")
open(path, "w", encoding="utf-8").write(html)
print(f"csp_hash: allowed {len(hashes)} inline script(s) in {path}")
