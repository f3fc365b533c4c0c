// The universe: builtins every program sees (len, str, sorted, ...), plus the argument
// unpacking helpers of builtins.h.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "starlark/builtins.h"
#include "starlark/eval.h"

namespace hintkit::starlark {

// ---- Helpers ---------------------------------------------------------------------------------

void bfail(const Call& c, std::string message) {
  throw_error(std::string(c.name) + ": " + message);
}

void unpack_positional(const Call& c, size_t min, size_t max) {
  if (!c.kwargs.empty()) bfail(c, "unexpected keyword arguments");
  size_t n = c.args.size();
  if (n < min) {
    bfail(c, "got " + std::to_string(n) + " arguments, want " + (min < max ? "at least " : "") +
                 std::to_string(min));
  }
  if (n > max) {
    bfail(c, "got " + std::to_string(n) + " arguments, want " + (max > min ? "at most " : "") +
                 std::to_string(max));
  }
}

void unpack_args(const Call& c, std::initializer_list<std::string_view> names,
                 std::initializer_list<Value*> out) {
  std::vector<Value*> outs(out);
  std::vector<std::string_view> ns(names);
  for (Value* o : outs) *o = unbound();
  if (c.args.size() > ns.size()) {
    bfail(c, "got " + std::to_string(c.args.size()) + " arguments, want at most " +
                 std::to_string(ns.size()));
  }
  auto base = [](std::string_view n) { return n.ends_with('?') ? n.substr(0, n.size() - 1) : n; };
  for (size_t i = 0; i < c.args.size(); ++i) *outs[i] = c.args[i];
  for (const auto& kw : c.kwargs) {
    size_t i = 0;
    for (; i < ns.size(); ++i) {
      if (base(ns[i]) == kw.name) break;
    }
    if (i == ns.size()) bfail(c, "unexpected keyword argument " + std::string(kw.name));
    if (given(*outs[i]))
      bfail(c, "got multiple values for keyword argument " + std::string(kw.name));
    *outs[i] = kw.value;
  }
  for (size_t i = 0; i < ns.size(); ++i) {
    if (!ns[i].ends_with('?') && !given(*outs[i]))
      bfail(c, "missing argument for " + std::string(ns[i]));
  }
}

const std::string& want_string(const Call& c, const Value& v, std::string_view param) {
  if (v.kind() != Kind::kString)
    bfail(c, "for parameter " + std::string(param) + ": got " + std::string(v.type_name()) +
                 ", want string");
  return str_ref(v);
}

int64_t want_int(const Call& c, const Value& v, std::string_view param) {
  if (v.kind() != Kind::kInt)
    bfail(c, "for parameter " + std::string(param) + ": got " + std::string(v.type_name()) +
                 ", want int");
  auto i = v.to_int64();
  if (!i) bfail(c, "for parameter " + std::string(param) + ": " + v.int_text() + " out of range");
  return *i;
}

void want_iterable(const Call& c, const Value& v, std::string_view param) {
  if (v.kind() == Kind::kHost ? !static_cast<const HostObject*>(v.object())->iterate()
                              : (length_of(v) < 0 || v.kind() == Kind::kString)) {
    bfail(c, "for parameter " + std::string(param) + ": got " + std::string(v.type_name()) +
                 ", want iterable");
  }
}

Value make_bound(std::string_view name, BuiltinFn fn, const Value& recv) {
  auto* b = new BuiltinObj();
  b->name = std::string(name);
  b->fn = fn;
  b->receiver = recv;
  b->bound = true;
  return Value(b);
}

Value make_internal_builtin(std::string name, BuiltinFn fn) {
  auto* b = new BuiltinObj();
  b->name = std::move(name);
  b->fn = fn;
  return Value(b);
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

namespace {}  // namespace

// Decodes one UTF-8 code point at s[i]; invalid bytes decode as U+FFFD of length 1.
uint32_t decode_utf8(std::string_view s, size_t i, size_t* len) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) {
    *len = 1;
    return 0xFFFD;
  }
  uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) {
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) {
      *len = 1;
      return 0xFFFD;
    }
    cp = (cp << 6) | (d & 0x3F);
  }
  *len = n;
  return cp;
}

std::string encode_utf8(uint32_t cp) {
  std::string s;
  append_utf8(s, cp);
  return s;
}

namespace {

// ---- The builtins ----------------------------------------------------------------------------

Value b_any(const Call& c) {
  unpack_positional(c, 1, 1);
  bool r = false;
  Iter it(c.args[0]);
  Value x;
  while (it.next(x)) {
    if (truth(x)) {
      r = true;
      break;
    }
  }
  return Value::from_bool(r);
}

Value b_all(const Call& c) {
  unpack_positional(c, 1, 1);
  Iter it(c.args[0]);
  Value x;
  while (it.next(x)) {
    if (!truth(x)) return Value::from_bool(false);
  }
  return Value::from_bool(true);
}

Value b_bool(const Call& c) {
  unpack_positional(c, 0, 1);
  return Value::from_bool(!c.args.empty() && truth(c.args[0]));
}

Value b_chr(const Call& c) {
  unpack_positional(c, 1, 1);
  if (c.args[0].kind() != Kind::kInt)
    bfail(c, "got " + std::string(c.args[0].type_name()) + ", want int");
  int64_t i = want_int(c, c.args[0], "1");
  if (i < 0) bfail(c, "Unicode code point " + std::to_string(i) + " out of range (<0)");
  if (i > 0x10FFFF)
    bfail(c, "Unicode code point " + std::to_string(i) + " out of range (>0x10FFFF)");
  return str_value(encode_utf8(static_cast<uint32_t>(i)));
}

void dict_update(const Call& c, const Value& d, std::span<const Value> args,
                 std::span<const Kwarg> kwargs) {
  if (args.size() > 1)
    bfail(c, "got " + std::to_string(args.size()) + " arguments, want at most 1");
  HashTable& t = as_dict(d)->table;
  if (!args.empty()) {
    const Value& src = args[0];
    if (src.kind() == Kind::kDict) {
      for (const auto& e : as_dict(src)->table.entries()) {
        if (e.live) t.insert(e.key, e.value);
      }
    } else {
      if (length_of(src) < 0 || src.kind() == Kind::kString) {
        bfail(c, "got " + std::string(src.type_name()) + ", want iterable");
      }
      Iter it(src);
      Value pair;
      int64_t i = 0;
      while (it.next(pair)) {
        if (pair.kind() != Kind::kList && pair.kind() != Kind::kTuple) {
          if (length_of(pair) < 0 || pair.kind() == Kind::kString)
            bfail(c, "dictionary update sequence element #" + std::to_string(i) +
                         " is not iterable (" + std::string(pair.type_name()) + ")");
        }
        std::vector<Value> kv = to_vector(pair);
        if (kv.size() != 2) {
          bfail(c, "dictionary update sequence element #" + std::to_string(i) + " has length " +
                       std::to_string(kv.size()) + ", want 2");
        }
        t.insert(kv[0], kv[1]);
        ++i;
      }
    }
  }
  for (const auto& kw : kwargs) t.insert(Value::from_string(kw.name), kw.value);
}

}  // namespace

std::optional<Value> int_from_float(double d) {
  if (!std::isfinite(d)) return std::nullopt;
  double t = std::trunc(d);
  if (std::fabs(t) < 9.0e18) return Value::from_int(static_cast<int64_t>(t));
  // Exact conversion of a large double through its decimal expansion.
  char buf[400];
  std::snprintf(buf, sizeof buf, "%.0f", t);
  return int_value(*BigInt::parse(buf, 10));
}

// Shared with dict.update.
void dict_update_from(const Call& c, const Value& d) { dict_update(c, d, c.args, c.kwargs); }

namespace {

Value b_dict(const Call& c) {
  Value d = new_dict();
  dict_update(c, d, c.args, c.kwargs);
  return d;
}

Value b_dir(const Call& c) {
  unpack_positional(c, 1, 1);
  std::vector<Value> out;
  for (const auto& n : dir_of(c.args[0])) out.push_back(Value::from_string(n));
  return list_value(std::move(out));
}

Value b_enumerate(const Call& c) {
  Value x, start;
  unpack_args(c, {"x", "start?"}, {&x, &start});
  int64_t i = given(start) ? want_int(c, start, "start") : 0;
  want_iterable(c, x, "1");
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
  std::string sep = " ";
  for (const auto& kw : c.kwargs) {
    if (kw.name != "sep") bfail(c, "unexpected keyword argument " + std::string(kw.name));
    sep = want_string(c, kw.value, "sep");
  }
  std::string msg;
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (i) msg += sep;
    append_str(msg, c.args[i]);
  }
  return msg;
}

Value b_fail(const Call& c) {
  const std::string msg = joined_args(c);
  bfail(c, msg);
}

// Go's rule for `_` in number literals: only between digits, or after a base prefix.
bool go_underscores_ok(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  char saw = '^';  // '^' start, '0' digit or prefix, '_' underscore, '!' anything else
  size_t i = 0;
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0') {
    char b = static_cast<char>(std::tolower(static_cast<unsigned char>(s[1])));
    if (b == 'b' || b == 'o' || b == 'x') {
      i = 2;
      saw = '0';
      hex = b == 'x';
    }
  }
  for (; i < s.size(); ++i) {
    char ch = static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
    if ((ch >= '0' && ch <= '9') || (hex && ch >= 'a' && ch <= 'f')) {
      saw = '0';
    } else if (ch == '_') {
      if (saw != '0') return false;
      saw = '_';
    } else {
      if (saw == '_') return false;
      saw = '!';
    }
  }
  return saw != '_';
}

// The syntax Go's strconv.ParseFloat accepts for finite numbers: decimal with an optional
// exponent, or hexadecimal with a mandatory `p` exponent; `_` between digits. nullopt when
// the text is not a number; an out-of-range value comes back infinite.
std::optional<double> go_parse_float(std::string_view text) {
  std::string s;
  for (char ch : text)
    if (ch != '_') s += ch;
  if (s.size() != text.size() && !go_underscores_ok(text)) return std::nullopt;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  bool hex = s.size() >= i + 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
  if (hex) i += 2;
  auto is_digit = [&](char ch) {
    return hex ? std::isxdigit(static_cast<unsigned char>(ch)) != 0 : ch >= '0' && ch <= '9';
  };
  size_t digits = 0;
  while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  }
  if (digits == 0) return std::nullopt;
  char exp = hex ? 'p' : 'e';
  if (i < s.size() && std::tolower(static_cast<unsigned char>(s[i])) == exp) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp_digits = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++exp_digits;
    if (exp_digits == 0) return std::nullopt;
  } else if (hex) {
    return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  return std::strtod(s.c_str(), nullptr);  // underflow gives 0, as in Go
}

// float(x): strings are read as Go's strconv.ParseFloat reads them, with its error texts.
Value b_float(const Call& c) {
  unpack_positional(c, 0, 1);
  if (c.args.empty()) return Value::from_float(0.0);
  const Value& x = c.args[0];
  switch (x.kind()) {
    case Kind::kBool:
      return Value::from_float(x.as_bool() ? 1.0 : 0.0);
    case Kind::kInt:
      return Value::from_float(*x.to_double());
    case Kind::kFloat:
      return x;
    case Kind::kString: {
      const std::string& s = str_ref(x);
      std::string lower;
      for (char ch : s)
        lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
      if (lower == "nan") return Value::from_float(NAN);  // no sign, as in Go
      std::string_view body = lower;
      bool neg = false;
      if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
        neg = body[0] == '-';
        body.remove_prefix(1);
      }
      if (body == "inf" || body == "infinity") {
        return Value::from_float(neg ? -INFINITY : INFINITY);
      }
      std::optional<double> d = go_parse_float(s);
      if (!d) bfail(c, "strconv.ParseFloat: parsing " + repr_of(x) + ": invalid syntax");
      if (std::isinf(*d)) {
        bfail(c, "strconv.ParseFloat: parsing " + repr_of(x) + ": value out of range");
      }
      return Value::from_float(*d);
    }
    default:
      bfail(c, "got " + std::string(x.type_name()) + ", want number or string");
  }
}

Value b_getattr(const Call& c) {
  unpack_positional(c, 2, 3);
  const std::string& name = want_string(c, c.args[1], "2");
  try {
    return get_attr(c.args[0], name);
  } catch (EvalError& e) {
    if (c.args.size() == 3) return c.args[2];
    bfail(c, e.message);
  }
}

Value b_hasattr(const Call& c) {
  unpack_positional(c, 2, 2);
  const std::string& name = want_string(c, c.args[1], "2");
  const Value& x = c.args[0];
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
  unpack_positional(c, 1, 1);
  const std::string& s = want_string(c, c.args[0], "1");
  // java.lang.String.hashCode over the UTF-16 encoding.
  uint32_t h = 0;
  for (size_t i = 0; i < s.size();) {
    size_t n;
    uint32_t cp = decode_utf8(s, i, &n);
    i += n;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      h = 31 * h + (0xD800 + (cp >> 10));
      h = 31 * h + (0xDC00 + (cp & 0x3FF));
    } else {
      h = 31 * h + cp;
    }
  }
  return Value::from_int(static_cast<int32_t>(h));
}

Value parse_int_string(const Call& c, const std::string& s, int64_t base, bool base_given) {
  std::string_view body = s;
  bool neg = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    neg = body[0] == '-';
    body.remove_prefix(1);
  }
  int b = static_cast<int>(base);
  auto invalid = [&]() {
    bfail(c, "invalid literal with base " + std::to_string(base) + ": " + s);
  };
  if (body.size() >= 2 && body[0] == '0') {
    char p = static_cast<char>(std::tolower(static_cast<unsigned char>(body[1])));
    int pb = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    if (pb != 0 && (b == 0 || b == pb)) {
      b = pb;
      body.remove_prefix(2);
    } else if (b == 0) {
      // "0"-prefixed decimal with base 0 is only valid when all zeros.
      if (body.find_first_not_of('0') != std::string_view::npos) invalid();
      b = 10;
    }
  }
  if (b == 0) b = 10;
  (void)base_given;
  if (body.empty()) invalid();
  auto v = BigInt::parse(body, b);
  if (!v) invalid();
  return int_value(neg ? -*v : *v);
}

Value b_int(const Call& c) {
  Value x, base;
  unpack_args(c, {"x", "base?"}, {&x, &base});
  int64_t b = 10;
  if (given(base)) {
    b = want_int(c, base, "base");
    if (b != 0 && (b < 2 || b > 36)) bfail(c, "base must be an integer >= 2 && <= 36");
  }
  if (x.kind() == Kind::kString) return parse_int_string(c, str_ref(x), b, given(base));
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
  unpack_positional(c, 1, 1);
  int64_t n = length_of(c.args[0]);
  if (n < 0) bfail(c, "value of type " + std::string(c.args[0].type_name()) + " has no len");
  return Value::from_int(n);
}

Value b_list(const Call& c) {
  unpack_positional(c, 0, 1);
  if (c.args.empty()) return list_value({});
  want_iterable(c, c.args[0], "1");
  return list_value(to_vector(c.args[0]));
}

Value b_tuple(const Call& c) {
  unpack_positional(c, 0, 1);
  if (c.args.empty()) return tuple_value({});
  want_iterable(c, c.args[0], "1");
  return tuple_value(to_vector(c.args[0]));
}

Value b_set(const Call& c) {
  unpack_positional(c, 0, 1);
  Value s = new_set();
  if (c.args.empty()) return s;
  want_iterable(c, c.args[0], "1");
  try {
    for_each(c.args[0], [&](const Value& v) { as_set(s)->table.insert(v, Value()); });
  } catch (EvalError& e) {
    if (e.kind == ErrorKind::kLimit) throw;
    bfail(c, e.message);
  }
  return s;
}

Value minmax(const Call& c, bool is_max) {
  Value key;
  for (const auto& kw : c.kwargs) {
    if (kw.name != "key") bfail(c, "unexpected keyword argument " + std::string(kw.name));
    key = kw.value;
  }
  if (c.args.empty())
    throw_error(std::string(c.name) + " requires at least one positional argument");
  std::vector<Value> items;
  if (c.args.size() == 1) {
    if (length_of(c.args[0]) < 0 || c.args[0].kind() == Kind::kString)
      bfail(c, "got " + std::string(c.args[0].type_name()) + ", want iterable");
    items = to_vector(c.args[0]);
  } else {
    items.assign(c.args.begin(), c.args.end());
  }
  if (items.empty()) bfail(c, "argument is an empty sequence");
  Value best = items[0];
  Value best_key = key.is_none() ? best : call_value(key, std::span<const Value>(&best, 1), {});
  for (size_t i = 1; i < items.size(); ++i) {
    Value k = key.is_none() ? items[i] : call_value(key, std::span<const Value>(&items[i], 1), {});
    int cmp = compare_values(k, best_key, "<");
    if (is_max ? cmp > 0 : cmp < 0) {
      best = items[i];
      best_key = k;
    }
  }
  return best;
}

Value b_max(const Call& c) { return minmax(c, true); }
Value b_min(const Call& c) { return minmax(c, false); }

Value b_ord(const Call& c) {
  unpack_positional(c, 1, 1);
  const std::string& s = want_string(c, c.args[0], "1");
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
  unpack_positional(c, 1, 3);
  int64_t start = 0, stop, step = 1;
  if (c.args.size() == 1) {
    stop = want_int(c, c.args[0], "1");
  } else {
    start = want_int(c, c.args[0], "1");
    stop = want_int(c, c.args[1], "2");
    if (c.args.size() == 3) step = want_int(c, c.args[2], "3");
  }
  if (step == 0) bfail(c, "step argument must not be zero");
  return Value(new RangeObj(start, stop, step));
}

Value b_repr(const Call& c) {
  unpack_positional(c, 1, 1);
  return str_value(repr_of(c.args[0]));
}

Value b_str(const Call& c) {
  unpack_positional(c, 1, 1);
  if (c.args[0].kind() == Kind::kString) return c.args[0];
  return str_value(str_of(c.args[0]));
}

Value b_type(const Call& c) {
  unpack_positional(c, 1, 1);
  return Value::from_string(c.args[0].type_name());
}

Value b_reversed(const Call& c) {
  unpack_positional(c, 1, 1);
  want_iterable(c, c.args[0], "1");
  std::vector<Value> v = to_vector(c.args[0]);
  std::reverse(v.begin(), v.end());
  return list_value(std::move(v));
}

Value b_sorted(const Call& c) {
  Value x, key, reverse;
  unpack_args(c, {"iterable", "key?", "reverse?"}, {&x, &key, &reverse});
  want_iterable(c, x, "iterable");
  std::vector<Value> items = to_vector(x);
  bool rev = given(reverse) && truth(reverse);
  std::vector<Value> keys;
  bool has_key = given(key) && !key.is_none();
  if (has_key) {
    keys.reserve(items.size());
    for (const auto& v : items) keys.push_back(call_value(key, std::span<const Value>(&v, 1), {}));
  }
  std::vector<size_t> idx(items.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  const std::vector<Value>& k = has_key ? keys : items;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    return rev ? compare_values(k[b], k[a], "<") < 0 : compare_values(k[a], k[b], "<") < 0;
  });
  std::vector<Value> out;
  out.reserve(items.size());
  for (size_t i : idx) out.push_back(items[i]);
  return list_value(std::move(out));
}

Value b_zip(const Call& c) {
  if (!c.kwargs.empty()) bfail(c, "unexpected keyword arguments");
  std::vector<std::vector<Value>> cols;
  size_t n = SIZE_MAX;
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (length_of(c.args[i]) < 0 || c.args[i].kind() == Kind::kString)
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

}  // namespace hintkit::starlark
