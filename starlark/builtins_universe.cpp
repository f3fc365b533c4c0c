// The universe: builtins every program sees (len, str, sorted, ...).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <unordered_map>

#include "gocompat/gocompat.h"
#include "starlark/builtins.h"
#include "starlark/eval.h"
#include "starlark/operators.h"
#include "starlark/runes.h"

namespace hintkit::starlark {

Value make_internal_builtin(std::string name, BuiltinFn fn) {
  auto* b = new BuiltinObj();
  b->name = std::move(name);
  b->fn = fn;
  return Value(b);
}

namespace {

// ---- The builtins (each follows starlark-go's argument checks and messages) -----------------

// "f does not accept keyword arguments" / "f: got N arguments, want [exactly] 1": the hand-written
// checks of chr, dir, ord, str, type and zip (not UnpackPositionalArgs).
void exactly_one(const Call& c, std::string_view want) {
  if (!c.kwargs.empty()) throw_error(std::string(c.name) + " does not accept keyword arguments");
  if (c.args.size() != 1)
    bfail(c, "got " + std::to_string(c.args.size()) + " arguments, want " + std::string(want));
}

Value b_any(const Call& c) {
  Value x;
  unpack_positional(c, 1, {{"iterable", &x, Want::kIterable}});
  Iter it(x);
  Value v;
  while (it.next(v)) {
    if (truth(v)) return Value::from_bool(true);
  }
  return Value::from_bool(false);
}

Value b_all(const Call& c) {
  Value x;
  unpack_positional(c, 1, {{"iterable", &x, Want::kIterable}});
  Iter it(x);
  Value v;
  while (it.next(v)) {
    if (!truth(v)) return Value::from_bool(false);
  }
  return Value::from_bool(true);
}

Value b_bool(const Call& c) {
  Value x;
  unpack_positional(c, 0, {{"x", &x}});
  return Value::from_bool(!c.args.empty() && truth(x));
}

Value b_chr(const Call& c) {
  exactly_one(c, "1");
  const Value& x = c.args[0];
  if (!conversion_error(x, Want::kInt32).empty())
    bfail(c, "got " + std::string(x.type_name()) + ", want int");
  int64_t i = small_int(x);
  if (i < 0) bfail(c, "Unicode code point " + std::to_string(i) + " out of range (<0)");
  if (i > 0x10FFFF) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "U+%llX", static_cast<unsigned long long>(i));
    bfail(c, "Unicode code point " + std::string(buf) + " out of range (>0x10FFFF)");
  }
  if (i >= 0xD800 && i <= 0xDFFF) i = 0xFFFD;  // Go's string(rune) of a surrogate
  return str_value(encode_utf8(static_cast<uint32_t>(i)));
}

Value b_dict(const Call& c) {
  Value d = new_dict();
  dict_update_from(c, d);
  return d;
}

Value b_dir(const Call& c) {
  exactly_one(c, "1");
  std::vector<Value> out;
  for (const auto& n : dir_of(c.args[0])) out.push_back(Value::from_string(n));
  return list_value(std::move(out));
}

Value b_enumerate(const Call& c) {
  Value x, start;
  unpack_positional(c, 1, {{"iterable", &x, Want::kIterable}, {"start", &start, Want::kInt32}});
  int64_t i = c.args.size() > 1 ? small_int(start) : 0;
  std::vector<Value> out;
  Iter it(x);
  Value v;
  while (it.next(v)) {
    out.push_back(tuple_value({Value::from_int(i++), v}));
    check_collection_size(out.size());
  }
  return list_value(std::move(out));
}

// fail() and print(): the arguments as str() would show them, joined by `sep=` (" ").
std::string joined_args(const Call& c) {
  Value sep;
  Call kw_only = c;
  kw_only.args = {};
  unpack_args(kw_only, {{"sep?", &sep, Want::kString}});
  std::string msg;
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (i) msg += given(sep) ? str_ref(sep) : std::string(" ");
    append_str(msg, c.args[i]);
  }
  return msg;
}

Value b_fail(const Call& c) {
  const std::string msg = joined_args(c);
  bfail(c, msg);
}

// float(x): strings are read as Go's strconv.ParseFloat reads them, with its error texts.
Value b_float(const Call& c) {
  if (!c.kwargs.empty()) throw_error("float does not accept keyword arguments");
  if (c.args.empty()) return Value::from_float(0.0);
  if (c.args.size() != 1)
    throw_error("float got " + std::to_string(c.args.size()) + " arguments, wants 1");
  const Value& x = c.args[0];
  switch (x.kind()) {
    case Kind::kBool:
      return Value::from_float(x.as_bool() ? 1.0 : 0.0);
    case Kind::kInt:
      return Value::from_float(*x.to_double());
    case Kind::kFloat:
      return x;
    case Kind::kString: {
      double d = 0;
      switch (gocompat::parse_float(str_ref(x), d)) {
        case gocompat::ParseStatus::kOk:
          return Value::from_float(d);
        case gocompat::ParseStatus::kSyntax:
          bfail(c, "strconv.ParseFloat: parsing " + repr_of(x) + ": invalid syntax");
        case gocompat::ParseStatus::kRange:
          bfail(c, "strconv.ParseFloat: parsing " + repr_of(x) + ": value out of range");
      }
      return Value::from_float(d);
    }
    default:
      throw_error("float got " + std::string(x.type_name()) + ", want number or string");
  }
}

// Whether `x` has attributes at all (starlark-go's HasAttrs): strings, lists, dicts and sets
// (their methods), structs, modules and host objects.
bool has_attrs(const Value& x) {
  switch (x.kind()) {
    case Kind::kString:
    case Kind::kList:
    case Kind::kDict:
    case Kind::kSet:
    case Kind::kStruct:
    case Kind::kHost:
      return true;
    default:
      return false;
  }
}

Value b_getattr(const Call& c) {
  Value x, name, dflt;
  unpack_positional(c, 2, {{"x", &x}, {"name", &name, Want::kString}, {"default", &dflt}});
  bool has_default = c.args.size() == 3;
  if (has_attrs(x)) {
    try {
      return get_attr(x, str_ref(name));
    } catch (EvalError& e) {
      if (e.kind == ErrorKind::kLimit) throw;
    }
  }
  if (has_default) return dflt;
  // starlark-go's getattr asks Attr directly: its message has no spelling hint
  bfail(c, std::string(x.type_name()) + " has no ." + str_ref(name) + " field or method");
}

Value b_hasattr(const Call& c) {
  Value x, name_v;
  unpack_positional(c, 2, {{"x", &x}, {"name", &name_v, Want::kString}});
  const std::string& name = str_ref(name_v);
  if (x.kind() == Kind::kStruct) {
    for (const auto& [k, v] : static_cast<const StructObj*>(x.object())->fields) {
      if (k == name) return Value::from_bool(true);
    }
    return Value::from_bool(false);
  }
  if (x.kind() == Kind::kHost) {
    return Value::from_bool(static_cast<const HostObject*>(x.object())->attr(name).has_value());
  }
  return Value::from_bool(builtin_method(x, name).has_value());
}

Value b_hash(const Call& c) {
  Value x;
  unpack_positional(c, 1, {{"x", &x, Want::kString}});
  const std::string& s = str_ref(x);
  // java.lang.String.hashCode as ytt's starlark-go computes it: over code points, since its
  // test for a UTF-16 surrogate never holds for a decoded rune (code points above U+FFFF are
  // added whole, not as two UTF-16 units).
  uint32_t h = 0;
  for (size_t i = 0; i < s.size();) {
    size_t n;
    const uint32_t cp = decode_utf8(s, i, &n);
    i += n;
    h = 31 * h + cp;
  }
  return Value::from_int(static_cast<int32_t>(h));
}

// int(s, base): sign, then a base prefix (0x, 0o, 0b) that must agree with an explicit base;
// with base 0 a leading zero means the whole string is zeros.
Value parse_int_string(const Call& c, const std::string& orig, int b) {
  std::string_view s = orig;
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  auto invalid = [&]() {
    bfail(c, "invalid literal with base " + std::to_string(b) + ": " + orig);
  };
  int prefix = 0;
  if (s.size() > 1 && s[0] == '0') {
    if (s.size() > 2) {
      char p = s[1];
      prefix = (p == 'o' || p == 'O')   ? 8
               : (p == 'x' || p == 'X') ? 16
               : (p == 'b' || p == 'B') ? 2
                                        : 0;
      if (prefix) s.remove_prefix(2);
    }
    if (prefix == 0 && b == 0) {
      for (size_t i = 1; i < s.size(); ++i) {
        if (s[i] != '0') invalid();
      }
      return Value::from_int(0);
    }
    if (b != 0 && prefix != 0 && prefix != b) invalid();
  }
  if (b == 0) b = prefix != 0 ? prefix : 10;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) invalid();
  if (s.empty()) invalid();
  // Refused by its length before parsing (which is quadratic in the digits): int('1' * 16 MiB)
  // ran for seconds only to be over the limit of kMaxIntBits.
  const size_t zeros = std::min(s.find_first_not_of("0_"), s.size());
  const double bits = static_cast<double>(s.size() - zeros) * std::log2(b);
  if (bits > static_cast<double>(kMaxIntBits) + std::log2(b)) {
    throw_limit("int too large: about " + std::to_string(static_cast<size_t>(bits)) +
                " bits exceeds the limit of " + std::to_string(kMaxIntBits));
  }
  auto v = BigInt::parse(s, b);
  if (!v) invalid();
  return int_value(neg ? -*v : *v);
}

Value b_int(const Call& c) {
  Value x, base;
  unpack_args(c, {{"x", &x}, {"base?", &base}});
  if (x.kind() == Kind::kString) {
    int b = 10;
    if (given(base)) {
      bool ok = conversion_error(base, Want::kInt32).empty();
      int64_t v = ok ? small_int(base) : -1;
      if (!ok || (v != 0 && (v < 2 || v > 36))) bfail(c, "base must be an integer >= 2 && <= 36");
      b = static_cast<int>(v);
    }
    return parse_int_string(c, str_ref(x), b);
  }
  if (given(base)) bfail(c, "can't convert non-string with explicit base");
  switch (x.kind()) {
    case Kind::kBool:
      return Value::from_int(x.as_bool() ? 1 : 0);
    case Kind::kInt:
      return x;
    case Kind::kFloat: {
      double d = x.as_float();
      if (std::isnan(d)) bfail(c, "cannot convert float NaN to integer");
      if (std::isinf(d)) bfail(c, "cannot convert float infinity to integer");
      return *int_from_float(d);
    }
    default:
      bfail(c, "cannot convert " + std::string(x.type_name()) + " to int");
  }
}

Value b_len(const Call& c) {
  Value x;
  unpack_positional(c, 1, {{"x", &x}});
  int64_t n = length_of(x);
  if (n < 0) bfail(c, "value of type " + std::string(x.type_name()) + " has no len");
  return Value::from_int(n);
}

Value b_list(const Call& c) {
  Value x;
  unpack_positional(c, 0, {{"iterable", &x, Want::kIterable}});
  if (c.args.empty()) return list_value({});
  return list_value(to_vector(x));
}

Value b_tuple(const Call& c) {
  Value x;
  unpack_positional(c, 0, {{"iterable", &x, Want::kIterable}});
  if (c.args.empty()) return tuple_value({});
  return tuple_value(to_vector(x));
}

Value b_set(const Call& c) {
  Value x;
  unpack_positional(c, 0, {{"iterable", &x, Want::kIterable}});
  Value s = new_set();
  if (c.args.empty()) return s;
  try {
    for_each(x, [&](const Value& v) { as_set(s)->table.insert(v, Value()); });
  } catch (EvalError& e) {
    if (e.kind == ErrorKind::kLimit) throw;
    bfail(c, e.message);
  }
  return s;
}

// Comparison inside a builtin: "max: int > string not implemented".
bool less_or_fail(const Call& c, const Value& a, const Value& b, std::string_view op) {
  try {
    return compare_op(op == ">" ? BinOp::kGt : BinOp::kLt, a, b);
  } catch (EvalError& e) {
    if (e.kind == ErrorKind::kLimit) throw;
    bfail(c, e.message);
  }
}

Value minmax(const Call& c, bool is_max) {
  if (c.args.empty())
    throw_error(std::string(c.name) + " requires at least one positional argument");
  Value key;
  {
    Call kw_only = c;
    kw_only.args = {};
    unpack_args(kw_only, {{"key?", &key, Want::kCallable}});
  }
  std::vector<Value> items;
  if (c.args.size() == 1) {
    if (!is_iterable(c.args[0]))
      bfail(c, std::string(c.args[0].type_name()) + " value is not iterable");
    items = to_vector(c.args[0]);
  } else {
    items.assign(c.args.begin(), c.args.end());
  }
  if (items.empty()) bfail(c, "argument is an empty sequence");
  bool has_key = given(key);
  Value best = items[0];
  Value best_key = has_key ? call_value(key, std::span<const Value>(&best, 1), {}) : best;
  for (size_t i = 1; i < items.size(); ++i) {
    Value k = has_key ? call_value(key, std::span<const Value>(&items[i], 1), {}) : items[i];
    if (less_or_fail(c, k, best_key, is_max ? ">" : "<")) {
      best = items[i];
      best_key = k;
    }
  }
  return best;
}

Value b_max(const Call& c) { return minmax(c, true); }
Value b_min(const Call& c) { return minmax(c, false); }

Value b_ord(const Call& c) {
  exactly_one(c, "1");
  if (c.args[0].kind() != Kind::kString)
    bfail(c, "got " + std::string(c.args[0].type_name()) + ", want string");
  const std::string& s = str_ref(c.args[0]);
  size_t n = 0, count = 0;
  uint32_t cp = 0;
  for (size_t i = 0; i < s.size(); i += n) {
    cp = decode_utf8(s, i, &n);
    ++count;
  }
  if (count != 1)
    bfail(c, "string encodes " + std::to_string(count) + " Unicode code points, want 1");
  return Value::from_int(cp);
}

Value b_print(const Call& c) {
  const std::string msg = joined_args(c);
  const auto& hook = current_thread().options.print;
  if (hook) {
    hook(msg);
  } else {
    std::cerr << msg << "\n";
  }
  return Value();
}

Value b_range(const Call& c) {
  Value a, b, s;
  unpack_positional(
      c, 1, {{"start", &a, Want::kInt32}, {"stop", &b, Want::kInt32}, {"step", &s, Want::kInt32}});
  int64_t start = 0, stop, step = 1;
  if (c.args.size() == 1) {
    stop = small_int(a);
  } else {
    start = small_int(a);
    stop = small_int(b);
    if (c.args.size() == 3) step = small_int(s);
  }
  if (step == 0) bfail(c, "step argument must not be zero");
  return Value(new RangeObj(start, stop, step));
}

Value b_repr(const Call& c) {
  Value x;
  unpack_positional(c, 1, {{"x", &x}});
  return str_value(repr_of(x));
}

Value b_str(const Call& c) {
  exactly_one(c, "exactly 1");
  if (c.args[0].kind() == Kind::kString) return c.args[0];
  return str_value(str_of(c.args[0]));
}

Value b_type(const Call& c) {
  exactly_one(c, "exactly 1");
  return Value::from_string(c.args[0].type_name());
}

Value b_reversed(const Call& c) {
  Value x;
  unpack_positional(c, 1, {{"iterable", &x, Want::kIterable}});
  std::vector<Value> v = to_vector(x);
  std::reverse(v.begin(), v.end());
  return list_value(std::move(v));
}

// Go's sort.Stable (insertion sort of 20-element blocks, then in-place symmerges), so that a
// comparison error reports the same pair of operands as ytt: the last failing comparison wins.
class GoStableSort {
 public:
  GoStableSort(std::vector<Value>& keys, std::vector<Value>& values, bool reverse)
      : keys_(keys), values_(values), reverse_(reverse) {}

  void sort() {
    int n = static_cast<int>(values_.size());
    int block = 20;
    int a = 0, b = block;
    while (b <= n) {
      insertion(a, b);
      a = b;
      b += block;
    }
    insertion(a, n);
    while (block < n) {
      a = 0;
      b = 2 * block;
      while (b <= n) {
        sym_merge(a, a + block, b);
        a = b;
        b += 2 * block;
      }
      if (int m = a + block; m < n) sym_merge(a, m, n);
      block *= 2;
    }
  }
  std::optional<EvalError> error;

 private:
  bool less(int i, int j) {
    if (reverse_) std::swap(i, j);
    try {
      return compare_op(BinOp::kLt, keys_[static_cast<size_t>(i)], keys_[static_cast<size_t>(j)]);
    } catch (EvalError& e) {
      if (e.kind == ErrorKind::kLimit) throw;
      error = e;
      return false;
    }
  }
  void swap(int i, int j) {
    std::swap(keys_[static_cast<size_t>(i)], keys_[static_cast<size_t>(j)]);
    if (&keys_ != &values_)
      std::swap(values_[static_cast<size_t>(i)], values_[static_cast<size_t>(j)]);
  }
  void insertion(int a, int b) {
    for (int i = a + 1; i < b; ++i) {
      for (int j = i; j > a && less(j, j - 1); --j) swap(j, j - 1);
    }
  }
  void swap_range(int a, int b, int n) {
    for (int i = 0; i < n; ++i) swap(a + i, b + i);
  }
  void rotate(int a, int m, int b) {
    int i = m - a, j = b - m;
    while (i != j) {
      if (i > j) {
        swap_range(m - i, m, j);
        i -= j;
      } else {
        swap_range(m - i, m + j - i, i);
        j -= i;
      }
    }
    swap_range(m - i, m, i);
  }
  void sym_merge(int a, int m, int b) {
    if (m - a == 1) {
      int i = m, j = b;
      while (i < j) {
        int h = static_cast<int>(static_cast<unsigned>(i + j) >> 1);
        if (less(h, a)) {
          i = h + 1;
        } else {
          j = h;
        }
      }
      for (int k = a; k < i - 1; ++k) swap(k, k + 1);
      return;
    }
    if (b - m == 1) {
      int i = a, j = m;
      while (i < j) {
        int h = static_cast<int>(static_cast<unsigned>(i + j) >> 1);
        if (!less(m, h)) {
          i = h + 1;
        } else {
          j = h;
        }
      }
      for (int k = m; k > i; --k) swap(k, k - 1);
      return;
    }
    int mid = static_cast<int>(static_cast<unsigned>(a + b) >> 1);
    int n = mid + m;
    int start, r;
    if (m > mid) {
      start = n - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    int p = n - 1;
    while (start < r) {
      int cc = static_cast<int>(static_cast<unsigned>(start + r) >> 1);
      if (!less(p - cc, cc)) {
        start = cc + 1;
      } else {
        r = cc;
      }
    }
    int end = n - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) sym_merge(a, start, mid);
    if (mid < end && end < b) sym_merge(mid, end, b);
  }

  std::vector<Value>& keys_;
  std::vector<Value>& values_;
  bool reverse_;
};

Value b_sorted(const Call& c) {
  Value x, key, reverse;
  unpack_args(c, {{"iterable", &x, Want::kIterable},
                  {"key?", &key, Want::kCallable},
                  {"reverse?", &reverse, Want::kBool}});
  std::vector<Value> items = to_vector(x);
  std::vector<Value> keys;
  bool has_key = given(key);
  if (has_key) {
    keys.reserve(items.size());
    for (const auto& v : items) keys.push_back(call_value(key, std::span<const Value>(&v, 1), {}));
  }
  GoStableSort s(has_key ? keys : items, items, given(reverse) && reverse.as_bool());
  s.sort();
  if (s.error) throw *s.error;
  return list_value(std::move(items));
}

Value b_zip(const Call& c) {
  if (!c.kwargs.empty()) throw_error("zip does not accept keyword arguments");
  std::vector<std::vector<Value>> cols;
  size_t n = SIZE_MAX;
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (!is_iterable(c.args[i]))
      bfail(c, "argument #" + std::to_string(i + 1) +
                   " is not iterable: " + std::string(c.args[i].type_name()));
    cols.push_back(to_vector(c.args[i]));
    n = std::min(n, cols.back().size());
  }
  if (cols.empty()) n = 0;
  std::vector<Value> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    std::vector<Value> row;
    row.reserve(cols.size());
    for (auto& col : cols) row.push_back(col[i]);
    out.push_back(tuple_value(std::move(row)));
  }
  return list_value(std::move(out));
}

}  // namespace

const std::vector<std::pair<std::string, Value>>& universe() {
  static const auto* u = [] {
    auto* v = new std::vector<std::pair<std::string, Value>>();
    v->emplace_back("None", Value());
    v->emplace_back("True", Value::from_bool(true));
    v->emplace_back("False", Value::from_bool(false));
    struct Entry {
      const char* name;
      BuiltinFn fn;
    };
    static constexpr Entry kFns[] = {
        {"any", b_any},
        {"all", b_all},
        {"bool", b_bool},
        {"chr", b_chr},
        {"dict", b_dict},
        {"dir", b_dir},
        {"enumerate", b_enumerate},
        {"fail", b_fail},
        {"float", b_float},
        {"getattr", b_getattr},
        {"hasattr", b_hasattr},
        {"hash", b_hash},
        {"int", b_int},
        {"len", b_len},
        {"list", b_list},
        {"max", b_max},
        {"min", b_min},
        {"ord", b_ord},
        {"print", b_print},
        {"range", b_range},
        {"repr", b_repr},
        {"reversed", b_reversed},
        {"set", b_set},
        {"sorted", b_sorted},
        {"str", b_str},
        {"tuple", b_tuple},
        {"type", b_type},
        {"zip", b_zip},
    };
    for (const auto& e : kFns) v->emplace_back(e.name, make_internal_builtin(e.name, e.fn));
    // Shared by every thread: pinned so concurrent reference counting never frees them.
    for (const auto& [name, value] : *v) make_immortal(value);
    return v;
  }();
  return *u;
}

const Value* universe_value(std::string_view name) {
  static const auto* index = [] {
    auto* m = new std::unordered_map<std::string_view, const Value*>();
    for (const auto& [n, v] : universe()) m->emplace(n, &v);
    return m;
  }();
  auto it = index->find(name);
  return it == index->end() ? nullptr : it->second;
}

}  // namespace hintkit::starlark
