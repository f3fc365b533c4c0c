// `@ytt:base64`, `@ytt:md5` and `@ytt:sha256`: Go's encoding/base64 (gocompat::Base64Encoding;
// the url, raw and strict keywords choose the encoding) and the two digests printed as
// lowercase hex.
#include <array>
#include <cstdint>
#include <cstring>

#include "gocompat/gocompat.h"
#include "ytt/yttlibrary/yttlibrary.h"

namespace hintkit::ytt {

namespace {

// ytt's core.BoolArg over every keyword (unknown names are ignored, as ytt ignores them).
std::optional<sl::Error> base64_options(const sl::Call& c, gocompat::Base64Encoding& b) {
  for (const auto& kw : c.kwargs) {
    bool* slot = kw.name == "url"      ? &b.url
                 : kw.name == "raw"    ? &b.raw
                 : kw.name == "strict" ? &b.strict
                                       : nullptr;
    if (!slot) continue;
    if (!kw.value.is(sl::Kind::kBool)) {
      return ytt_fail(c, "expected starlark.Bool, but was " + go_type_name(kw.value));
    }
    *slot = kw.value.as_bool();
  }
  return std::nullopt;
}

// ---- MD5 (RFC 1321) ----

std::string hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out += d[p[i] >> 4];
    out += d[p[i] & 15];
  }
  return out;
}

uint32_t rotl(uint32_t x, int c) { return (x << c) | (x >> (32 - c)); }
uint32_t rotr(uint32_t x, int c) { return (x >> c) | (x << (32 - c)); }

// The message padded to a multiple of 64 bytes with its bit length (little or big endian).
std::string padded(std::string_view in, bool big_endian) {
  std::string m(in);
  uint64_t bits = uint64_t(in.size()) * 8;
  m += char(0x80);
  while (m.size() % 64 != 56) m += char(0);
  for (int i = 0; i < 8; ++i) {
    int shift = big_endian ? 56 - 8 * i : 8 * i;
    m += char((bits >> shift) & 0xff);
  }
  return m;
}

std::string md5_hex(std::string_view in) {
  static const uint32_t K[64] = {
      0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613,
      0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193,
      0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d,
      0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
      0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122,
      0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
      0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244,
      0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
      0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
      0xeb86d391};
  static const int S[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                            5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                            4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                            6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
  uint32_t h[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  std::string m = padded(in, false);
  for (size_t off = 0; off < m.size(); off += 64) {
    uint32_t w[16];
    for (int i = 0; i < 16; ++i) {
      const auto* p = reinterpret_cast<const uint8_t*>(m.data() + off + 4 * i);
      w[i] = p[0] | (p[1] << 8) | (p[2] << 16) | (uint32_t(p[3]) << 24);
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    for (int i = 0; i < 64; ++i) {
      uint32_t f;
      int g;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) % 16;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) % 16;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) % 16;
      }
      uint32_t next = b + rotl(a + f + K[i] + w[g], S[i]);
      a = d;
      d = c;
      c = b;
      b = next;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
  }
  uint8_t out[16];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) out[4 * i + j] = uint8_t(h[i] >> (8 * j));
  return hex(out, 16);
}

// ---- SHA-256 (FIPS 180-4) ----

std::string sha256_hex(std::string_view in) {
  static const uint32_t K[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
      0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
      0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
      0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
      0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
      0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
      0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
      0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
      0xc67178f2};
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string m = padded(in, true);
  for (size_t off = 0; off < m.size(); off += 64) {
    uint32_t w[64];
    for (int i = 0; i < 16; ++i) {
      const auto* p = reinterpret_cast<const uint8_t*>(m.data() + off + 4 * i);
      w[i] = (uint32_t(p[0]) << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
    }
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t t1 =
          hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
      uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  uint8_t out[32];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) out[4 * i + j] = uint8_t(h[i] >> (24 - 8 * j));
  return hex(out, 32);
}

// A builtin of one string argument, with ytt's argument checks.
sl::Value string_fn(std::string name,
                    std::function<sl::Result<sl::Value>(const sl::Call&, std::string_view)> fn) {
  return sl::make_builtin(std::move(name), [fn](const sl::Call& c) -> sl::Result<sl::Value> {
    if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
    std::string_view s;
    if (auto e = want_string(c, c.args[0], s)) return *e;
    return fn(c, s);
  });
}

}  // namespace

sl::Value base64_module() {
  auto encode = string_fn("base64.encode",
                          [](const sl::Call& c, std::string_view s) -> sl::Result<sl::Value> {
                            gocompat::Base64Encoding b;
                            if (auto e = base64_options(c, b)) return *e;
                            return sl::Value::from_string(b.encode(s));
                          });
  auto decode = string_fn(
      "base64.decode", [](const sl::Call& c, std::string_view s) -> sl::Result<sl::Value> {
        gocompat::Base64Encoding b;
        if (auto e = base64_options(c, b)) return *e;
        std::string out;
        size_t bad = 0;
        if (!b.decode(s, out, bad)) {
          return ytt_fail(c, "illegal base64 data at input byte " + std::to_string(bad));
        }
        return sl::Value::from_string(out);
      });
  return sl::make_struct("module", "base64", {{"decode", decode}, {"encode", encode}});
}

sl::Value md5_module() {
  auto sum = string_fn("md5.sum", [](const sl::Call&, std::string_view s) -> sl::Result<sl::Value> {
    return sl::Value::from_string(md5_hex(s));
  });
  return sl::make_struct("module", "md5", {{"sum", sum}});
}

sl::Value sha256_module() {
  auto sum =
      string_fn("sha256.sum", [](const sl::Call&, std::string_view s) -> sl::Result<sl::Value> {
        return sl::Value::from_string(sha256_hex(s));
      });
  return sl::make_struct("module", "sha256", {{"sum", sum}});
}

}  // namespace hintkit::ytt
