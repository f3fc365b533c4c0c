#!/usr/bin/env bash
# `cmake --install` puts the binary, the man page, the shell completions and the Debian
# documentation files where they belong; CPack's Debian package holds the same files with a
# stripped binary, declares the shared libraries the binary needs, its binary runs, and
# lintian (when installed) finds no error or warning in it.
#   install_and_package.sh BUILD_DIR VERSION
set -euo pipefail
build=$1 version=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
p=$tmp/prefix
[ -x "$p/bin/hintkit" ] || fail "no bin/hintkit"
[ "$("$p/bin/hintkit" --version)" = "hintkit $version" ] || fail "installed --version"
man=$p/share/man/man1/hintkit.1.gz
[ -s "$man" ] || fail "no man page"
zcat "$man" | grep -q '^\.TH HINTKIT 1' || fail "man page header"
for word in lsp completion version '\\-\\-explain'; do
  zcat "$man" | grep -q "$word" || fail "man page lacks $word"
done
# gzip -9n: no name or time stamp in the header (bytes 4-8 are the time: zero).
[ "$(od -An -tx1 -j3 -N5 "$man" | tr -d ' ')" = 0000000000 ] || fail "man page gzip has a name or time"
for f in bash-completion/completions/hintkit zsh/vendor-completions/_hintkit \
  fish/vendor_completions.d/hintkit.fish; do
  [ -s "$p/share/$f" ] || fail "no share/$f"
done
cmp -s "$p/share/bash-completion/completions/hintkit" <("$p/bin/hintkit" completion bash) ||
  fail "installed bash completion differs from hintkit completion bash"
grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' \
  "$p/share/doc/hintkit/copyright" || fail "no machine-readable copyright"
[ -s "$p/share/doc/hintkit/changelog.gz" ] || fail "no changelog.gz"
[ -s "$p/share/doc/hintkit/README.md" ] || fail "no README"

(cd "$tmp" && cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/pkg" >/dev/null)
deb=$(ls "$tmp"/pkg/*.deb)
[ "$(dpkg-deb -f "$deb" Package)" = hintkit ] || fail "package name"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "package version"
[ "$(dpkg-deb -f "$deb" Description | wc -l)" -gt 3 ] || fail "no long description"
depends=$(dpkg-deb -f "$deb" Depends)
# Every shared library the binary loads is declared (release builds link yaml-cpp, RE2 and the
# C++ runtime statically where their archives exist; the C library always comes shared).
needed=$(readelf -d "$p/bin/hintkit" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[[ "$needed" == *libc.so* ]] || fail "no NEEDED libc in: $needed"
for pair in libc.so:libc6 libyaml-cpp.so:libyaml-cpp libre2.so:libre2 libstdc++.so:libstdc++6 \
  libmimalloc.so:libmimalloc; do
  soname=${pair%%:*} package=${pair#*:}
  if [[ "$needed" == *"$soname"* ]]; then
    [[ "$depends" == *"$package"* ]] || fail "Depends lacks $package: $depends"
  fi
done
listing=$(dpkg-deb -c "$deb")
for f in ./usr/bin/hintkit ./usr/share/man/man1/hintkit.1.gz ./usr/share/doc/hintkit/copyright \
  ./usr/share/doc/hintkit/changelog.gz \
  ./usr/share/bash-completion/completions/hintkit ./usr/share/zsh/vendor-completions/_hintkit \
  ./usr/share/fish/vendor_completions.d/hintkit.fish; do
  grep -q " $f\$" <<<"$listing" || fail "package lacks $f"
done
dpkg-deb -x "$deb" "$tmp/root"
[ "$("$tmp/root/usr/bin/hintkit" --version)" = "hintkit $version" ] || fail "packaged --version"
[ -z "$(readelf -S "$tmp/root/usr/bin/hintkit" | grep -E '\.symtab|\.debug_')" ] ||
  fail "packaged binary is not stripped"
if command -v lintian >/dev/null; then
  # Errors and warnings fail; informational tags (I:) and pedantic ones do not.
  report=$(lintian --fail-on none --tag-display-limit 0 "$deb" 2>&1 || true)
  if grep -E '^[EW]: ' <<<"$report"; then fail "lintian reports errors or warnings"; fi
else
  echo "lintian not installed: the package's lintian check is skipped"
fi
echo "1 passed, 0 failed"
