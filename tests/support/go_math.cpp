// Go's math functions as gocompat computes them, for scripts/diff_gomath.py: each line of
// standard input is a function's name and its arguments as float64 bits in hex; each line of
// output the result's bits in hex (frexp: the fraction's bits and the exponent; modf: both
// parts' bits).
#include <bit>
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "gocompat/gocompat.h"

namespace m = hintkit::gocompat::math;

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string fn;
    uint64_t a = 0, b = 0;
    in >> fn >> std::hex >> a >> b;
    const double x = std::bit_cast<double>(a), y = std::bit_cast<double>(b);
    double r = 0;
    if (fn == "frexp") {
      int e;
      r = m::frexp(x, e);
      std::printf("%016" PRIx64 " %d\n", std::bit_cast<uint64_t>(r), e);
      continue;
    }
    if (fn == "modf") {
      double frac;
      r = m::modf(x, frac);
      std::printf("%016" PRIx64 " %016" PRIx64 "\n", std::bit_cast<uint64_t>(r),
                  std::bit_cast<uint64_t>(frac));
      continue;
    }
    if (fn == "sin")
      r = m::sin(x);
    else if (fn == "cos")
      r = m::cos(x);
    else if (fn == "tan")
      r = m::tan(x);
    else if (fn == "asin")
      r = m::asin(x);
    else if (fn == "acos")
      r = m::acos(x);
    else if (fn == "atan")
      r = m::atan(x);
    else if (fn == "atan2")
      r = m::atan2(x, y);
    else if (fn == "sinh")
      r = m::sinh(x);
    else if (fn == "cosh")
      r = m::cosh(x);
    else if (fn == "tanh")
      r = m::tanh(x);
    else if (fn == "asinh")
      r = m::asinh(x);
    else if (fn == "acosh")
      r = m::acosh(x);
    else if (fn == "atanh")
      r = m::atanh(x);
    else if (fn == "exp")
      r = m::exp(x);
    else if (fn == "log")
      r = m::log(x);
    else if (fn == "log1p")
      r = m::log1p(x);
    else if (fn == "pow")
      r = m::pow(x, y);
    else if (fn == "hypot")
      r = m::hypot(x, y);
    else if (fn == "gamma")
      r = m::gamma(x);
    else if (fn == "ldexp")
      r = m::ldexp(x, static_cast<int>(static_cast<int64_t>(b)));
    else {
      std::fprintf(stderr, "unknown function %s\n", fn.c_str());
      return 2;
    }
    std::printf("%016" PRIx64 "\n", std::bit_cast<uint64_t>(r));
  }
  return 0;
}
