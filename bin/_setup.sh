# Shared by bin/run and bin/test: create .venv/ with Python >= 3.11 and install the pinned requirements.
# Reinstalls only when a requirements file changed. Usage: source bin/_setup.sh requirements.txt [more.txt]
set -euo pipefail
PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "socialsite needs Python 3.11 or newer (set PYTHON=/path/to/python3.11)." >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  echo "Creating .venv/ ..."
  "$PYTHON" -m venv .venv
fi
stamp=".venv/.installed-$(cat "$@" | sha1sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  echo "Installing requirements into .venv/ ..."
  args=()
  for file in "$@"; do args+=(-r "$file"); done
  .venv/bin/python -m pip install --quiet --disable-pip-version-check "${args[@]}"
  rm -f .venv/.installed-*
  touch "$stamp"
fi
