// encoding/base64: Go's four encodings, encoding and decoding as Go does.
#include <array>
#include <cstdint>

#include "gocompat/gocompat.h"

namespace hintkit::gocompat {
namespace {

const char* alphabet(bool url) {
  return url ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
             : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
}

}  // namespace

std::string Base64Encoding::encode(std::string_view in) const {
  const char* a = alphabet(url);
  std::string out;
  size_t i = 0;
  for (; i + 3 <= in.size(); i += 3) {
    uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += a[(v >> s) & 63];
  }
  size_t rest = in.size() - i;
  if (rest > 0) {
    uint32_t v = uint8_t(in[i]) << 16;
    if (rest == 2) v |= uint8_t(in[i + 1]) << 8;
    out += a[(v >> 18) & 63];
    out += a[(v >> 12) & 63];
    if (rest == 2) out += a[(v >> 6) & 63];
    if (!raw) out += rest == 2 ? "=" : "==";
  }
  return out;
}

bool Base64Encoding::decode(std::string_view src, std::string& out, size_t& bad) const {
  std::array<int, 256> map;
  map.fill(-1);
  const char* a = alphabet(url);
  for (int i = 0; i < 64; ++i) map[uint8_t(a[i])] = i;
  auto corrupt = [&](size_t at) {
    bad = at;
    return false;
  };
  size_t si = 0;
  while (si < src.size()) {
    int dbuf[4] = {0, 0, 0, 0};
    int dlen = 4;
    bool trailing = false;
    size_t trailing_at = 0;
    for (int j = 0; j < 4; ++j) {
      if (si == src.size()) {
        if (j == 0) return true;
        if (j == 1 || !raw) return corrupt(si - j);
        dlen = j;
        break;
      }
      char in = src[si++];
      int v = map[uint8_t(in)];
      if (v >= 0) {
        dbuf[j] = v;
        continue;
      }
      if (in == '\n' || in == '\r') {
        --j;
        continue;
      }
      if (raw || in != '=') return corrupt(si - 1);
      // padding
      if (j < 2) return corrupt(si - 1);
      if (j == 2) {
        while (si < src.size() && (src[si] == '\n' || src[si] == '\r')) ++si;
        if (si == src.size()) return corrupt(src.size());
        if (src[si] != '=') return corrupt(si - 1);
        ++si;
      }
      while (si < src.size() && (src[si] == '\n' || src[si] == '\r')) ++si;
      if (si < src.size()) {
        trailing = true;
        trailing_at = si;
      }
      dlen = j;
      break;
    }
    uint32_t val = (uint32_t(dbuf[0]) << 18) | (uint32_t(dbuf[1]) << 12) |
                   (uint32_t(dbuf[2]) << 6) | uint32_t(dbuf[3]);
    uint8_t b[3] = {uint8_t(val >> 16), uint8_t(val >> 8), uint8_t(val)};
    if (dlen == 4) {
      out.append(reinterpret_cast<char*>(b), 3);
    } else if (dlen == 3) {
      out.append(reinterpret_cast<char*>(b), 2);
      if (strict && b[2] != 0) return corrupt(si - 1);
    } else if (dlen == 2) {
      out += char(b[0]);
      if (strict && (b[1] != 0 || b[2] != 0)) return corrupt(si - 2);
    }
    if (trailing) return corrupt(trailing_at);
  }
  return true;
}

}  // namespace hintkit::gocompat
