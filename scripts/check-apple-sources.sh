#!/usr/bin/env bash
# Type-checks, with warnings as errors, the Swift that only Apple's toolchains compile —
# every `#if os(iOS) || os(macOS)` file of LatchkeyClient and the sample app's App/ and
# AppleTests/ — against the stand-in modules in Tests/AppleStandIns (Security,
# LocalAuthentication, AuthenticationServices, UIKit, AppKit, SwiftUI, Combine, and the
# Apple-only part of Foundation), once as iOS and once as macOS. `make test` runs it
# (`make apple-check`); what it cannot catch is in Tests/AppleStandIns/README.md.
#
# No Swift compiler here can target iOS, so the platform is set by rewriting, in copies
# of the sources, only the conditions of `#if`/`#elseif` lines:
#   os(iOS) -> LATCHKEY_CHECK_IOS, os(macOS) -> LATCHKEY_CHECK_MACOS (one defined per pass),
#   os(Linux) and canImport(FoundationNetworking) -> false (as on Apple platforms);
# and each `import Foundation` becomes `import AppleFoundation` (Foundation as Apple platforms
# have it: with URLSession and the Apple-only API), while an unconditional
# `import FoundationNetworking` fails, as it would on an Apple platform. Any other `os(…)`
# or `canImport(…)` condition than Glibc, Musl or Darwin stops the check: teach it first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH

work=.build/apple-check
standins=Tests/AppleStandIns
sample=Examples/LatchkeyExample
# Cross-import overlays (SwiftUI's WebAuthenticationSession comes from one) load as on Apple
# platforms, where the compiler enables them by default.
overlays=(-Xfrontend -enable-cross-import-overlays)
# The package's settings for its targets (Package.swift's strictSettings), Swift 6 mode.
package_flags=(-swift-version 6 -warnings-as-errors -package-name latchkey -enable-upcoming-feature ExistentialAny
               -enable-upcoming-feature InternalImportsByDefault -enable-upcoming-feature MemberImportVisibility "${overlays[@]}")
# The sample app's Xcode settings (project.yml): Swift 6 mode, warnings as errors.
app_flags=(-swift-version 6 -warnings-as-errors "${overlays[@]}")

fail() { echo "check-apple-sources: $*" >&2; exit 1; }

# Every Apple-only file must be in a module this check compiles.
while IFS= read -r file; do
    case "$file" in
        Sources/LatchkeyClient/*|$sample/App/*) ;;
        *) fail "$file is Apple-only but in no module this check compiles: add its module here" ;;
    esac
done < <(grep -rlE '^\s*#(if|elseif).*os\((iOS|macOS)\)' --include='*.swift' Sources Examples Tests | grep -v "^$standins/")

# preprocess SOURCE_DIR DEST_DIR: copies the Swift files with the rewrites described above.
preprocess() {
    local source=$1 dest=$2
    mkdir -p "$dest"
    for file in "$source"/*.swift "$source"/**/*.swift; do
        [[ -f "$file" ]] || continue
        local copy="$dest/checked_$(echo "${file#$source/}" | tr / _)"
        # Diagnostics name the original file and line (the rewrites keep every line).
        printf '#sourceLocation(file: "%s", line: 1)\n' "$file" > "$copy"
        sed -E \
            -e '/^\s*#(if|elseif)\b/{s/os\(iOS\)/LATCHKEY_CHECK_IOS/g; s/os\(macOS\)/LATCHKEY_CHECK_MACOS/g; s/os\(Linux\)/false/g; s/canImport\(FoundationNetworking\)/false/g}' \
            -e 's/^(\s*(@_exported |public |package |internal |private |fileprivate )*import )Foundation\s*$/\1AppleFoundation/' \
            -e 's/^(\s*(@_exported |public |package |internal |private |fileprivate )*import )FoundationNetworking\s*$/\1FoundationNetworking_IsNotOnApplePlatforms/' \
            "$file" >> "$copy"
        local left
        left=$(grep -nE '^\s*#(if|elseif)\b' "$copy" | grep -E '(os|canImport)\(' | grep -vE 'canImport\((Glibc|Musl|Darwin)\)' || true)
        [[ -z "$left" ]] || fail "$file: a platform condition this check does not know: $left"
    done
}

# standins PLATFORM_DEFINE DEST: builds the stand-in modules for one platform.
build_standins() {
    local define=$1 dest=$2 ui=$3
    mkdir -p "$dest"
    for module in AppleCoreFoundation Combine Security AppleFoundation LocalAuthentication "$ui" AuthenticationServices SwiftUI \
                  _AuthenticationServices_SwiftUI; do
        swiftc -emit-module -parse-as-library -swift-version 6 -warnings-as-errors -D "$define" -module-name "$module" -I "$dest" \
            -emit-module-path "$dest/$module.swiftmodule" "$standins/$module"/*.swift
    done
    mkdir -p "$dest/AuthenticationServices.swiftcrossimport"
    cp "$standins/_crossimport/AuthenticationServices+SwiftUI.swiftoverlay" "$dest/AuthenticationServices.swiftcrossimport/SwiftUI.swiftoverlay"
}

check_platform() {
    local platform=$1 define=$2 ui=$3
    local root=$work/$platform modules=$work/$platform/modules
    echo "check-apple-sources: LatchkeyClient as $platform"
    build_standins "$define" "$modules" "$ui"
    preprocess Sources/LatchkeyClient "$root/LatchkeyClient"
    # -emit-module with whole-module type-checking: every function body is checked.
    swiftc -emit-module -wmo -parse-as-library "${package_flags[@]}" -D "$define" -module-name LatchkeyClient -I "$modules" \
        -emit-module-path "$modules/LatchkeyClient.swiftmodule" "$root/LatchkeyClient"/*.swift
}

rm -rf "$work"
shopt -s globstar nullglob
check_platform macos LATCHKEY_CHECK_MACOS AppKit
check_platform ios LATCHKEY_CHECK_IOS UIKit

echo "check-apple-sources: the sample app ($sample) as iOS"
modules=$work/ios/modules
preprocess "$sample/Model" "$work/ios/LatchkeyExampleModel"
swiftc -emit-module -wmo -parse-as-library "${package_flags[@]}" -D LATCHKEY_CHECK_IOS -module-name LatchkeyExampleModel -I "$modules" \
    -emit-module-path "$modules/LatchkeyExampleModel.swiftmodule" "$work/ios/LatchkeyExampleModel"/*.swift
preprocess "$sample/App" "$work/ios/LatchkeyExample"
swiftc -typecheck -wmo -parse-as-library "${app_flags[@]}" -D LATCHKEY_CHECK_IOS -module-name LatchkeyExample -I "$modules" \
    "$work/ios/LatchkeyExample"/*.swift
preprocess "$sample/AppleTests" "$work/ios/LatchkeyExampleAppleTests"
swiftc -typecheck -wmo -parse-as-library "${app_flags[@]}" -D LATCHKEY_CHECK_IOS -module-name LatchkeyExampleTests -I "$modules" \
    "$work/ios/LatchkeyExampleAppleTests"/*.swift
echo "check-apple-sources: passed"
