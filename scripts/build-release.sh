#!/usr/bin/env bash
# The release build of latchkey, as `make release` (so `make run`, `make bench` and the
# end-to-end tests) and `make dist` make it; extra `swift build` arguments pass through.
# - --static-swift-stdlib: the Swift runtime and Foundation linked in, so the host needs no
#   toolchain and no toolchain library is mapped (37 -> 30 MiB resident when idle).
# - linked by the toolchain's lld with packed relative relocations (-z pack-relative-relocs,
#   DT_RELR, read by glibc 2.36 and later: Debian 12): the relocations the loader applies at
#   start-up shrink from 1.9 MiB to 34 KiB (15 KiB of them packed), and the idle server is about
#   2 MiB smaller; still a PIE.
# - our functions each in a section of their own (-function-sections), and the functions the
#   server runs laid out first, start-up first (bench/latchkey.order, written by
#   bench/function_order.py): the code resident in an idle server 9.4 -> 4.6 MiB. A name the
#   file lists that no longer exists is skipped (--no-warn-symbol-ordering).
#
# SwiftPM recompiles nothing when only compiler flags change, so a release tree compiled with
# other flags (before -function-sections, say) is removed first: the stamp
# .build/release-compile-flags records the flags the tree was compiled with.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
compile_flags=(-c release --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections)
stamp=.build/release-compile-flags
release_tree=$(swift build -c release --show-bin-path)
if [[ -d "$release_tree" && "$(cat "$stamp" 2>/dev/null)" != "${compile_flags[*]}" ]]; then
    echo "build-release.sh: the release tree was compiled with other flags; compiling it again" >&2
    rm -rf "$release_tree"
fi
swift build "${compile_flags[@]}" \
    -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs \
    -Xlinker --symbol-ordering-file="$PWD/bench/latchkey.order" -Xlinker --no-warn-symbol-ordering "$@"
printf '%s' "${compile_flags[*]}" > "$stamp"
