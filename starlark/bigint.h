// Arbitrary-precision integers for Starlark's int once a value leaves the int64 fast path.
// Sign-magnitude with 32-bit limbs; floor division and two's-complement bitwise semantics as
// Python/Starlark define them. Internal to starlark/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hintkit::starlark {

class BigInt {
 public:
  BigInt() = default;
  explicit BigInt(int64_t v);

  // Digits in `base` (2..36), optional leading '-'; no prefix, no underscores.
  static std::optional<BigInt> parse(std::string_view digits, int base);

  bool is_zero() const { return mag_.empty(); }
  bool negative() const { return neg_; }
  std::optional<int64_t> to_int64() const;
  double to_double() const;
  std::string to_string(int base = 10) const;
  size_t bit_length() const;
  // Lowest 32 bits of the magnitude, for hashing.
  uint32_t low_word() const { return mag_.empty() ? 0 : mag_[0]; }

  friend BigInt operator+(const BigInt& a, const BigInt& b);
  friend BigInt operator-(const BigInt& a, const BigInt& b);
  friend BigInt operator*(const BigInt& a, const BigInt& b);
  BigInt operator-() const;
  // Floor division and modulo; `b` must be non-zero.
  static void floor_divmod(const BigInt& a, const BigInt& b, BigInt* q, BigInt* r);
  friend BigInt operator&(const BigInt& a, const BigInt& b);
  friend BigInt operator|(const BigInt& a, const BigInt& b);
  friend BigInt operator^(const BigInt& a, const BigInt& b);
  BigInt operator~() const;
  BigInt shl(uint64_t n) const;
  BigInt shr(uint64_t n) const;  // arithmetic (floor) shift
  static int compare(const BigInt& a, const BigInt& b);

 private:
  using Mag = std::vector<uint32_t>;
  static int cmp_mag(const Mag& a, const Mag& b);
  static Mag add_mag(const Mag& a, const Mag& b);
  static Mag sub_mag(const Mag& a, const Mag& b);  // |a| >= |b|
  static void divmod_mag(const Mag& a, const Mag& b, Mag* q, Mag* r);
  static void trim(Mag& m);
  // Two's complement in `words` limbs.
  Mag twos(size_t words) const;
  static BigInt from_twos(Mag m);
  template <typename Op>
  static BigInt bitwise(const BigInt& a, const BigInt& b, Op op);

  bool neg_ = false;
  Mag mag_;  // little-endian limbs, no leading zeros; empty means zero
};

}  // namespace hintkit::starlark
