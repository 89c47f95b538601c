#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then ridge run from there as a user would:
# from another folder, finding the installed data (a model that exists only in
# PREFIX/share/ridge proves it reads there, not the source tree), a man page per command
# that `man -l` renders, bash and zsh completion, and the Python module.
# Usage: test_install.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
prefix=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
unset RIDGE_DATA_DIR
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
ridge="$prefix/bin/ridge"
[ -x "$ridge" ] || fail "no $ridge"
for d in models configs/hw configs/sweeps configs/calibration; do
  [ -d "$prefix/share/ridge/$d" ] || fail "no share/ridge/$d"
done
cp "$prefix/share/ridge/models/mlp.toml" "$prefix/share/ridge/models/installed-only.toml"
cd "$work"
"$ridge" analyze installed-only --hw v100 >/dev/null || fail "the installed binary does not read PREFIX/share/ridge"
json=$("$ridge" analyze alexnet --hw v100 --format json)
grep -q '"macs": 105415200' <<<"$json" || fail "alexnet conv1 MACs (DESIGN.md: 105,415,200)"

# One man page per command of `ridge --help`, each rendered by man.
commands=$("$ridge" --help | awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { exit }')
[ -n "$commands" ] || fail "no commands in ridge --help"
for c in "" $commands; do
  page="$prefix/share/man/man1/ridge${c:+-$c}.1"
  [ -f "$page" ] || fail "no man page $page"
  text=$(MANWIDTH=100 man -l "$page" 2>/dev/null) || fail "man -l $page"
  grep -q "ridge${c:+-$c}" <<<"$text" || fail "$page does not name ridge${c:+-$c}"
done
grep -q -- '--batch' <<<"$(MANWIDTH=100 man -l "$prefix/share/man/man1/ridge-analyze.1")" || fail "ridge-analyze.1 lacks --batch"

# bash completion: commands, options, models, hardware.
complete_words() {  # WORD... : the completions of the last word
  bash -c 'source "$0"; COMP_WORDS=("${@}"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _ridge; printf "%s\n" "${COMPREPLY[@]}"' \
    "$prefix/share/bash-completion/completions/ridge" "$@"
}
export PATH="$prefix/bin:$PATH"
# (grep without -q reads all its input: with pipefail, -q's early exit can kill the writer
# with SIGPIPE and fail the pipeline at random)
complete_words "$ridge" an | grep -x analyze >/dev/null || fail "bash: command"
complete_words "$ridge" analyze --bat | grep -x -- --batch >/dev/null || fail "bash: option"
complete_words "$ridge" analyze installed | grep -x installed-only >/dev/null || fail "bash: model name"
complete_words "$ridge" analyze alexnet --hw v10 | grep -x v100-calibrated >/dev/null || fail "bash: hardware name"
if command -v zsh >/dev/null; then
  zsh -n "$prefix/share/zsh/site-functions/_ridge" || fail "zsh completion does not parse"
else
  [ -f "$prefix/share/zsh/site-functions/_ridge" ] || fail "no zsh completion"
fi

# The Python module, when the build made one.
if [ -d "$build/python/ridge" ]; then
  PYTHONPATH="$prefix/lib/python3/dist-packages" /usr/bin/python3 -c "
import ridge
r = ridge.analyze('installed-only', hw='v100')
assert r.totals['time_s'] > 0
print(ridge.analyze('alexnet', hw='v100').layers[0]['macs'])" | grep -x 105415200 >/dev/null || fail "installed Python module"
fi
echo "install test passed: $prefix"
