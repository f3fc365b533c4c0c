// String formatting: the `%` operator and str.format, with starlark-go's conversions and
// messages (Go's %g/%e/%f spellings, "+Inf", "not enough arguments for format string").
#include "starlark/format.h"

#include <cmath>
#include <cstdio>

#include "gocompat/gocompat.h"
#include "starlark/builtins.h"
#include "starlark/runes.h"

namespace hintkit::starlark {

namespace {

// Go's fmt with a float: %e and %f with six decimals, %g with the shortest digits that
// round-trip (precision -1).
std::string go_float(double d, char conv) {
  bool upper = conv == 'E' || conv == 'G' || conv == 'F';
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  if (conv == 'f' || conv == 'F') {  // up to 309 integer digits: no fixed small buffer
    char wide[400];
    std::snprintf(wide, sizeof wide, "%f", d);
    return wide;
  }
  char buf[64];
  if (conv == 'e' || conv == 'E') {
    std::snprintf(buf, sizeof buf, upper ? "%E" : "%e", d);
    return buf;
  }
  return gocompat::format_float(d, conv);  // %g and %G: the shortest digits
}

std::string int_in_base(const Value& v, int base, bool upper) {
  std::string s = to_bigint(v).to_string(base);
  if (upper) {
    for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  }
  return s;
}

}  // namespace

// starlark-go's interpolate: `format % x`, where a tuple supplies the arguments one by one and
// anything else is the single argument (or the mapping of `%(key)s`). Every conversion but
// "%%" consumes an argument slot, `%(key)` ones included.
Value percent_format(const Value& format, const Value& args) {
  std::string_view f = str_ref(format);
  const bool is_tuple = args.kind() == Kind::kTuple;
  const size_t nargs = is_tuple ? as_tuple(args)->items.size() : 1;
  size_t index = 0;
  std::string out;
  for (;;) {
    size_t pct = f.find('%');
    if (pct == std::string_view::npos) {
      out += f;
      break;
    }
    out += f.substr(0, pct);
    f.remove_prefix(pct + 1);
    if (!f.empty() && f[0] == '%') {
      out.push_back('%');
      f.remove_prefix(1);
      continue;
    }
    Value arg;
    if (!f.empty() && f[0] == '(') {
      f.remove_prefix(1);
      size_t close = f.find(')');
      if (close == std::string_view::npos) throw_error("incomplete format key");
      std::string key(f.substr(0, close));
      std::optional<Value> found;
      if (is_ytt_struct(args)) {  // ytt's structs are mappings of their field names
        for (const auto& [name, v] : static_cast<const StructObj*>(args.object())->fields) {
          if (name == key) found = v;
        }
      } else if (args.kind() == Kind::kDict) {
        try {
          if (Value* v = as_dict(args)->table.find(Value::from_string(key))) found = *v;
        } catch (EvalError& e) {
          if (e.kind == ErrorKind::kLimit) throw;
        }
      } else {
        throw_error("format requires a mapping");
      }
      if (!found) throw_error("key not found: " + key);
      arg = *found;
      f.remove_prefix(close + 1);
    } else {
      if (index >= nargs) throw_error("not enough arguments for format string");
      arg = is_tuple ? as_tuple(args)->items[index] : args;
    }
    if (f.empty()) throw_error("incomplete format");
    char c = f[0];
    switch (c) {
      case 's':
        append_str(out, arg);
        break;
      case 'r':
        append_repr(out, arg);
        break;
      case 'd':
      case 'i':
      case 'o':
      case 'x':
      case 'X': {
        Value iv = arg;
        if (arg.is_float()) {
          double d = arg.as_float();
          if (std::isinf(d))
            throw_error("%" + std::string(1, c) +
                        " format requires integer: cannot convert float infinity to integer");
          if (std::isnan(d))
            throw_error("%" + std::string(1, c) +
                        " format requires integer: cannot convert float NaN to integer");
          d = std::trunc(d);
          if (std::fabs(d) < 9e18) {
            iv = Value::from_int(static_cast<int64_t>(d));
          } else {
            char buf[400];
            std::snprintf(buf, sizeof buf, "%.0f", d);
            iv = int_value(*BigInt::parse(buf, 10));
          }
        } else if (arg.kind() != Kind::kInt) {
          throw_error("%" + std::string(1, c) + " format requires integer: cannot convert " +
                      std::string(arg.type_name()) + " to int");
        }
        int base = c == 'o' ? 8 : (c == 'x' || c == 'X') ? 16 : 10;
        out += int_in_base(iv, base, c == 'X');
        break;
      }
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G': {
        auto d = arg.to_double();
        if (!d || arg.is_bool()) {
          throw_error("%" + std::string(1, c) + " format requires float, not " +
                      std::string(arg.type_name()));
        }
        out += go_float(*d, c);
        break;
      }
      case 'c': {
        if (arg.kind() == Kind::kInt) {
          auto cp = arg.to_int64();
          if (!cp || *cp < INT32_MIN || *cp > INT32_MAX || *cp < 0 || *cp > 0x10FFFF)
            throw_error("%c format requires a valid Unicode code point, got " + arg.int_text());
          uint32_t r = static_cast<uint32_t>(*cp);
          if (r >= 0xD800 && r <= 0xDFFF) r = 0xFFFD;  // Go's WriteRune of a surrogate
          out += encode_utf8(r);
        } else if (arg.kind() == Kind::kString) {
          const std::string& s = str_ref(arg);
          size_t n = 0;
          if (!s.empty()) decode_utf8(s, 0, &n);
          if (s.empty() || n != s.size())
            throw_error("%c format requires a single-character string");
          out += s;
        } else {
          throw_error("%c format requires int or single-character string, not " +
                      std::string(arg.type_name()));
        }
        break;
      }
      case '%':
        out.push_back('%');
        break;
      default:
        throw_error("unknown conversion %" + std::string(1, c));
    }
    check_string_size(out.size());
    f.remove_prefix(1);
    ++index;
  }
  if (index < nargs) throw_error("too many arguments for format string");
  return str_value(std::move(out));
}

std::string str_format(std::string_view f, std::span<const Value> args,
                       std::span<const Kwarg> kwargs) {
  std::string out;
  int auto_index = 0;  // -1 once manual numbering is used
  bool manual = false;
  for (size_t i = 0; i < f.size(); ++i) {
    char ch = f[i];
    if (ch == '}') {
      if (i + 1 < f.size() && f[i + 1] == '}') {
        out.push_back('}');
        ++i;
        continue;
      }
      throw_error("format: single '}' in format");
    }
    if (ch != '{') {
      out.push_back(ch);
      continue;
    }
    if (i + 1 < f.size() && f[i + 1] == '{') {
      out.push_back('{');
      ++i;
      continue;
    }
    size_t close = f.find('}', i);
    if (close == std::string_view::npos) throw_error("format: unmatched '{' in format");
    std::string_view field = f.substr(i + 1, close - i - 1);
    i = close;
    // starlark-go's field grammar: name[!conv][:spec]; with a '!', the ':' splits what follows
    // it. The argument is looked up before the spec and the conversion are judged.
    std::string_view name, conv = "s", spec;
    if (size_t bang = field.find('!'); bang == std::string_view::npos) {
      size_t colon = field.find(':');
      name = field.substr(0, colon);
      if (colon != std::string_view::npos) spec = field.substr(colon + 1);
    } else {
      name = field.substr(0, bang);
      std::string_view rest = field.substr(bang + 1);
      size_t colon = rest.find(':');
      conv = rest.substr(0, colon);
      if (colon != std::string_view::npos) spec = rest.substr(colon + 1);
    }
    auto decimal = [](std::string_view n) -> std::optional<size_t> {
      size_t x = 0;
      for (char ch : n) {
        if (ch < '0' || ch > '9') return std::nullopt;
        if (x > (SIZE_MAX - 9) / 10) return std::nullopt;
        x = x * 10 + static_cast<size_t>(ch - '0');
      }
      return x;
    };
    Value arg;
    if (name.empty()) {
      if (manual)
        throw_error(
            "format: cannot switch from manual field specification to automatic field "
            "numbering");
      ++auto_index;
      if (static_cast<size_t>(auto_index - 1) >= args.size())
        throw_error("format: tuple index out of range");
      arg = args[static_cast<size_t>(auto_index - 1)];
    } else if (auto k = decimal(name)) {
      if (auto_index > 0)
        throw_error(
            "format: cannot switch from automatic field numbering to manual field "
            "specification");
      manual = true;
      if (*k >= args.size()) throw_error("format: tuple index out of range");
      arg = args[*k];
    } else {
      bool found = false;
      for (const auto& kw : kwargs) {
        if (kw.name == name) {
          arg = kw.value;
          found = true;
          break;
        }
      }
      if (!found) {
        if (name.find('.') != std::string_view::npos)
          throw_error("format: attribute syntax x.y is not supported in replacement fields: " +
                      std::string(name));
        if (name.find('[') != std::string_view::npos)
          throw_error("format: element syntax a[i] is not supported in replacement fields: " +
                      std::string(name));
        if (name.find('{') != std::string_view::npos)
          throw_error("format: nested replacement fields not supported");
        throw_error("format: keyword " + std::string(name) + " not found");
      }
    }
    if (!spec.empty())
      throw_error("format spec features not supported in replacement fields: " + std::string(spec));
    if (conv == "s") {
      append_str(out, arg);
    } else if (conv == "r") {
      append_repr(out, arg);
    } else {
      throw_error("format: unknown conversion " + repr_of(Value::from_string(std::string(conv))));
    }
    check_string_size(out.size());
  }
  return out;
}

}  // namespace hintkit::starlark
