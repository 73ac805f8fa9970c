#!/usr/bin/env bash
# Mutation-test one module against the test files that exercise it, in a scratch copy of the tree.
# Usage: tests/mutation/run.sh hermes_decl/versions.py tests/test_versions.py [more test files…]
# An argument starting with "-" is a pytest option for every run (a --deselect of a timing test).
# Needs mutmut in the venv (`.venv/bin/python -m pip install mutmut`); it is no project dependency.
set -euo pipefail
module=$1
shift
tests=()
options=()
for argument in "$@"; do
    if [[ $argument == -* ]]; then options+=("$argument"); else tests+=("$argument"); fi
done
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
echo "scratch copy: $work" >&2
# The tests read the README, the examples and the committed schemas beside the package, so they
# travel too.
cp -r "$root/hermes_decl" "$root/pyproject.toml" "$root/README.md" "$root/SECURITY.md" "$root/examples" "$root/schema" "$work/"
mkdir "$work/tests"
(cd "$root/tests" && tar cf - --exclude=editor --exclude=__pycache__ .) | (cd "$work/tests" && tar xf -)
{
    echo "[mutmut]"
    echo "source_paths=hermes_decl"
    echo "only_mutate=$module"
    # One argument a line: mutmut reads a one-line value as a single argument.
    echo "pytest_add_cli_args="
    for option in -p no:cacheprovider -q -x "${options[@]}"; do echo "    $option"; done
    echo "pytest_add_cli_args_test_selection="
    for test_file in "${tests[@]}"; do echo "    $test_file"; done
    echo "also_copy="
    for extra in README.md SECURITY.md examples schema; do echo "    $extra"; done
    echo "timeout_multiplier=${MUTMUT_TIMEOUT_MULTIPLIER:-5}"
} >"$work/setup.cfg"
cd "$work"
"$root/.venv/bin/mutmut" run --max-children "${MUTMUT_CHILDREN:-2}" >"$work/run.log" 2>&1 || {
    tail -40 "$work/run.log"
    exit 1
}
"$root/.venv/bin/mutmut" results --all true >"$work/results.txt" 2>&1 || true
echo "$module: $(grep -c ': ' "$work/results.txt") mutants"
sed -E 's/.*: //' "$work/results.txt" | sort | uniq -c
for name in $(grep -E ': (survived|no tests|timeout|suspicious)' "$work/results.txt" | cut -d: -f1); do
    echo "# $name"
    "$root/.venv/bin/mutmut" show "$name" 2>&1 | grep -E '^[-+][^-+]' || true
done
