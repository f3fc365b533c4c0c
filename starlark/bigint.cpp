#include "starlark/bigint.h"

#include <algorithm>
#include <cmath>

namespace hintkit::starlark {

BigInt::BigInt(int64_t v) {
  neg_ = v < 0;
  uint64_t m = neg_ ? ~static_cast<uint64_t>(v) + 1 : static_cast<uint64_t>(v);
  while (m != 0) {
    mag_.push_back(static_cast<uint32_t>(m));
    m >>= 32;
  }
}

void BigInt::trim(Mag& m) {
  while (!m.empty() && m.back() == 0) m.pop_back();
}

std::optional<BigInt> BigInt::parse(std::string_view digits, int base) {
  BigInt r;
  bool neg = false;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    neg = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty()) return std::nullopt;
  for (char c : digits) {
    int d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (c >= 'a' && c <= 'z') {
      d = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'Z') {
      d = c - 'A' + 10;
    } else {
      return std::nullopt;
    }
    if (d >= base) return std::nullopt;
    uint64_t carry = static_cast<uint64_t>(d);
    for (auto& limb : r.mag_) {
      uint64_t t = static_cast<uint64_t>(limb) * static_cast<uint64_t>(base) + carry;
      limb = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
    if (carry != 0) r.mag_.push_back(static_cast<uint32_t>(carry));
  }
  trim(r.mag_);
  r.neg_ = neg && !r.mag_.empty();
  return r;
}

std::optional<int64_t> BigInt::to_int64() const {
  if (mag_.size() > 2) return std::nullopt;
  uint64_t m = 0;
  for (size_t i = mag_.size(); i-- > 0;) m = (m << 32) | mag_[i];
  if (neg_) {
    if (m > (uint64_t{1} << 63)) return std::nullopt;
    return static_cast<int64_t>(~m + 1);
  }
  if (m > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  return static_cast<int64_t>(m);
}

double BigInt::to_double() const {
  double d = 0;
  for (size_t i = mag_.size(); i-- > 0;) d = d * 4294967296.0 + mag_[i];
  return neg_ ? -d : d;
}

size_t BigInt::bit_length() const {
  if (mag_.empty()) return 0;
  size_t bits = (mag_.size() - 1) * 32;
  uint32_t top = mag_.back();
  while (top != 0) {
    ++bits;
    top >>= 1;
  }
  return bits;
}

std::string BigInt::to_string(int base) const {
  if (mag_.empty()) return "0";
  Mag m = mag_;
  std::string out;
  static constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  while (!m.empty()) {
    uint64_t rem = 0;
    for (size_t i = m.size(); i-- > 0;) {
      uint64_t cur = (rem << 32) | m[i];
      m[i] = static_cast<uint32_t>(cur / static_cast<uint64_t>(base));
      rem = cur % static_cast<uint64_t>(base);
    }
    out.push_back(kDigits[rem]);
    trim(m);
  }
  if (neg_) out.push_back('-');
  std::reverse(out.begin(), out.end());
  return out;
}

int BigInt::cmp_mag(const Mag& a, const Mag& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

BigInt::Mag BigInt::add_mag(const Mag& a, const Mag& b) {
  const Mag& x = a.size() >= b.size() ? a : b;
  const Mag& y = a.size() >= b.size() ? b : a;
  Mag r(x.size() + 1);
  uint64_t carry = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    uint64_t t = static_cast<uint64_t>(x[i]) + (i < y.size() ? y[i] : 0) + carry;
    r[i] = static_cast<uint32_t>(t);
    carry = t >> 32;
  }
  r[x.size()] = static_cast<uint32_t>(carry);
  trim(r);
  return r;
}

BigInt::Mag BigInt::sub_mag(const Mag& a, const Mag& b) {
  Mag r(a.size());
  int64_t borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    int64_t t = static_cast<int64_t>(a[i]) - (i < b.size() ? b[i] : 0) - borrow;
    borrow = t < 0 ? 1 : 0;
    r[i] = static_cast<uint32_t>(t + (borrow << 32));
  }
  trim(r);
  return r;
}

int BigInt::compare(const BigInt& a, const BigInt& b) {
  if (a.neg_ != b.neg_) return a.neg_ ? -1 : 1;
  int c = cmp_mag(a.mag_, b.mag_);
  return a.neg_ ? -c : c;
}

BigInt operator+(const BigInt& a, const BigInt& b) {
  BigInt r;
  if (a.neg_ == b.neg_) {
    r.mag_ = BigInt::add_mag(a.mag_, b.mag_);
    r.neg_ = a.neg_;
  } else if (BigInt::cmp_mag(a.mag_, b.mag_) >= 0) {
    r.mag_ = BigInt::sub_mag(a.mag_, b.mag_);
    r.neg_ = a.neg_;
  } else {
    r.mag_ = BigInt::sub_mag(b.mag_, a.mag_);
    r.neg_ = b.neg_;
  }
  if (r.mag_.empty()) r.neg_ = false;
  return r;
}

BigInt BigInt::operator-() const {
  BigInt r = *this;
  if (!r.mag_.empty()) r.neg_ = !r.neg_;
  return r;
}

BigInt operator-(const BigInt& a, const BigInt& b) { return a + (-b); }

BigInt operator*(const BigInt& a, const BigInt& b) {
  BigInt r;
  if (a.mag_.empty() || b.mag_.empty()) return r;
  r.mag_.assign(a.mag_.size() + b.mag_.size(), 0);
  for (size_t i = 0; i < a.mag_.size(); ++i) {
    uint64_t carry = 0;
    for (size_t j = 0; j < b.mag_.size(); ++j) {
      uint64_t t = static_cast<uint64_t>(a.mag_[i]) * b.mag_[j] + r.mag_[i + j] + carry;
      r.mag_[i + j] = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
    r.mag_[i + b.mag_.size()] = static_cast<uint32_t>(carry);
  }
  BigInt::trim(r.mag_);
  r.neg_ = a.neg_ != b.neg_;
  return r;
}

// Schoolbook long division, bit by bit over the limbs of `a` (sizes here are small).
void BigInt::divmod_mag(const Mag& a, const Mag& b, Mag* q, Mag* r) {
  q->assign(a.size(), 0);
  r->clear();
  if (b.size() == 1) {
    uint64_t rem = 0;
    for (size_t i = a.size(); i-- > 0;) {
      uint64_t cur = (rem << 32) | a[i];
      (*q)[i] = static_cast<uint32_t>(cur / b[0]);
      rem = cur % b[0];
    }
    if (rem != 0) r->push_back(static_cast<uint32_t>(rem));
    trim(*q);
    return;
  }
  Mag rem;
  for (size_t i = a.size(); i-- > 0;) {
    for (int bit = 31; bit >= 0; --bit) {
      // rem = rem * 2 + bit
      uint32_t carry = (a[i] >> bit) & 1;
      for (auto& limb : rem) {
        uint32_t next = limb >> 31;
        limb = (limb << 1) | carry;
        carry = next;
      }
      if (carry != 0) rem.push_back(carry);
      if (cmp_mag(rem, b) >= 0) {
        rem = sub_mag(rem, b);
        (*q)[i] |= uint32_t{1} << bit;
      }
    }
  }
  trim(*q);
  *r = rem;
}

void BigInt::floor_divmod(const BigInt& a, const BigInt& b, BigInt* q, BigInt* r) {
  BigInt qq, rr;
  divmod_mag(a.mag_, b.mag_, &qq.mag_, &rr.mag_);
  qq.neg_ = !qq.mag_.empty() && (a.neg_ != b.neg_);
  rr.neg_ = !rr.mag_.empty() && a.neg_;
  // Truncated -> floored: adjust when the remainder's sign differs from the divisor's.
  if (!rr.mag_.empty() && rr.neg_ != b.neg_) {
    qq = qq - BigInt(1);
    rr = rr + b;
  }
  if (q) *q = std::move(qq);
  if (r) *r = std::move(rr);
}

BigInt::Mag BigInt::twos(size_t words) const {
  Mag m = mag_;
  m.resize(words, 0);
  if (neg_) {
    uint64_t carry = 1;
    for (auto& limb : m) {
      uint64_t t = static_cast<uint64_t>(static_cast<uint32_t>(~limb)) + carry;
      limb = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
  }
  return m;
}

BigInt BigInt::from_twos(Mag m) {
  BigInt r;
  bool neg = !m.empty() && (m.back() >> 31) != 0;
  if (neg) {
    uint64_t carry = 1;
    for (auto& limb : m) {
      uint64_t t = static_cast<uint64_t>(static_cast<uint32_t>(~limb)) + carry;
      limb = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
  }
  trim(m);
  r.mag_ = std::move(m);
  r.neg_ = neg && !r.mag_.empty();
  return r;
}

template <typename Op>
BigInt BigInt::bitwise(const BigInt& a, const BigInt& b, Op op) {
  size_t words = std::max(a.mag_.size(), b.mag_.size()) + 1;
  Mag x = a.twos(words), y = b.twos(words);
  for (size_t i = 0; i < words; ++i) x[i] = op(x[i], y[i]);
  return from_twos(std::move(x));
}

BigInt operator&(const BigInt& a, const BigInt& b) {
  return BigInt::bitwise(a, b, [](uint32_t x, uint32_t y) { return x & y; });
}
BigInt operator|(const BigInt& a, const BigInt& b) {
  return BigInt::bitwise(a, b, [](uint32_t x, uint32_t y) { return x | y; });
}
BigInt operator^(const BigInt& a, const BigInt& b) {
  return BigInt::bitwise(a, b, [](uint32_t x, uint32_t y) { return x ^ y; });
}
BigInt BigInt::operator~() const { return -*this - BigInt(1); }

BigInt BigInt::shl(uint64_t n) const {
  if (mag_.empty()) return *this;
  BigInt r;
  size_t words = n / 32, bits = n % 32;
  r.mag_.assign(words, 0);
  uint32_t carry = 0;
  for (uint32_t limb : mag_) {
    r.mag_.push_back(bits == 0 ? limb : (limb << bits) | carry);
    carry = bits == 0 ? 0 : limb >> (32 - bits);
  }
  if (carry != 0) r.mag_.push_back(carry);
  r.neg_ = neg_;
  return r;
}

BigInt BigInt::shr(uint64_t n) const {
  if (neg_) {
    // floor(a / 2^n) for negative a == ~((~a) >> n)
    return ~((~*this).shr(n));
  }
  BigInt r;
  size_t words = n / 32, bits = n % 32;
  if (words >= mag_.size()) return r;
  for (size_t i = words; i < mag_.size(); ++i) {
    uint64_t cur = mag_[i];
    if (i + 1 < mag_.size()) cur |= static_cast<uint64_t>(mag_[i + 1]) << 32;
    r.mag_.push_back(static_cast<uint32_t>(cur >> bits));
  }
  trim(r.mag_);
  return r;
}

}  // namespace hintkit::starlark
