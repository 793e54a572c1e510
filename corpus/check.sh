#!/bin/sh
# Compile every corpus program warning-free, run it twice, and check that it
# exits with status 0, finishes in under a second and prints identical output
# both times.  Exits non-zero if any program fails.
#
# usage: corpus/check.sh [file.c ...]     (default: every corpus/*.c)
# environment: CC (default gcc), EXTRA_CFLAGS (e.g. "-DN=50")

CC=${CC:-gcc}
CFLAGS="-O2 -Wall -Wextra -std=gnu11"
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ $# -eq 0 ]; then
  set -- "$dir"/*.c
fi

fail=0
count=0
for src in "$@"; do
  name=$(basename "$src" .c)
  count=$((count + 1))
  exe="$tmp/$name"
  # shellcheck disable=SC2086
  if ! $CC $CFLAGS $EXTRA_CFLAGS "$src" -lm -o "$exe" 2>"$tmp/$name.cc"; then
    echo "FAIL $name: compilation failed"; cat "$tmp/$name.cc"; fail=1; continue
  fi
  if [ -s "$tmp/$name.cc" ]; then
    echo "FAIL $name: compiler warnings"; cat "$tmp/$name.cc"; fail=1; continue
  fi
  start=$(date +%s%N)
  timeout 10 "$exe" >"$tmp/$name.out1"
  rc=$?
  end=$(date +%s%N)
  ms=$(( (end - start) / 1000000 ))
  if [ $rc -ne 0 ]; then
    echo "FAIL $name: exit status $rc"; fail=1; continue
  fi
  timeout 10 "$exe" >"$tmp/$name.out2"
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL $name: exit status $rc on second run"; fail=1; continue
  fi
  if ! cmp -s "$tmp/$name.out1" "$tmp/$name.out2"; then
    echo "FAIL $name: output differs between runs"; fail=1; continue
  fi
  if [ ! -s "$tmp/$name.out1" ]; then
    echo "FAIL $name: no output"; fail=1; continue
  fi
  if grep -qiE 'nan|inf' "$tmp/$name.out1"; then
    echo "FAIL $name: output contains nan/inf"; fail=1; continue
  fi
  if [ $ms -ge 1000 ]; then
    echo "FAIL $name: took ${ms} ms (limit 1000 ms)"; fail=1; continue
  fi
  lines=$(wc -l <"$tmp/$name.out1")
  echo "ok   $name (${ms} ms, $lines lines)"
done

if [ $fail -ne 0 ]; then
  echo "check.sh: FAILURES among $count programs"
  exit 1
fi
echo "check.sh: all $count programs passed"
exit 0
