// The helpers of builtins.h for writing builtins: starlark-go's argument checks and unpacking,
// with its messages.
#include "starlark/builtins.h"

namespace hintkit::starlark {

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
  std::vector<ArgSlot> slots;
  auto o = out.begin();
  for (std::string_view n : names) slots.push_back({n, *o++});
  unpack_args_v(c, slots);
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

bool is_iterable(const Value& v) {
  switch (v.kind()) {
    case Kind::kList:
    case Kind::kTuple:
    case Kind::kDict:
    case Kind::kSet:
    case Kind::kRange:
      return true;
    case Kind::kHost:
      return static_cast<const HostObject*>(v.object())->iterate().has_value();
    case Kind::kStruct:
      return is_ytt_struct(v);
    default:
      return false;
  }
}

std::string conversion_error(const Value& v, Want want) {
  auto got = [&](std::string_view w) {
    return "got " + std::string(v.type_name()) + ", want " + std::string(w);
  };
  switch (want) {
    case Want::kAny:
      return {};
    case Want::kString:
      return v.kind() == Kind::kString ? std::string() : got("string");
    case Want::kBool:
      return v.kind() == Kind::kBool ? std::string() : got("bool");
    case Want::kInt32: {
      if (v.kind() != Kind::kInt) return got("int");
      auto i = v.to_int64();
      if (!i || *i < INT32_MIN || *i > INT32_MAX) return v.int_text() + " out of range";
      return {};
    }
    case Want::kIterable:
      return is_iterable(v) ? std::string() : got("iterable");
    case Want::kCallable: {
      Kind k = v.kind();
      bool ok = k == Kind::kFunction || k == Kind::kBuiltin;
      return ok ? std::string() : got("callable");
    }
  }
  return {};
}

void unpack_positional(const Call& c, size_t min, std::initializer_list<ArgSlot> params) {
  unpack_positional(c, min, params.size());
  size_t i = 0;
  for (const ArgSlot& p : params) {
    if (i >= c.args.size()) break;
    std::string err = conversion_error(c.args[i], p.want);
    if (!err.empty()) bfail(c, "for parameter " + std::to_string(i + 1) + ": " + err);
    *p.out = c.args[i];
    ++i;
  }
}

void unpack_args(const Call& c, std::initializer_list<ArgSlot> params) {
  unpack_args_v(c, std::vector<ArgSlot>(params));
}

// Keyword names appear in these messages as starlark-go prints them there: quoted.
void unpack_args_v(const Call& c, const std::vector<ArgSlot>& ps) {
  for (const ArgSlot& p : ps) *p.out = unbound();
  auto base = [](std::string_view n) { return n.ends_with('?') ? n.substr(0, n.size() - 1) : n; };
  if (c.args.size() > ps.size()) {
    bfail(c, "got " + std::to_string(c.args.size()) + " arguments, want at most " +
                 std::to_string(ps.size()));
  }
  for (size_t i = 0; i < c.args.size(); ++i) {
    std::string err = conversion_error(c.args[i], ps[i].want);
    if (!err.empty()) bfail(c, "for parameter " + std::string(base(ps[i].name)) + ": " + err);
    *ps[i].out = c.args[i];
  }
  for (const auto& kw : c.kwargs) {
    size_t i = 0;
    for (; i < ps.size(); ++i) {
      if (base(ps[i].name) == kw.name) break;
    }
    std::string quoted = repr_of(Value::from_string(kw.name));
    if (i == ps.size()) bfail(c, "unexpected keyword argument " + quoted);
    if (given(*ps[i].out)) bfail(c, "got multiple values for keyword argument " + quoted);
    std::string err = conversion_error(kw.value, ps[i].want);
    if (!err.empty()) bfail(c, "for parameter " + quoted + ": " + err);
    *ps[i].out = kw.value;
  }
  for (size_t i = c.args.size(); i < ps.size(); ++i) {
    if (ps[i].name.ends_with('?')) break;
    if (!given(*ps[i].out)) bfail(c, "missing argument for " + std::string(ps[i].name));
  }
}

}  // namespace hintkit::starlark
