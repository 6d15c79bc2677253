#!/usr/bin/env bash
# make dist: builds latchkey with the Swift standard library and Foundation linked in
# (--static-swift-stdlib, so the host needs no Swift toolchain) and packs
#   dist/latchkey-VERSION-linux-ARCH.tar.gz
#     latchkey-VERSION-linux-ARCH/latchkey              the binary, stripped (no symbol table, no
#                                                       debug information), with a .gnu_debuglink to:
#     latchkey-VERSION-linux-ARCH/latchkey.debug        its debug information and symbols, for gdb and
#                                                       for reading a crash's addresses (objcopy
#                                                       --only-keep-debug)
#     latchkey-VERSION-linux-ARCH/latchkey.service      the systemd unit (dist/latchkey.service)
#     latchkey-VERSION-linux-ARCH/debian-packages.txt   the Debian packages of the shared libraries it links
# The binary is the one `make release` builds (scripts/build-release.sh, so after it this build
# does nothing).
# Install on a host: docs/deploy.md#install-on-debian-12.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

scripts/build-release.sh
binary=.build/release/latchkey

version=$("$binary" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
name="latchkey-$version-linux-$arch"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/$name"
install -m 0755 "$binary" "$stage/$name/latchkey"
# The debug information goes beside the binary, which keeps only a link to it (its name and
# CRC): gdb finds it there, in a .debug directory beside the binary, or under /usr/lib/debug.
objcopy --only-keep-debug "$stage/$name/latchkey" "$stage/$name/latchkey.debug"
chmod 0644 "$stage/$name/latchkey.debug"
objcopy --strip-all "$stage/$name/latchkey"
(cd "$stage/$name" && objcopy --add-gnu-debuglink=latchkey.debug latchkey)
install -m 0644 dist/latchkey.service "$stage/$name/latchkey.service"

# The package of each shared library the binary links directly (apt brings what those need).
# dpkg knows a file by the path it was shipped under, which on a merged /usr may be the other
# of /lib and /usr/lib.
if ldd "$binary" | grep -q 'not found'; then
    echo "dist: the binary needs a library this machine lacks:" >&2
    ldd "$binary" | grep 'not found' >&2
    exit 1
fi
for needed in $(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    library=$(ldd "$binary" | awk -v name="$needed" '$1 == name && $3 ~ /^\// {print $3} $1 ~ "/"name"$" {print $1}' | head -n1)
    real=$(readlink -f "$library")
    package=""
    for candidate in "$library" "$real" "${library#/usr}" "/usr$library" "${real#/usr}" "/usr$real"; do
        if package=$(dpkg -S "$candidate" 2>/dev/null | head -n1 | cut -d: -f1) && [[ -n "$package" ]]; then
            break
        fi
    done
    if [[ -z "$package" ]]; then
        echo "dist: no Debian package ships $needed ($library)" >&2
        exit 1
    fi
    echo "$package"
done | sort -u > "$stage/$name/debian-packages.txt"
if grep -q swift "$stage/$name/debian-packages.txt" || ldd "$binary" | grep -q libswift; then
    echo "dist: the binary still loads the Swift runtime from the toolchain" >&2
    exit 1
fi

mkdir -p dist
tar -C "$stage" --owner=0 --group=0 -czf "dist/$name.tar.gz" "$name"
echo "dist/$name.tar.gz:"
tar -tzvf "dist/$name.tar.gz"
echo "Debian packages: $(tr '\n' ' ' < "$stage/$name/debian-packages.txt")"
