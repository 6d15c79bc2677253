#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/Targets, docs/fuzzing.md) and runs each for a while.
#   scripts/fuzz.sh [--seconds N] [--seed N] [--build-only] [TARGET…]
# Every target when none is named. Each runs for N seconds (default 60) on its seed corpus
# (Fuzz/Corpus/<target>, read only) and a working corpus in .build/fuzz/corpus/<target>
# (the inputs libFuzzer finds, kept between runs), with Fuzz/Dictionaries/<target>.dict when
# there is one. Prints the executions each target reached; exits non-zero when any target
# crashed, broke a property, leaked, hung (-timeout) or ran out of memory, leaving the input
# in .build/fuzz/crashes/<target>/ and the run's output in .build/fuzz/logs/<target>.log.
# --seed fixes libFuzzer's random seed and Swift's hashing seed (make fuzz-brief, and so make
# test, passes 1): runs then start alike, though address-space randomisation still moves them
# apart after a while (docs/fuzzing.md); without it each run draws a new seed and explores anew.
# FUZZ_ARGS adds libFuzzer options (FUZZ_ARGS="-max_len=65536 -jobs=2").
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH

seconds=60
seed=
build_only=0
targets=()
while (( $# > 0 )); do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --seed) seed="$2"; shift 2 ;;
        --build-only) build_only=1; shift ;;
        -*) echo "fuzz: unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
if (( ${#targets[@]} == 0 )); then
    for directory in Fuzz/Targets/*/; do targets+=("$(basename "$directory")"); done
fi
for target in "${targets[@]}"; do
    [[ -d "Fuzz/Targets/$target" ]] || { echo "fuzz: no target $target (see Fuzz/Targets)" >&2; exit 2; }
done

# The fuzz targets exist in the manifest only with LATCHKEY_FUZZ set, and build into a build
# directory of their own, so the normal build is untouched. SwiftPM's --sanitize=fuzzer links
# libFuzzer's main in place of the executable's; -sanitize=fuzzer,address, passed whole to
# swiftc, instruments every Swift module for coverage and ASan (the two --sanitize flags alone
# reach the Swift frontend as address only). -parse-as-library: the targets have no main.
# Warnings are errors here as in the normal build.
build_flags=(-c release --build-path .build/fuzz --sanitize fuzzer --sanitize address
             -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -warnings-as-errors)
mkdir -p .build
started=$SECONDS
for target in "${targets[@]}"; do
    # ld.gold warns about each ASan helper symbol it cannot export: noise, left out.
    if ! LATCHKEY_FUZZ=1 swift build "${build_flags[@]}" --product "$target" > .build/fuzz-build.log 2>&1; then
        grep -v "Cannot export local symbol" .build/fuzz-build.log >&2
        exit 1
    fi
done
echo "fuzz: built ${#targets[@]} target(s) in $((SECONDS - started)) s"
(( build_only )) && exit 0

binaries=$(LATCHKEY_FUZZ=1 swift build "${build_flags[@]}" --show-bin-path)
# Swift's backtracer and ASan's report both want the crashing thread: ASan's is the one kept.
export SWIFT_BACKTRACE=enable=no
# Leaks are checked after each input (libFuzzer's -detect_leaks), not at exit: LeakSanitizer
# does not see references Swift keeps with spare bits set (enum payloads such as Data's), so
# a target's globals (the JWS keys) would read as leaked at exit.
export ASAN_OPTIONS=leak_check_at_exit=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
failed=()
printf '%-22s %14s %10s %8s  %s\n' target executions "exec/s" corpus result
for target in "${targets[@]}"; do
    corpus=.build/fuzz/corpus/$target
    crashes=.build/fuzz/crashes/$target
    log=.build/fuzz/logs/$target.log
    mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
    options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1
             -artifact_prefix="$crashes/")
    if [[ -n "$seed" ]]; then options+=(-seed="$seed"); export SWIFT_DETERMINISTIC_HASHING=1; fi
    [[ -f "Fuzz/Dictionaries/$target.dict" ]] && options+=(-dict="Fuzz/Dictionaries/$target.dict")
    status=0
    # shellcheck disable=SC2086 # FUZZ_ARGS is a list of options
    "$binaries/$target" "${options[@]}" ${FUZZ_ARGS:-} "$corpus" "Fuzz/Corpus/$target" > "$log" 2>&1 || status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    size=$(find "$corpus" -type f | wc -l)
    if (( status == 0 )); then
        result=ok
    else
        result="FAILED (exit $status): $(ls -t "$crashes" | head -1 | sed "s|^|$crashes/|")"
        failed+=("$target")
    fi
    printf '%-22s %14s %10s %8s  %s\n' "$target" "${executions:-?}" "${rate:-?}" "$size" "$result"
done
if (( ${#failed[@]} > 0 )); then
    echo "fuzz: ${failed[*]} failed; the logs are in .build/fuzz/logs, reproduce with docs/fuzzing.md" >&2
    exit 1
fi
