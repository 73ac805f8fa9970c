#!/usr/bin/env bash
# The Windows leg: the whole test suite under Microsoft's embeddable CPython 3.13 and 3.10, run by
# Debian's Wine. Fails when any test fails under either Python. Arguments, when given, go to
# pytest instead of the whole suite (.ci/windows.sh tests/test_windows_live.py).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-.venv/bin/python}
BUILD=.ci/.windows-build
WINE=/usr/lib/wine/wine64
VERSIONS=(3.13 3.10)
# A hung suite is stopped after this; a normal run ends well within it.
SUITE_LIMIT_S=1800
export WINEDEBUG=-all
# No Mono or Gecko: the prefix would otherwise offer to download them on first start.
export WINEDLLOVERRIDES="mscoree,mshtml="

if [[ ! -x $WINE ]] || ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    echo "installing Wine and MinGW-w64"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq wine64 gcc-mingw-w64-x86-64 >/dev/null
fi

rm -rf "$BUILD"
mkdir -p "$BUILD"
x86_64-w64-mingw32-gcc -shared -O2 -s -static-libgcc -o "$BUILD/bcryptprimitives.dll" \
    .ci/windows/bcryptprimitives.c -ladvapi32

for version in "${VERSIONS[@]}"; do
    echo "building Windows CPython $version"
    "$PYTHON" .ci/windows/build.py "$version" "$BUILD/py$version"
    cp "$BUILD/bcryptprimitives.dll" "$BUILD/py$version/"
done

# One prefix per Python, so the two runs share no registry or profile.
run_suite() {
    local version=$1
    export WINEPREFIX=$PWD/$BUILD/prefix$version
    # Hypothesis keeps its examples apart from the native runs' .hypothesis/.
    export HYPOTHESIS_STORAGE_DIRECTORY=$BUILD/hypothesis$version
    "$WINE" wineboot --init </dev/null 2>&1 | cat
    "$WINE" winecfg -v win10 </dev/null 2>&1 | cat
    # Python needs a pipe, not a file, for its standard streams under Wine.
    local status=0
    timeout "$SUITE_LIMIT_S" "$WINE" "$BUILD/py$version/python.exe" -m pytest -p no:cacheprovider \
        "${PYTEST_ARGS[@]}" </dev/null 2>&1 | cat >"$BUILD/pytest$version.log" || status=$?
    if [[ $status -eq 124 ]]; then
        echo "the suite did not end within $SUITE_LIMIT_S s" >>"$BUILD/pytest$version.log"
        /usr/lib/wine/wineserver64 -k || true  # ends what the killed run left in its prefix
    fi
    return "$status"
}

PYTEST_ARGS=("$@")
started=$SECONDS
pids=()
for version in "${VERSIONS[@]}"; do
    run_suite "$version" &
    pids+=($!)
done
statuses=()
for pid in "${pids[@]}"; do
    status=0
    wait "$pid" || status=$?
    statuses+=("$status")
done

failed=0
for index in "${!VERSIONS[@]}"; do
    version=${VERSIONS[$index]}
    echo "===== Windows CPython $version under Wine ====="
    cat "$BUILD/pytest$version.log"
    if [[ ${statuses[$index]} -ne 0 ]]; then
        failed=1
    fi
done
echo "===== Windows leg, $((SECONDS - started)) s ====="
for index in "${!VERSIONS[@]}"; do
    version=${VERSIONS[$index]}
    summary=$(grep -E '^=+ .* in [0-9.]+s' "$BUILD/pytest$version.log" | tail -n 1 || true)
    echo "Windows CPython $version: ${summary:-no pytest summary} (exit ${statuses[$index]})"
done
exit "$failed"
