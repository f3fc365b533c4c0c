// strconv.FormatFloat with the shortest precision (-1), ported from Go 1.19's
// src/strconv/ftoa.go (fmtE, fmtF and the %e/%f choice of 'g'), and encoding/json's float
// encoder (src/encoding/json/encode.go) on top of it. The shortest digits come from
// std::to_chars, which gives the same digits as Go's shortest conversion.
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "gocompat/gocompat.h"

namespace hintkit::gocompat {
namespace {

// The shortest digits of a finite |f| (no leading or trailing zeros; none for zero) and dp,
// where the value is 0.DIGITS x 10^dp, as Go's decimalSlice.
struct Digits {
  std::string d;
  int dp = 0;
};

Digits shortest(double f, int bit_size) {
  if (f == 0) return {};
  char buf[64];
  const auto r =
      bit_size == 32
          ? std::to_chars(buf, buf + sizeof buf, std::fabs(static_cast<float>(f)),
                          std::chars_format::scientific)
          : std::to_chars(buf, buf + sizeof buf, std::fabs(f), std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<size_t>(r.ptr - buf));  // "1.2345e+02"
  const size_t e = sci.find('e');
  Digits out;
  for (char c : sci.substr(0, e)) {
    if (c != '.') out.d += c;
  }
  while (out.d.size() > 1 && out.d.back() == '0') out.d.pop_back();
  out.dp = std::atoi(std::string(sci.substr(e + 1)).c_str()) + 1;
  return out;
}

// %e: d.ddddde±dd, `prec` digits after the point.
void fmt_e(std::string& out, const Digits& digs, int prec, char fmt) {
  const auto nd = static_cast<int>(digs.d.size());
  out += nd == 0 ? '0' : digs.d[0];
  if (prec > 0) {
    out += '.';
    for (int i = 1; i <= prec; ++i) out += i < nd ? digs.d[static_cast<size_t>(i)] : '0';
  }
  out += fmt;
  int exp = nd == 0 ? 0 : digs.dp - 1;
  out += exp < 0 ? '-' : '+';
  exp = std::abs(exp);
  if (exp < 10) out += '0';
  out += std::to_string(exp);
}

// %f: dddddd.ddddd, `prec` digits after the point.
void fmt_f(std::string& out, const Digits& digs, int prec) {
  const auto nd = static_cast<int>(digs.d.size());
  if (digs.dp > 0) {
    const int m = std::min(nd, digs.dp);
    out.append(digs.d, 0, static_cast<size_t>(m));
    out.append(static_cast<size_t>(digs.dp - m), '0');
  } else {
    out += '0';
  }
  if (prec > 0) {
    out += '.';
    for (int i = 1; i <= prec; ++i) {
      const int j = digs.dp + i - 1;
      out += j >= 0 && j < nd ? digs.d[static_cast<size_t>(j)] : '0';
    }
  }
}

}  // namespace

std::string format_float(double f, char fmt, int bit_size) {
  if (bit_size == 32) f = static_cast<float>(f);  // Go formats float32(f)
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  std::string out = std::signbit(f) ? "-" : "";
  const Digits digs = shortest(f, bit_size);
  const auto nd = static_cast<int>(digs.d.size());
  switch (fmt) {
    case 'e':
    case 'E':
      fmt_e(out, digs, nd - 1, fmt);
      return out;
    case 'f':
      fmt_f(out, digs, std::max(nd - digs.dp, 0));
      return out;
    case 'g':
    case 'G': {
      // The shortest precision decides %e or %f as precision 6 would.
      const int exp = digs.dp - 1;
      if (exp < -4 || exp >= 6) {
        fmt_e(out, digs, nd - 1, static_cast<char>(fmt + 'e' - 'g'));
      } else {
        fmt_f(out, digs, std::max(nd - digs.dp, 0));
      }
      return out;
    }
    default:
      return "%" + std::string(1, fmt);  // Go: '%' and the verb for an unknown format
  }
}

std::string json_float(double f) {
  const double a = std::fabs(f);
  const bool exponent = a != 0 && (a < 1e-6 || a >= 1e21);
  std::string s = format_float(f, exponent ? 'e' : 'f');
  const size_t n = s.size();
  if (exponent && n >= 4 && s[n - 4] == 'e' && s[n - 3] == '-' && s[n - 2] == '0') {
    s.erase(n - 2, 1);
  }
  return s;
}

}  // namespace hintkit::gocompat
