#!/usr/bin/env bash
# `cmake --install` puts the binary, the man page, the license and the README where they
# belong, and CPack's Debian package holds the same files, declares the shared libraries the
# binary needs, and its binary runs.
#   install_and_package.sh BUILD_DIR VERSION
set -euo pipefail
build=$1 version=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
[ -x "$tmp/prefix/bin/hintkit" ] || fail "no bin/hintkit"
[ "$("$tmp/prefix/bin/hintkit" --version)" = "hintkit $version" ] || fail "installed --version"
[ -s "$tmp/prefix/share/man/man1/hintkit.1" ] || fail "no man page"
grep -q '^\.TH HINTKIT 1' "$tmp/prefix/share/man/man1/hintkit.1" || fail "man page header"
[ -s "$tmp/prefix/share/doc/hintkit/LICENSE" ] || fail "no license"
[ -s "$tmp/prefix/share/doc/hintkit/README.md" ] || fail "no README"

(cd "$tmp" && cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/pkg" >/dev/null)
deb=$(ls "$tmp"/pkg/*.deb)
[ "$(dpkg-deb -f "$deb" Package)" = hintkit ] || fail "package name"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "package version"
depends=$(dpkg-deb -f "$deb" Depends)
# Every shared library the binary loads is declared (release builds link yaml-cpp, RE2 and the
# C++ runtime statically where their archives exist; the C library always comes shared).
needed=$(readelf -d "$tmp/prefix/bin/hintkit" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[[ "$needed" == *libc.so* ]] || fail "no NEEDED libc in: $needed"
for pair in libc.so:libc6 libyaml-cpp.so:libyaml-cpp libre2.so:libre2 libstdc++.so:libstdc++6 \
  libmimalloc.so:libmimalloc; do
  soname=${pair%%:*} package=${pair#*:}
  if [[ "$needed" == *"$soname"* ]]; then
    [[ "$depends" == *"$package"* ]] || fail "Depends lacks $package: $depends"
  fi
done
listing=$(dpkg-deb -c "$deb")
for f in ./usr/bin/hintkit ./usr/share/man/man1/hintkit.1 ./usr/share/doc/hintkit/LICENSE; do
  grep -q " $f\$" <<<"$listing" || fail "package lacks $f"
done
dpkg-deb -x "$deb" "$tmp/root"
[ "$("$tmp/root/usr/bin/hintkit" --version)" = "hintkit $version" ] || fail "packaged --version"
echo "1 passed, 0 failed"
