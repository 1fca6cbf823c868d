#!/usr/bin/env bash
# Regenerate the hashed lock files (Linux x86-64, CPython 3.11) with uv (`pip install uv`):
#   requirements/lock-book.txt   the `book` extra: what the README's book command installs
#   requirements/lock-dev.txt    the `dev` extra (tests, tuning, classroom): the README's test command
#   binder/requirements.txt      the book lock plus JupyterLab (binder/requirements.in)
#
#   bash requirements/lock.sh            keep every existing pin; add or drop only what
#                                        pyproject.toml's extras changed
#   bash requirements/lock.sh --upgrade  the newest releases allowed (run .ci/latest first)
#   bash requirements/lock.sh --check    regenerate into a temporary folder and fail if a lock
#                                        differs from the committed one (pyproject.toml changed
#                                        without a re-lock)
#
# Constraints of every lock, even with --upgrade:
#   - the version of each library recorded in results/*/*.meta.json (`libraries`): the lock
#     holds the environment that produced the committed results (to move one, recompute the
#     results that depend on it in the same change);
#   - requirements/pins.in: the Jupyter Book 1.x / Sphinx stack held where the book builds.
# The dev and Binder locks are constrained by the book lock, so the three agree on every
# package they share.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
UV="${UV:-uv}"
command -v "$UV" >/dev/null 2>&1 || { echo "lock.sh: needs uv (pip install uv), or UV=/path/to/uv" >&2; exit 2; }

MODE="${1:-}"
case "$MODE" in
  ""|--upgrade|--check) ;;
  *) echo "lock.sh: unknown option '$MODE' (valid: --upgrade, --check)" >&2; exit 2 ;;
esac

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# The versions that produced results/ (one per library; two different ones is an error).
python3 - "$TMP/results-pins.txt" <<'PY'
import glob, json, sys
seen = {}
for meta in sorted(glob.glob("results/*/*.meta.json")):
    for lib, ver in (json.load(open(meta)).get("libraries") or {}).items():
        if lib in ("python", "ldpfair"):
            continue
        seen.setdefault(lib, {}).setdefault(str(ver), meta)
bad = {lib: v for lib, v in seen.items() if len(v) > 1}
if bad:
    for lib, v in bad.items():
        print(f"lock.sh: results/ was computed with several {lib} versions: "
              + ", ".join(f"{ver} ({m})" for ver, m in v.items()), file=sys.stderr)
    sys.exit(1)
with open(sys.argv[1], "w") as f:
    f.write("# versions recorded in results/*/*.meta.json\n")
    for lib in sorted(seen):
        f.write(f"{lib}=={next(iter(seen[lib]))}\n")
PY

OUT_BOOK=requirements/lock-book.txt OUT_DEV=requirements/lock-dev.txt OUT_BINDER=binder/requirements.txt
if [ "$MODE" = --check ]; then
  mkdir -p "$TMP/requirements" "$TMP/binder"
  for f in $OUT_BOOK $OUT_DEV $OUT_BINDER; do cp "$f" "$TMP/$f"; done
  OUT_BOOK="$TMP/$OUT_BOOK" OUT_DEV="$TMP/$OUT_DEV" OUT_BINDER="$TMP/$OUT_BINDER"
fi
UP=()
[ "$MODE" = --upgrade ] && UP=(--upgrade)

compile() {  # compile OUTPUT INPUTS... [-- extra uv options]
  local out="$1"; shift
  "$UV" pip compile --quiet "${UP[@]}" \
    --python-version 3.11 --python-platform x86_64-unknown-linux-gnu \
    --generate-hashes --no-emit-package ldpfair \
    --constraint "$TMP/results-pins.txt" --constraint requirements/pins.in \
    --custom-compile-command "bash requirements/lock.sh" \
    --output-file "$out" "$@"
}

compile "$OUT_BOOK" pyproject.toml --extra book
# the dev and Binder locks take the book lock's pins (without its hashes) as constraints
sed -e 's/ *\\$//' -e '/^ *--hash/d' "$OUT_BOOK" > "$TMP/book-pins.txt"
compile "$OUT_DEV" pyproject.toml --extra dev --constraint "$TMP/book-pins.txt"
compile "$OUT_BINDER" pyproject.toml binder/requirements.in --extra book --constraint "$TMP/book-pins.txt"

if [ "$MODE" = --check ]; then
  status=0
  for f in requirements/lock-book.txt requirements/lock-dev.txt binder/requirements.txt; do
    if ! diff -q "$f" "$TMP/$f" >/dev/null; then
      echo "lock.sh: $f is stale (pyproject.toml or the results' versions changed): run bash requirements/lock.sh" >&2
      diff -u "$f" "$TMP/$f" | head -40 >&2 || true
      status=1
    fi
  done
  [ $status = 0 ] && echo "lock files are up to date"
  exit $status
fi
echo "wrote requirements/lock-book.txt, requirements/lock-dev.txt, binder/requirements.txt"
