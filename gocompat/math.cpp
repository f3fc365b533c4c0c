// Go's math package (Go 1.19, amd64), operation for operation, so that every result has Go's
// bits: the routines Go writes in Go (sin, cos, tan with Payne-Hanek reduction, the inverse
// and hyperbolic functions, log1p, pow, gamma, frexp, ldexp, modf) and the three Go writes in
// amd64 assembly (Exp, Log, Hypot), whose instruction sequences differ from the Go versions.
// Exp takes its fused multiply-add path when the CPU has AVX and FMA, as Go's runtime decides.
//
// Built with -ffp-contract=off (gocompat/CMakeLists.txt): Go never fuses a*b+c on amd64 unless
// it says so, and neither may the compiler here.
#include <emmintrin.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "gocompat/gocompat.h"

namespace hintkit::gocompat::math {

namespace {

constexpr uint64_t kMask = 0x7FF;
constexpr int kShift = 52;
constexpr int kBias = 1023;
constexpr uint64_t kSignBit = uint64_t{1} << 63;
constexpr uint64_t kPosInfBits = 0x7FF0000000000000;

double from_bits(uint64_t b) { return std::bit_cast<double>(b); }
uint64_t bits_of(double x) { return std::bit_cast<uint64_t>(x); }

// Go's constant expressions, rounded once to float64 (as Go's compiler rounds them).
const double kPi = from_bits(0x400921fb54442d18);
const double kPi2 = from_bits(0x3ff921fb54442d18);         // Pi/2
const double kPi4 = from_bits(0x3fe921fb54442d18);         // Pi/4
const double k3Pi4 = from_bits(0x4002d97c7f3321d2);        // 3*Pi/4
const double kFourOverPi = from_bits(0x3ff45f306dc9c883);  // 4/Pi
const double kLn2 = from_bits(0x3fe62e42fefa39ef);         // math.Ln2

constexpr double kInf = std::numeric_limits<double>::infinity();
// math.NaN(): Float64frombits(0x7FF8000000000001).
double nan() { return from_bits(0x7FF8000000000001); }
bool is_nan(double x) { return x != x; }
bool is_inf(double x, int sign) {
  return (sign >= 0 && x > std::numeric_limits<double>::max()) ||
         (sign <= 0 && x < -std::numeric_limits<double>::max());
}
bool signbit(double x) { return (bits_of(x) & kSignBit) != 0; }
double abs(double x) { return from_bits(bits_of(x) & ~kSignBit); }
double copysign(double f, double sign) {
  return from_bits((bits_of(f) & ~kSignBit) | (bits_of(sign) & kSignBit));
}

// Go's float64 -> int64 conversion on amd64 (CVTTSD2SQ): out of range reads 1 << 63.
int64_t to_int64(double x) { return _mm_cvttsd_si64(_mm_set_sd(x)); }

// math.normalize: a subnormal scaled up into the normal range.
double normalize(double x, int& exp) {
  constexpr double kSmallestNormal = 2.2250738585072014e-308;
  exp = 0;
  if (abs(x) < kSmallestNormal) {
    exp = -52;
    return x * static_cast<double>(uint64_t{1} << 52);
  }
  return x;
}

// The 128-bit product of two 64-bit words (math/bits.Mul64), from 32-bit halves.
void mul64(uint64_t x, uint64_t y, uint64_t& hi, uint64_t& lo) {
  constexpr uint64_t kMask32 = (uint64_t{1} << 32) - 1;
  const uint64_t x0 = x & kMask32, x1 = x >> 32, y0 = y & kMask32, y1 = y >> 32;
  const uint64_t w0 = x0 * y0;
  const uint64_t t = x1 * y0 + (w0 >> 32);
  uint64_t w1 = t & kMask32;
  const uint64_t w2 = t >> 32;
  w1 += x0 * y1;
  hi = x1 * y1 + w2 + (w1 >> 32);
  lo = x * y;
}

// ---- trigonometric ----------------------------------------------------------------------

// Cody-Waite's three parts of Pi/4, for arguments below kReduceThreshold.
constexpr double kPi4A = 7.85398125648498535156e-1;
constexpr double kPi4B = 3.77489470793079817668e-8;
constexpr double kPi4C = 2.69515142907905952645e-15;
constexpr double kReduceThreshold = 1 << 29;

// 4/Pi's binary digits, for Payne-Hanek reduction of huge arguments (trig_reduce.go).
constexpr uint64_t kFourOverPiBits[] = {
    0x0000000000000001, 0x45f306dc9c882a53, 0xf84eafa3ea69bb81, 0xb6c52b3278872083,
    0xfca2c757bd778ac3, 0x6e48dc74849ba5c0, 0x0c925dd413a32439, 0xfc3bd63962534e7d,
    0xd1046bea5d768909, 0xd338e04d68befc82, 0x7323ac7306a673e9, 0x3908bf177bf25076,
    0x3ff12fffbc0b301f, 0xde5e2316b414da3e, 0xda6cfd9e4f96136e, 0x9e8c7ecd3cbfd45a,
    0xea4f758fd7cbe2f6, 0x7a0e73ef14a525d4, 0xd7f6bf623f1aba10, 0xac06608df8f6d757,
};

// x >= kReduceThreshold reduced to an octant `j` and a remainder in [0, Pi/4).
double trig_reduce(double x, uint64_t& j) {
  if (x < kPi4) {
    j = 0;
    return x;
  }
  uint64_t ix = bits_of(x);
  const int exp = static_cast<int>((ix >> kShift) & kMask) - kBias - kShift;
  ix &= ~(kMask << kShift);
  ix |= uint64_t{1} << kShift;
  const unsigned digit = static_cast<unsigned>(exp + 61) / 64;
  const unsigned bitshift = static_cast<unsigned>(exp + 61) % 64;
  // Go's shifts by 64 give 0, where C++'s are undefined.
  auto shl = [](uint64_t v, unsigned s) { return s >= 64 ? uint64_t{0} : v << s; };
  auto shr = [](uint64_t v, unsigned s) { return s >= 64 ? uint64_t{0} : v >> s; };
  const uint64_t* m = kFourOverPiBits;
  const uint64_t z0 = shl(m[digit], bitshift) | shr(m[digit + 1], 64 - bitshift);
  const uint64_t z1 = shl(m[digit + 1], bitshift) | shr(m[digit + 2], 64 - bitshift);
  const uint64_t z2 = shl(m[digit + 2], bitshift) | shr(m[digit + 3], 64 - bitshift);
  uint64_t z2hi, z2lo, z1hi, z1lo;
  mul64(z2, ix, z2hi, z2lo);
  mul64(z1, ix, z1hi, z1lo);
  const uint64_t z0lo = z0 * ix;
  const uint64_t lo = z1lo + z2hi;
  const uint64_t carry = lo < z1lo ? 1 : 0;
  uint64_t hi = z0lo + z1hi + carry;
  j = hi >> 61;
  hi = hi << 3 | lo >> 61;
  const unsigned lz = static_cast<unsigned>(std::countl_zero(hi));
  const uint64_t e = static_cast<uint64_t>(kBias - (lz + 1));
  hi = shl(hi, lz + 1) | shr(lo, 64 - (lz + 1));
  hi >>= 64 - kShift;
  hi |= e << kShift;
  double z = from_bits(hi);
  if ((j & 1) == 1) {
    ++j;
    j &= 7;
    z -= 1;
  }
  return z * kPi4;
}

// The octant and remainder of |x| (sin.go's shared start). tan.go keeps every bit of a small
// argument's octant (`wrap` false), where sin and cos take it modulo 8.
double octant(double x, uint64_t& j, bool wrap = true) {
  if (x >= kReduceThreshold) return trig_reduce(x, j);
  j = static_cast<uint64_t>(x * kFourOverPi);
  double y = static_cast<double>(j);
  if ((j & 1) == 1) {
    ++j;
    y += 1;
  }
  if (wrap) j &= 7;
  return ((x - y * kPi4A) - y * kPi4B) - y * kPi4C;
}

constexpr double kSin[] = {1.58962301576546568060e-10, -2.50507477628578072866e-8,
                           2.75573136213857245213e-6,  -1.98412698295895385996e-4,
                           8.33333333332211858878e-3,  -1.66666666666666307295e-1};
constexpr double kCos[] = {-1.13585365213876817300e-11, 2.08757008419747316778e-9,
                           -2.75573141792967388112e-7,  2.48015872888517045348e-5,
                           -1.38888888888730564116e-3,  4.16666666666665929218e-2};

double sin_poly(double z, double zz) {
  return z + z * zz *
                 (((((kSin[0] * zz + kSin[1]) * zz + kSin[2]) * zz + kSin[3]) * zz + kSin[4]) * zz +
                  kSin[5]);
}
double cos_poly(double zz) {
  return 1.0 - 0.5 * zz +
         zz * zz *
             (((((kCos[0] * zz + kCos[1]) * zz + kCos[2]) * zz + kCos[3]) * zz + kCos[4]) * zz +
              kCos[5]);
}

// ---- arctangent -------------------------------------------------------------------------

double xatan(double x) {
  constexpr double P0 = -8.750608600031904122785e-01, P1 = -1.615753718733365076637e+01,
                   P2 = -7.500855792314704667340e+01, P3 = -1.228866684490136173410e+02,
                   P4 = -6.485021904942025371773e+01, Q0 = +2.485846490142306297962e+01,
                   Q1 = +1.650270098316988542046e+02, Q2 = +4.328810604912902668951e+02,
                   Q3 = +4.853903996359136964868e+02, Q4 = +1.945506571482613964425e+02;
  double z = x * x;
  z = z * ((((P0 * z + P1) * z + P2) * z + P3) * z + P4) /
      (((((z + Q0) * z + Q1) * z + Q2) * z + Q3) * z + Q4);
  return x * z + x;
}

// Arctangent of x >= 0, reduced to [0, 0.66].
double satan(double x) {
  constexpr double kMorebits = 6.123233995736765886130e-17;  // Pi/2 = kPi2 + kMorebits
  constexpr double kTan3Pi8 = 2.41421356237309504880;
  if (x <= 0.66) return xatan(x);
  if (x > kTan3Pi8) return kPi2 - xatan(1 / x) + kMorebits;
  return kPi4 + xatan((x - 1) / (x + 1)) + 0.5 * kMorebits;
}

}  // namespace

// ---- exported: frexp, ldexp, modf -------------------------------------------------------

double frexp(double f, int& exp) {
  exp = 0;
  if (f == 0 || is_inf(f, 0) || is_nan(f)) return f;
  f = normalize(f, exp);
  uint64_t x = bits_of(f);
  exp += static_cast<int>((x >> kShift) & kMask) - kBias + 1;
  x &= ~(kMask << kShift);
  x |= static_cast<uint64_t>(-1 + kBias) << kShift;
  return from_bits(x);
}

double ldexp(double frac, int exp) {
  if (frac == 0 || is_inf(frac, 0) || is_nan(frac)) return frac;
  int e = 0;
  frac = normalize(frac, e);
  exp += e;
  uint64_t x = bits_of(frac);
  exp += static_cast<int>((x >> kShift) & kMask) - kBias;
  if (exp < -1075) return copysign(0, frac);
  if (exp > 1023) return frac < 0 ? -kInf : kInf;
  double m = 1;
  if (exp < -1022) {  // subnormal
    exp += 53;
    m = 1.0 / static_cast<double>(uint64_t{1} << 53);
  }
  x &= ~(kMask << kShift);
  x |= static_cast<uint64_t>(exp + kBias) << kShift;
  return m * from_bits(x);
}

double modf(double f, double& frac) {
  if (f < 1) {
    if (f < 0) {
      double i = modf(-f, frac);
      frac = -frac;
      return -i;
    }
    if (f == 0) {
      frac = f;
      return f;
    }
    frac = f;
    return 0;
  }
  uint64_t x = bits_of(f);
  const unsigned e = static_cast<unsigned>((x >> kShift) & kMask) - kBias;
  if (e < 64 - 12) x &= ~((uint64_t{1} << (64 - 12 - e)) - 1);
  const double i = from_bits(x);
  frac = f - i;
  return i;
}

// ---- exported: the assembly routines ----------------------------------------------------

double exp(double x) {
  constexpr double kLog2e = 1.4426950408889634073599246810018920;
  constexpr double kLn2U = 0.69314718055966295651160180568695068359375;
  constexpr double kLn2L = 0.28235290563031577122588448175013436025525412068e-12;
  constexpr double kOverflow = 7.09782712893384e+02;
  constexpr double kTaylor[] = {0.5,
                                1.0,
                                2.0,
                                1.6666666666666666667e-1,
                                4.1666666666666666667e-2,
                                8.3333333333333333333e-3,
                                1.3888888888888888889e-3,
                                1.9841269841269841270e-4,
                                2.4801587301587301587e-5};
  static const bool use_fma = __builtin_cpu_supports("avx") && __builtin_cpu_supports("fma");
  const uint64_t b = bits_of(x);
  if ((b & ~kSignBit) >= kPosInfBits) {     // not finite
    if (b == 0xFFF0000000000000) return 0;  // -Inf
    return x;                               // NaN or +Inf
  }
  if (x > kOverflow) return kInf;
  // CVTSD2SL: rounded to the nearest int32 (the indefinite 1 << 31 out of range).
  int32_t k = _mm_cvtsd_si32(_mm_set_sd(kLog2e * x));
  const double kd = static_cast<double>(k);
  double x0, x1;
  if (use_fma) {
    x0 = std::fma(-kLn2U, kd, x);
    x0 = std::fma(-kLn2L, kd, x0);
    x0 *= 0.0625;
    x1 = kTaylor[8];
    for (int i : {7, 6, 5, 4, 3, 0, 1}) x1 = std::fma(x1, x0, kTaylor[i]);
    x0 *= x1;
    for (int i = 0; i < 3; ++i) {
      x1 = x0 + 2.0;
      x0 *= x1;
    }
    x1 = x0 + 2.0;
    x0 = std::fma(x0, x1, 1.0);
  } else {
    x0 = x - kLn2U * kd;
    x0 = x0 - kLn2L * kd;
    x0 *= 0.0625;
    x1 = kTaylor[8];
    for (int i : {7, 6, 5, 4, 3, 0, 1}) x1 = x1 * x0 + kTaylor[i];
    x0 *= x1;
    for (int i = 0; i < 4; ++i) {
      x1 = 2.0 + x0;
      x0 *= x1;
    }
    x0 += 1.0;
  }
  // fr * 2**k, the exponent biased in a 32-bit register.
  k = static_cast<int32_t>(static_cast<uint32_t>(k) + 0x3FF);
  if (k <= 0) {  // denormal
    if (k < -52) return 0;
    k += 0x3FE;
    x0 *= from_bits(static_cast<uint64_t>(static_cast<uint32_t>(k)) << 52);
    k = 1;
  } else if (k >= 0x7FF) {
    return kInf;
  }
  return x0 * from_bits(static_cast<uint64_t>(static_cast<uint32_t>(k)) << 52);
}

double log(double x) {
  constexpr double kHalfSqrt2 = 7.07106781186547524401e-01;
  constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
  constexpr double L1 = 6.666666666666735130e-01, L2 = 3.999999999940941908e-01,
                   L3 = 2.857142874366239149e-01, L4 = 2.222219843214978396e-01,
                   L5 = 1.818357216161805012e-01, L6 = 1.531383769920937332e-01,
                   L7 = 1.479819860511658591e-01;
  const uint64_t b = bits_of(x);
  if ((b & ~kSignBit) == 0) return -kInf;
  if (static_cast<int64_t>(b) < 0) return nan();
  if (b >= kPosInfBits) return x;  // +Inf or NaN
  // The fraction in [0.5, 1) and the exponent, from the bits alone (a subnormal is not
  // normalized first, unlike math.Frexp).
  double f1 = from_bits((b & 0x000FFFFFFFFFFFFF) | 0x3FE0000000000000);
  double k = static_cast<double>(static_cast<int32_t>(((b >> 52) & 0x7FF) - 0x3FE));
  // CMPSD's not-less-than: halves below or at Sqrt2/2 are doubled.
  const double doubled = !(kHalfSqrt2 < f1) ? 1.0 : 0.0;
  k -= doubled;
  f1 *= doubled + 1.0;
  const double f = f1 - 1.0;
  const double s = f / (2.0 + f);
  const double s2 = s * s;
  const double s4 = s2 * s2;
  const double t1 = s2 * (((L7 * s4 + L5) * s4 + L3) * s4 + L1);
  const double t2 = s4 * ((L6 * s4 + L4) * s4 + L2);
  const double r = t1 + t2;
  const double hfsq = 0.5 * f * f;
  return k * kLn2Hi - ((hfsq - (s * (hfsq + r) + k * kLn2Lo)) - f);
}

double hypot(double p, double q) {
  const uint64_t bp = bits_of(p) & ~kSignBit, bq = bits_of(q) & ~kSignBit;
  if (bp >= kPosInfBits || bq >= kPosInfBits) {
    return bp == kPosInfBits || bq == kPosInfBits ? kInf : nan();
  }
  if ((bp | bq) == 0) return 0;
  const double ap = from_bits(bp), aq = from_bits(bq);
  const double big = ap > aq ? ap : aq;  // MAXSD, MINSD
  const double small = ap < aq ? ap : aq;
  double r = small / big;
  r = r * r + 1.0;
  return std::sqrt(r) * big;
}

// ---- exported: the Go routines ----------------------------------------------------------

double sin(double x) {
  if (x == 0 || is_nan(x)) return x;
  if (is_inf(x, 0)) return nan();
  bool sign = false;
  if (x < 0) {
    x = -x;
    sign = true;
  }
  uint64_t j;
  const double z = octant(x, j);
  if (j > 3) {
    sign = !sign;
    j -= 4;
  }
  const double zz = z * z;
  const double y = j == 1 || j == 2 ? cos_poly(zz) : sin_poly(z, zz);
  return sign ? -y : y;
}

double cos(double x) {
  if (is_nan(x) || is_inf(x, 0)) return nan();
  bool sign = false;
  x = abs(x);
  uint64_t j;
  const double z = octant(x, j);
  if (j > 3) {
    j -= 4;
    sign = !sign;
  }
  if (j > 1) sign = !sign;
  const double zz = z * z;
  const double y = j == 1 || j == 2 ? sin_poly(z, zz) : cos_poly(zz);
  return sign ? -y : y;
}

double tan(double x) {
  constexpr double P[] = {-1.30936939181383777646e4, 1.15351664838587416140e6,
                          -1.79565251976484877988e7};
  constexpr double Q[] = {1.00000000000000000000e0, 1.36812963470692954678e4,
                          -1.32089234440210967447e6, 2.50083801823357915839e7,
                          -5.38695755929454629881e7};
  if (x == 0 || is_nan(x)) return x;
  if (is_inf(x, 0)) return nan();
  bool sign = false;
  if (x < 0) {
    x = -x;
    sign = true;
  }
  uint64_t j;
  const double z = octant(x, j, false);
  const double zz = z * z;
  double y = z;
  if (zz > 1e-14) {
    y = z + z * (zz * ((P[0] * zz + P[1]) * zz + P[2]) /
                 ((((zz + Q[1]) * zz + Q[2]) * zz + Q[3]) * zz + Q[4]));
  }
  if ((j & 2) == 2) y = -1 / y;
  return sign ? -y : y;
}

double asin(double x) {
  if (x == 0) return x;
  bool sign = false;
  if (x < 0) {
    x = -x;
    sign = true;
  }
  if (x > 1) return nan();
  double temp = std::sqrt(1 - x * x);
  temp = x > 0.7 ? kPi2 - satan(temp / x) : satan(x / temp);
  return sign ? -temp : temp;
}

double acos(double x) { return kPi2 - asin(x); }

double atan(double x) {
  if (x == 0) return x;
  return x > 0 ? satan(x) : -satan(-x);
}

double atan2(double y, double x) {
  if (is_nan(y) || is_nan(x)) return nan();
  if (y == 0) return x >= 0 && !signbit(x) ? copysign(0, y) : copysign(kPi, y);
  if (x == 0) return copysign(kPi2, y);
  if (is_inf(x, 0)) {
    if (is_inf(x, 1)) return is_inf(y, 0) ? copysign(kPi4, y) : copysign(0, y);
    return is_inf(y, 0) ? copysign(k3Pi4, y) : copysign(kPi, y);
  }
  if (is_inf(y, 0)) return copysign(kPi2, y);
  const double q = atan(y / x);
  if (x < 0) return q <= 0 ? q + kPi : q - kPi;
  return q;
}

double sinh(double x) {
  constexpr double P0 = -0.6307673640497716991184787251e+6, P1 = -0.8991272022039509355398013511e+5,
                   P2 = -0.2894211355989563807284660366e+4, P3 = -0.2630563213397497062819489e+2,
                   Q0 = -0.6307673640497716991212077277e+6, Q1 = 0.1521517378790019070696485176e+5,
                   Q2 = -0.173678953558233699533450911e+3;
  bool sign = false;
  if (x < 0) {
    x = -x;
    sign = true;
  }
  double temp;
  if (x > 21) {
    temp = exp(x) * 0.5;
  } else if (x > 0.5) {
    const double ex = exp(x);
    temp = (ex - 1 / ex) * 0.5;
  } else {
    const double sq = x * x;
    temp = (((P3 * sq + P2) * sq + P1) * sq + P0) * x;
    temp = temp / (((sq + Q2) * sq + Q1) * sq + Q0);
  }
  return sign ? -temp : temp;
}

double cosh(double x) {
  x = abs(x);
  if (x > 21) return exp(x) * 0.5;
  const double ex = exp(x);
  return (ex + 1 / ex) * 0.5;
}

double tanh(double x) {
  constexpr double P[] = {-9.64399179425052238628e-1, -9.92877231001918586564e1,
                          -1.61468768441708447952e3};
  constexpr double Q[] = {1.12811678491632931402e2, 2.23548839060100448583e3,
                          4.84406305325125486048e3};
  constexpr double kMaxLog = 8.8029691931113054295988e+01;  // log(2**127)
  double z = abs(x);
  if (z > 0.5 * kMaxLog) return x < 0 ? -1 : 1;
  if (z >= 0.625) {
    const double s = exp(2 * z);
    z = 1 - 2 / (s + 1);
    return x < 0 ? -z : z;
  }
  if (x == 0) return x;
  const double s = x * x;
  return x + x * s * ((P[0] * s + P[1]) * s + P[2]) / (((s + Q[0]) * s + Q[1]) * s + Q[2]);
}

double log1p(double x) {
  constexpr double kSqrt2M1 = 4.142135623730950488017e-01;
  constexpr double kSqrt2HalfM1 = -2.928932188134524755992e-01;
  constexpr double kSmall = 1.0 / (1 << 29), kTiny = 1.0 / static_cast<double>(uint64_t{1} << 54);
  constexpr double kTwo53 = static_cast<double>(uint64_t{1} << 53);
  constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
  constexpr double Lp1 = 6.666666666666735130e-01, Lp2 = 3.999999999940941908e-01,
                   Lp3 = 2.857142874366239149e-01, Lp4 = 2.222219843214978396e-01,
                   Lp5 = 1.818357216161805012e-01, Lp6 = 1.531383769920937332e-01,
                   Lp7 = 1.479819860511658591e-01;
  if (x < -1 || is_nan(x)) return nan();
  if (x == -1) return -kInf;
  if (is_inf(x, 1)) return kInf;
  const double absx = abs(x);
  double f = 0;
  uint64_t iu = 0;
  int k = 1;
  if (absx < kSqrt2M1) {
    if (absx < kSmall) {
      if (absx < kTiny) return x;
      return x - x * x * 0.5;
    }
    if (x > kSqrt2HalfM1) {
      k = 0;
      f = x;
      iu = 1;
    }
  }
  double c = 0;
  if (k != 0) {
    double u;
    if (absx < kTwo53) {
      u = 1.0 + x;
      iu = bits_of(u);
      k = static_cast<int>((iu >> 52) - 1023);
      c = k > 0 ? 1.0 - (u - x) : x - (u - 1.0);
      c /= u;
    } else {
      u = x;
      iu = bits_of(u);
      k = static_cast<int>((iu >> 52) - 1023);
      c = 0;
    }
    iu &= 0x000fffffffffffff;
    if (iu < 0x0006a09e667f3bcd) {
      u = from_bits(iu | 0x3ff0000000000000);
    } else {
      ++k;
      u = from_bits(iu | 0x3fe0000000000000);
      iu = (0x0010000000000000 - iu) >> 2;
    }
    f = u - 1.0;
  }
  const double hfsq = 0.5 * f * f;
  const double kd = static_cast<double>(k);
  if (iu == 0) {
    if (f == 0) {
      if (k == 0) return 0;
      c += kd * kLn2Lo;
      return kd * kLn2Hi + c;
    }
    const double r = hfsq * (1.0 - 0.66666666666666666 * f);
    if (k == 0) return f - r;
    return kd * kLn2Hi - ((r - (kd * kLn2Lo + c)) - f);
  }
  const double s = f / (2.0 + f);
  const double z = s * s;
  const double r = z * (Lp1 + z * (Lp2 + z * (Lp3 + z * (Lp4 + z * (Lp5 + z * (Lp6 + z * Lp7))))));
  if (k == 0) return f - (hfsq - s * (hfsq + r));
  return kd * kLn2Hi - ((hfsq - (s * (hfsq + r) + (kd * kLn2Lo + c))) - f);
}

double asinh(double x) {
  constexpr double kLn2Local = 6.93147180559945286227e-01;
  constexpr double kNearZero = 1.0 / (1 << 28), kLarge = 1 << 28;
  if (is_nan(x) || is_inf(x, 0)) return x;
  bool sign = false;
  if (x < 0) {
    x = -x;
    sign = true;
  }
  double temp;
  if (x > kLarge) {
    temp = log(x) + kLn2Local;
  } else if (x > 2) {
    temp = log(2 * x + 1 / (std::sqrt(x * x + 1) + x));
  } else if (x < kNearZero) {
    temp = x;
  } else {
    temp = log1p(x + x * x / (1 + std::sqrt(1 + x * x)));
  }
  return sign ? -temp : temp;
}

double acosh(double x) {
  constexpr double kLarge = 1 << 28;
  if (x < 1 || is_nan(x)) return nan();
  if (x == 1) return 0;
  if (x >= kLarge) return log(x) + kLn2;
  if (x > 2) return log(2 * x - 1 / (x + std::sqrt(x * x - 1)));
  const double t = x - 1;
  return log1p(t + std::sqrt(2 * t + t * t));
}

double atanh(double x) {
  constexpr double kNearZero = 1.0 / (1 << 28);
  if (x < -1 || x > 1 || is_nan(x)) return nan();
  if (x == 1) return kInf;
  if (x == -1) return -kInf;
  bool sign = false;
  if (x < 0) {
    x = -x;
    sign = true;
  }
  double temp;
  if (x < kNearZero) {
    temp = x;
  } else if (x < 0.5) {
    temp = x + x;
    temp = 0.5 * log1p(temp + temp * x / (1 - x));
  } else {
    temp = 0.5 * log1p((x + x) / (1 - x));
  }
  return sign ? -temp : temp;
}

namespace {

bool is_odd_int(double x) {
  double frac;
  const double xi = modf(x, frac);
  return frac == 0 && (to_int64(xi) & 1) == 1;
}

}  // namespace

double pow(double x, double y) {
  if (y == 0 || x == 1) return 1;
  if (y == 1) return x;
  if (is_nan(x) || is_nan(y)) return nan();
  if (x == 0) {
    if (y < 0) return is_odd_int(y) ? copysign(kInf, x) : kInf;
    if (y > 0) return is_odd_int(y) ? x : 0;
  }
  if (is_inf(y, 0)) {
    if (x == -1) return 1;
    if ((abs(x) < 1) == is_inf(y, 1)) return 0;
    return kInf;
  }
  if (is_inf(x, 0)) {
    if (is_inf(x, -1)) return pow(1 / x, -y);  // pow(-0, -y)
    if (y < 0) return 0;
    if (y > 0) return kInf;
  }
  if (y == 0.5) return std::sqrt(x);
  if (y == -0.5) return 1 / std::sqrt(x);
  double yf;
  double yi = modf(abs(y), yf);
  if (yf != 0 && x < 0) return nan();
  if (yi >= 9223372036854775808.0) {  // 1 << 63
    if (x == -1) return 1;
    if ((abs(x) < 1) == (y > 0)) return 0;
    return kInf;
  }
  // ans = a1 * 2**ae
  double a1 = 1.0;
  int ae = 0;
  if (yf != 0) {
    if (yf > 0.5) {
      yf -= 1;
      yi += 1;
    }
    a1 = exp(yf * log(x));
  }
  int xe;
  double x1 = frexp(x, xe);
  for (int64_t i = to_int64(yi); i != 0; i >>= 1) {
    if (xe < -(1 << 12) || (1 << 12) < xe) {
      // The exponent is beyond ldexp's reach (and keeps growing): only the overflow or
      // underflow is left to compute.
      ae += xe;
      break;
    }
    if ((i & 1) == 1) {
      a1 *= x1;
      ae += xe;
    }
    x1 *= x1;
    xe <<= 1;
    if (x1 < .5) {
      x1 += x1;
      --xe;
    }
  }
  if (y < 0) {
    a1 = 1 / a1;
    ae = -ae;
  }
  return ldexp(a1, ae);
}

namespace {

constexpr double kGamP[] = {1.60119522476751861407e-04, 1.19135147006586384913e-03,
                            1.04213797561761569935e-02, 4.76367800457137231464e-02,
                            2.07448227648435975150e-01, 4.94214826801497100753e-01,
                            9.99999999999999996796e-01};
constexpr double kGamQ[] = {-2.31581873324120129819e-05, 5.39605580493303397842e-04,
                            -4.45641913851797240494e-03, 1.18139785222060435552e-02,
                            3.58236398605498653373e-02,  -2.34591795718243348568e-01,
                            7.14304917030273074085e-02,  1.00000000000000000320e+00};
constexpr double kGamS[] = {7.87311395793093628397e-04, -2.29549961613378126380e-04,
                            -2.68132617805781232825e-03, 3.47222221605458667310e-03,
                            8.33333333333482257126e-02};

// Gamma(x) for x > 33 by Stirling's formula, as two factors (their product may overflow
// where Gamma's quotient for negative x does not).
void stirling(double x, double& y1, double& y2) {
  if (x > 200) {
    y1 = kInf;
    y2 = 1;
    return;
  }
  constexpr double kSqrtTwoPi = 2.506628274631000502417;
  constexpr double kMaxStirling = 143.01608;
  double w = 1 / x;
  w = 1 + w * ((((kGamS[0] * w + kGamS[1]) * w + kGamS[2]) * w + kGamS[3]) * w + kGamS[4]);
  y1 = exp(x);
  y2 = 1.0;
  if (x > kMaxStirling) {  // avoid Pow() overflow
    const double v = pow(x, 0.5 * x - 0.25);
    y2 = v / y1;
    y1 = v;
  } else {
    y1 = pow(x, x - 0.5) / y1;
  }
  y2 = kSqrtTwoPi * w * y2;
}

bool is_neg_int(double x) {
  if (x < 0) {
    double frac;
    (void)modf(x, frac);
    return frac == 0;
  }
  return false;
}

}  // namespace

double gamma(double x) {
  constexpr double kEuler = 0.57721566490153286060651209008240243104215933593992;
  if (is_neg_int(x) || is_inf(x, -1) || is_nan(x)) return nan();
  if (is_inf(x, 1)) return kInf;
  if (x == 0) return signbit(x) ? -kInf : kInf;
  double q = abs(x);
  double p = std::floor(q);
  if (q > 33) {
    if (x >= 0) {
      double y1, y2;
      stirling(x, y1, y2);
      return y1 * y2;
    }
    // Reflection: Gamma(-q) = -Pi / (q * sin(Pi*q) * Gamma(q)).
    int signgam = 1;
    if ((to_int64(p) & 1) == 0) signgam = -1;
    double z = q - p;
    if (z > 0.5) {
      p = p + 1;
      z = q - p;
    }
    z = q * sin(kPi * z);
    if (z == 0) return signgam >= 0 ? kInf : -kInf;
    double sq1, sq2;
    stirling(q, sq1, sq2);
    const double absz = abs(z);
    const double d = absz * sq1 * sq2;
    if (is_inf(d, 0)) {
      z = kPi / absz / sq1 / sq2;
    } else {
      z = kPi / d;
    }
    return static_cast<double>(signgam) * z;
  }
  // Reduce the argument into [2, 3).
  double z = 1.0;
  while (x >= 3) {
    x = x - 1;
    z = z * x;
  }
  auto small = [&]() {
    if (x == 0) return kInf;
    return z / ((1 + kEuler * x) * x);
  };
  while (x < 0) {
    if (x > -1e-09) return small();
    z = z / x;
    x = x + 1;
  }
  while (x < 2) {
    if (x < 1e-09) return small();
    z = z / x;
    x = x + 1;
  }
  if (x == 2) return z;
  x = x - 2;
  p = (((((x * kGamP[0] + kGamP[1]) * x + kGamP[2]) * x + kGamP[3]) * x + kGamP[4]) * x +
       kGamP[5]) *
          x +
      kGamP[6];
  q = ((((((x * kGamQ[0] + kGamQ[1]) * x + kGamQ[2]) * x + kGamQ[3]) * x + kGamQ[4]) * x +
        kGamQ[5]) *
           x +
       kGamQ[6]) *
          x +
      kGamQ[7];
  return z * p / q;
}

}  // namespace hintkit::gocompat::math
