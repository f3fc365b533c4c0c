// The operators on values (starlark-go's Binary and Unary, eval.go): arithmetic on ints and
// floats, comparison, `in`, concatenation, repetition and `%` formatting.
#include "starlark/operators.h"

#include <cmath>

#include "starlark/format.h"

namespace hintkit::starlark {

namespace {

[[noreturn]] void unknown_binary(BinOp op, const Value& x, const Value& y) {
  throw_error("unknown binary op: " + std::string(x.type_name()) + " " +
              std::string(to_string(op)) + " " + std::string(y.type_name()));
}

bool is_int(const Value& v) { return v.is_small_int() || v.is(Kind::kInt); }

Value int_arith(BinOp op, const Value& x, const Value& y) {
  if (x.is_small_int() && y.is_small_int()) {
    int64_t a = x.as_small_int(), b = y.as_small_int(), r;
    switch (op) {
      case BinOp::kPlus:
        if (!__builtin_add_overflow(a, b, &r)) return Value::from_int(r);
        break;
      case BinOp::kMinus:
        if (!__builtin_sub_overflow(a, b, &r)) return Value::from_int(r);
        break;
      case BinOp::kStar:
        if (!__builtin_mul_overflow(a, b, &r)) return Value::from_int(r);
        break;
      case BinOp::kSlashSlash:
        if (b == 0) throw_error("floored division by zero");
        if (!(a == INT64_MIN && b == -1)) {
          int64_t q = a / b;
          if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
          return Value::from_int(q);
        }
        break;
      case BinOp::kPercent:
        if (b == 0) throw_error("integer modulo by zero");
        if (b == -1) return Value::from_int(0);
        r = a % b;
        if (r != 0 && ((r < 0) != (b < 0))) r += b;
        return Value::from_int(r);
      case BinOp::kAmp:
        return Value::from_int(a & b);
      case BinOp::kPipe:
        return Value::from_int(a | b);
      case BinOp::kCaret:
        return Value::from_int(a ^ b);
      default:
        break;
    }
  }
  BigInt a = to_bigint(x), b = to_bigint(y);
  switch (op) {
    case BinOp::kPlus:
      return int_value(a + b);
    case BinOp::kMinus:
      return int_value(a - b);
    case BinOp::kStar:
      if (a.bit_length() + b.bit_length() > kMaxIntBits + 64) {
        throw_limit("int too large: " + std::to_string(a.bit_length() + b.bit_length()) +
                    " bits exceeds the limit of " + std::to_string(kMaxIntBits));
      }
      return int_value(a * b);
    case BinOp::kSlashSlash: {
      if (b.is_zero()) throw_error("floored division by zero");
      BigInt q;
      BigInt::floor_divmod(a, b, &q, nullptr);
      return int_value(q);
    }
    case BinOp::kPercent: {
      if (b.is_zero()) throw_error("integer modulo by zero");
      BigInt r;
      BigInt::floor_divmod(a, b, nullptr, &r);
      return int_value(r);
    }
    case BinOp::kAmp:
      return int_value(a & b);
    case BinOp::kPipe:
      return int_value(a | b);
    case BinOp::kCaret:
      return int_value(a ^ b);
    case BinOp::kShl:
    case BinOp::kShr: {
      auto n = y.to_int64();
      if (!n || *n < 0) throw_error("negative shift count: " + y.int_text());
      if (op == BinOp::kShl && *n >= 512) throw_error("shift count too large: " + y.int_text());
      if (op == BinOp::kShr && *n > 2 * static_cast<int64_t>(kMaxIntBits)) {  // every bit out
        return Value::from_int(x.is_small_int() ? (x.as_small_int() < 0 ? -1 : 0)
                                                : (to_bigint(x).negative() ? -1 : 0));
      }
      if (op == BinOp::kShl) {
        if (x.is_small_int() && *n < 62) {
          int64_t v = x.as_small_int();
          if (v == 0) return Value::from_int(0);
          int64_t lim = INT64_MAX >> *n;
          if (v <= lim && v >= -lim) return Value::from_int(v * (int64_t{1} << *n));
        }
        return int_value(a.shl(static_cast<uint64_t>(*n)));
      }
      if (x.is_small_int())
        return Value::from_int(*n >= 63 ? (x.as_small_int() < 0 ? -1 : 0) : x.as_small_int() >> *n);
      return int_value(a.shr(static_cast<uint64_t>(*n)));
    }
    default:
      unknown_binary(op, x, y);
  }
}

Value float_arith(BinOp op, const Value& x, const Value& y) {
  double a = *x.to_double(), b = *y.to_double();
  switch (op) {
    case BinOp::kPlus:
      return Value::from_float(a + b);
    case BinOp::kMinus:
      return Value::from_float(a - b);
    case BinOp::kStar:
      return Value::from_float(a * b);
    case BinOp::kSlash:
      if (b == 0) throw_error("real division by zero");
      return Value::from_float(a / b);
    case BinOp::kSlashSlash:
      if (b == 0) throw_error("floored division by zero");
      return Value::from_float(std::floor(a / b));
    case BinOp::kPercent: {
      if (b == 0) throw_error("float modulo by zero");
      // ytt's starlark keeps Go's math.Mod sign (that of the dividend) for floats.
      return Value::from_float(std::fmod(a, b));
    }
    default:
      unknown_binary(op, x, y);
  }
}

Value repeat(const Value& seq, const Value& count) {
  bool empty = seq.kind() == Kind::kString ? str_ref(seq).empty()
               : seq.kind() == Kind::kList ? as_list(seq)->items.empty()
                                           : as_tuple(seq)->items.empty();
  if (empty) return seq.kind() == Kind::kList ? list_value({}) : seq;
  auto n = count.to_int64();
  if (!n || *n < INT32_MIN || *n > INT32_MAX)
    throw_error("repeat count " + count.int_text() + " too large");
  int64_t k = *n < 0 ? 0 : *n;
  if (seq.kind() == Kind::kString) {
    const std::string& s = str_ref(seq);
    if (!s.empty() && static_cast<uint64_t>(k) > kMaxStringBytes / s.size() + 1)
      check_string_size(kMaxStringBytes + 1);
    check_string_size(s.size() * static_cast<size_t>(k));
    std::string out;
    out.reserve(s.size() * static_cast<size_t>(k));
    for (int64_t i = 0; i < k; ++i) out += s;
    return str_value(std::move(out));
  }
  const auto& items = seq.kind() == Kind::kList ? as_list(seq)->items : as_tuple(seq)->items;
  if (!items.empty() && static_cast<uint64_t>(k) > kMaxCollectionLen / items.size() + 1)
    check_collection_size(kMaxCollectionLen + 1);
  check_collection_size(items.size() * static_cast<size_t>(k));
  std::vector<Value> out;
  out.reserve(items.size() * static_cast<size_t>(k));
  for (int64_t i = 0; i < k; ++i) out.insert(out.end(), items.begin(), items.end());
  return seq.kind() == Kind::kList ? list_value(std::move(out)) : tuple_value(std::move(out));
}

}  // namespace

bool contains(const Value& c, const Value& x) {
  switch (c.kind()) {
    case Kind::kString:
      if (x.kind() != Kind::kString)
        throw_error("'in <string>' requires string as left operand, not " +
                    std::string(x.type_name()));
      return str_ref(c).find(str_ref(x)) != std::string::npos;
    case Kind::kList:
      for (const auto& v : as_list(c)->items) {
        if (values_equal(v, x)) return true;
      }
      return false;
    case Kind::kTuple:
      for (const auto& v : as_tuple(c)->items) {
        if (values_equal(v, x)) return true;
      }
      return false;
    case Kind::kDict:
      // starlark-go ignores lookup errors here: an unhashable key is simply not in the dict.
      try {
        return as_dict(c)->table.find(x) != nullptr;
      } catch (EvalError& e) {
        if (e.kind == ErrorKind::kLimit) throw;
        return false;
      }
    case Kind::kSet:
      return as_set(c)->table.find(x) != nullptr;
    case Kind::kRange: {
      // An int, or a float truncated toward zero; then it must fit 32 bits.
      std::optional<int64_t> i;
      if (is_int(x)) {
        i = x.to_int64();
      } else if (x.is_float() && std::isfinite(x.as_float())) {
        double t = std::trunc(x.as_float());
        if (std::fabs(t) < 9e18) i = static_cast<int64_t>(t);
      } else {
        throw_error("'in <range>' requires integer as left operand, not " +
                    std::string(x.type_name()));
      }
      if (!i || *i < INT32_MIN || *i > INT32_MAX) return false;
      auto* r = as_range(c);
      int64_t n = r->length();
      if (n == 0) return false;
      if ((*i - r->start) % r->step != 0) return false;
      int64_t k = (*i - r->start) / r->step;
      return k >= 0 && k < n;
    }
    case Kind::kStruct:
      if (is_ytt_struct(c)) {
        if (!x.is(Kind::kString)) return false;
        for (const auto& [k, _] : static_cast<const StructObj*>(c.object())->fields) {
          if (k == x.as_string()) return true;
        }
        return false;
      }
      break;
    case Kind::kHost: {
      if (auto has = static_cast<const HostObject*>(c.object())->contains(x)) return *has;
      auto items = static_cast<const HostObject*>(c.object())->iterate();
      if (items) {
        for (const auto& v : *items) {
          if (values_equal(v, x)) return true;
        }
        return false;
      }
      break;
    }
    default:
      break;
  }
  throw_error("unknown binary op: " + std::string(x.type_name()) + " in " +
              std::string(c.type_name()));
}

Value binary_op(BinOp op, const Value& x, const Value& y) {
  Kind kx = x.kind(), ky = y.kind();
  switch (op) {
    case BinOp::kEq:
      return Value::from_bool(values_equal(x, y));
    case BinOp::kNe:  // two numbers by their own rules (an int != NaN is false there)
      if (is_number(x) && is_number(y)) return Value::from_bool(compare_number_op(op, x, y));
      return Value::from_bool(!values_equal(x, y));
    case BinOp::kLt:
    case BinOp::kGt:
    case BinOp::kLe:
    case BinOp::kGe:
      return Value::from_bool(compare_op(op, x, y));
    case BinOp::kIn:
      return Value::from_bool(contains(y, x));
    case BinOp::kNotIn:
      return Value::from_bool(!contains(y, x));
    default:
      break;
  }
  bool xi = is_int(x), yi = is_int(y);
  bool xn = xi || kx == Kind::kFloat, yn = yi || ky == Kind::kFloat;
  switch (op) {
    case BinOp::kPlus:
      if (xi && yi) return int_arith(op, x, y);
      if (xn && yn) return float_arith(op, x, y);
      if (kx == Kind::kString && ky == Kind::kString) {
        const std::string& a = str_ref(x);
        const std::string& b = str_ref(y);
        check_string_size(a.size() + b.size());
        std::string s;
        s.reserve(a.size() + b.size());
        s += a;
        s += b;
        return str_value(std::move(s));
      }
      if (kx == Kind::kList && ky == Kind::kList) {
        std::vector<Value> v = as_list(x)->items;
        const auto& b = as_list(y)->items;
        check_collection_size(v.size() + b.size());
        v.insert(v.end(), b.begin(), b.end());
        return list_value(std::move(v));
      }
      if (kx == Kind::kTuple && ky == Kind::kTuple) {
        std::vector<Value> v = as_tuple(x)->items;
        const auto& b = as_tuple(y)->items;
        check_collection_size(v.size() + b.size());
        v.insert(v.end(), b.begin(), b.end());
        return tuple_value(std::move(v));
      }
      break;
    case BinOp::kMinus:
    case BinOp::kSlashSlash:
    case BinOp::kPercent:
      if (op == BinOp::kPercent && kx == Kind::kString) return percent_format(x, y);
      if (xi && yi) return int_arith(op, x, y);
      if (xn && yn) return float_arith(op, x, y);
      break;
    case BinOp::kStar:
      if (xi && yi) return int_arith(op, x, y);
      if (xn && yn) return float_arith(op, x, y);
      if (xi && (ky == Kind::kString || ky == Kind::kList || ky == Kind::kTuple))
        return repeat(y, x);
      if (yi && (kx == Kind::kString || kx == Kind::kList || kx == Kind::kTuple))
        return repeat(x, y);
      break;
    case BinOp::kSlash:
      if (xn && yn) return float_arith(op, x, y);
      break;
    case BinOp::kShl:
    case BinOp::kShr:
      if (xi) {
        std::string err = int32_error(y);  // the count must be a 32-bit int
        if (!err.empty()) throw_error(err);
        return int_arith(op, x, y);
      }
      break;
    case BinOp::kAmp:
      if (xi && yi) return int_arith(op, x, y);
      if (kx == Kind::kSet && ky == Kind::kSet) {  // intersection, in the smaller set's order
        const HashTable* a = &as_set(x)->table;
        const HashTable* b = &as_set(y)->table;
        if (a->size() > b->size()) std::swap(a, b);
        Value s = new_set();
        for (const auto& e : a->entries()) {
          if (e.live && b->find(e.key)) as_set(s)->table.insert(e.key, Value());
        }
        return s;
      }
      break;
    case BinOp::kCaret:
      if (xi && yi) return int_arith(op, x, y);
      if (kx == Kind::kSet && ky == Kind::kSet) {  // symmetric difference: x's, then y's
        const HashTable& a = as_set(x)->table;
        const HashTable& b = as_set(y)->table;
        Value s = new_set();
        for (const auto& e : a.entries()) {
          if (e.live && !b.find(e.key)) as_set(s)->table.insert(e.key, Value());
        }
        for (const auto& e : b.entries()) {
          if (e.live && !a.find(e.key)) as_set(s)->table.insert(e.key, Value());
        }
        return s;
      }
      break;
    case BinOp::kPipe:
      if (xi && yi) return int_arith(op, x, y);
      if (kx == Kind::kSet && ky == Kind::kSet) {
        Value s = new_set();
        for (const auto& e : as_set(x)->table.entries()) {
          if (e.live) as_set(s)->table.insert(e.key, Value());
        }
        for (const auto& e : as_set(y)->table.entries()) {
          if (e.live) as_set(s)->table.insert(e.key, Value());
        }
        return s;
      }
      break;
    default:
      break;
  }
  unknown_binary(op, x, y);
}

Value unary_op(UnOp op, const Value& x) {
  switch (op) {
    case UnOp::kNot:
      return Value::from_bool(!truth(x));
    case UnOp::kMinus:
      if (x.is_small_int() && x.as_small_int() != INT64_MIN)
        return Value::from_int(-x.as_small_int());
      if (is_int(x)) return int_value(-to_bigint(x));
      if (x.is_float()) return Value::from_float(-x.as_float());
      throw_error("unknown unary op: - " + std::string(x.type_name()));
    case UnOp::kPlus:
      if (is_int(x) || x.is_float()) return x;
      throw_error("unknown unary op: + " + std::string(x.type_name()));
    case UnOp::kTilde:
      if (x.is_small_int()) return Value::from_int(~x.as_small_int());
      if (is_int(x)) return int_value(~to_bigint(x));
      throw_error("unknown unary op: ~ " + std::string(x.type_name()));
  }
  return Value();
}

}  // namespace hintkit::starlark
