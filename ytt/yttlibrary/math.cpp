// `@ytt:math` (ytt's pkg/yttlibrary/math.go). The functions whose results IEEE 754 fixes
// exactly (ceil, floor, round, fabs, copysign, mod, remainder, sqrt, and degrees/radians,
// which are plain arithmetic) are computed here; the transcendental ones (sin, exp, log, pow,
// hypot, gamma, ...) are refused: Go computes them with its own routines, whose last bit may
// differ from the C library's, and a different number is a silently different answer.
// Like ytt, the first call warns on standard error that results are not bit-identical
// across CPU architectures.

#include <cmath>
#include <numbers>

#include "ytt/yttlibrary/yttlibrary.h"

namespace hintkit::ytt {

namespace {

void warn_once(Files& files) {
  if (files.math_warned) return;
  files.math_warned = true;
  if (files.warn) {
    files.warn(
        "\nWarning: a function from the @ytt:math module is used in this invocation; this module "
        "does not guarantee bit-identical results across CPU architectures.\n");
  }
}

// core.StarlarkValue.AsFloat64.
std::optional<double> as_float(const sl::Value& v) {
  if (v.is(sl::Kind::kInt) || v.is(sl::Kind::kFloat)) return v.to_double();
  return std::nullopt;
}

sl::Error not_float(std::string_view name, const sl::Value& v) {
  return sl::fail_error(std::string(name) + ": expected float value, but was " + go_type_name(v));
}

sl::Value unary(Files& files, std::string name, double (*fn)(double)) {
  return sl::make_builtin(name, [&files, name, fn](const sl::Call& c) -> sl::Result<sl::Value> {
    warn_once(files);
    if (c.args.size() != 1) return sl::fail_error(name + ": expected exactly one argument");
    auto x = as_float(c.args[0]);
    if (!x) return not_float(name, c.args[0]);
    return sl::Value::from_float(fn(*x));
  });
}

sl::Value binary(Files& files, std::string name, double (*fn)(double, double)) {
  return sl::make_builtin(name, [&files, name, fn](const sl::Call& c) -> sl::Result<sl::Value> {
    warn_once(files);
    if (c.args.size() != 2) return sl::fail_error(name + ": expected exactly two arguments");
    auto x = as_float(c.args[0]);
    if (!x) return not_float(name, c.args[0]);
    auto y = as_float(c.args[1]);
    if (!y) return not_float(name, c.args[1]);
    return sl::Value::from_float(fn(*x, *y));
  });
}

// ceil and floor: an int stays as it is; a float becomes an int (NumberToInt).
sl::Value rounding(Files& files, std::string name, double (*fn)(double)) {
  return sl::make_builtin(name, [&files, name, fn](const sl::Call& c) -> sl::Result<sl::Value> {
    warn_once(files);
    const std::string prefix = name + ": " + name;  // ErrWrapper, then the unpacking
    if (!c.kwargs.empty()) return sl::fail_error(prefix + ": unexpected keyword arguments");
    if (c.args.size() != 1) {
      return sl::fail_error(prefix + ": got " + std::to_string(c.args.size()) +
                            " arguments, want 1");
    }
    const sl::Value& x = c.args[0];
    if (x.is(sl::Kind::kInt)) return x;
    if (!x.is(sl::Kind::kFloat)) {
      return sl::fail_error(name + ": expected float value, but was " + go_type_name(x));
    }
    const double r = fn(x.as_float());
    if (std::isinf(r)) return sl::fail_error(name + ": cannot convert float infinity to integer");
    if (std::isnan(r)) return sl::fail_error(name + ": cannot convert float NaN to integer");
    return *sl::int_from_float(r);  // exact at any size, as starlark-go's NumberToInt
  });
}

// A transcendental function: ytt's argument checks (arity, then numbers), then a refusal,
// except where the result is exact whichever way it is computed.
sl::Value refused(Files& files, std::string name, int arity,
                  std::optional<double> (*exact)(double, double) = nullptr) {
  return sl::make_builtin(
      name, [&files, name, arity, exact](const sl::Call& c) -> sl::Result<sl::Value> {
        warn_once(files);
        std::vector<double> xs;
        if (name == "log") {  // UnpackPositionalArgs, then AsFloat64 (no ErrWrapper)
          if (!c.kwargs.empty()) return sl::fail_error("log: unexpected keyword arguments");
          if (c.args.empty()) return sl::fail_error("log: got 0 arguments, want at least 1");
          if (c.args.size() > 2) {
            return sl::fail_error("log: got " + std::to_string(c.args.size()) +
                                  " arguments, want at most 2");
          }
          for (const auto& a : c.args) {
            auto x = as_float(a);
            if (!x) return sl::fail_error("expected float value, but was " + go_type_name(a));
            xs.push_back(*x);
          }
        } else {
          if (static_cast<int>(c.args.size()) != arity) {
            return sl::fail_error(name + (arity == 1 ? ": expected exactly one argument"
                                                     : ": expected exactly two arguments"));
          }
          for (const auto& a : c.args) {
            auto x = as_float(a);
            if (!x) return not_float(name, a);
            xs.push_back(*x);
          }
        }
        if (exact) {
          if (auto r = exact(xs[0], xs.size() > 1 ? xs[1] : std::numbers::e)) {
            return sl::Value::from_float(*r);
          }
        }
        files.unsupported = "math." + name + " (Go's result may differ in the last bit)";
        return sl::fail_error(files.unsupported);
      });
}

// x**y for integral x and y whose exact power fits in a double's 53 bits: Go's Pow multiplies
// exact mantissas there (and divides once for a negative y), as any correct pow does.
std::optional<double> exact_pow(double x, double y) {
  if (y == 0) return 1.0;
  if (x != std::trunc(x) || y != std::trunc(y) || std::fabs(y) > 64 || std::fabs(x) > 1e15) {
    return std::nullopt;
  }
  double p = 1;
  for (int i = 0; i < static_cast<int>(std::fabs(y)); ++i) {
    p *= x;
    if (std::fabs(p) > 9007199254740992.0) return std::nullopt;
  }
  if (y < 0) {
    if (p == 0) return std::nullopt;
    return 1 / p;
  }
  return p;
}

std::optional<double> exact_exp(double x, double) {
  if (x == 0) return 1.0;
  return std::nullopt;
}

double degrees(double x) { return 360 * x / (2 * std::numbers::pi); }
double radians(double x) { return 2 * std::numbers::pi * x / 360; }
double go_round(double x) { return std::round(x); }  // half away from zero, as Go's
double go_mod(double x, double y) { return std::fmod(x, y); }
double go_remainder(double x, double y) { return std::remainder(x, y); }
double go_copysign(double x, double y) { return std::copysign(x, y); }
double go_fabs(double x) { return std::fabs(x); }
double go_sqrt(double x) { return std::sqrt(x); }
double go_ceil(double x) { return std::ceil(x); }
double go_floor(double x) { return std::floor(x); }

}  // namespace

sl::Value math_module(Files& files) {
  std::vector<std::pair<std::string, sl::Value>> members = {
      {"ceil", rounding(files, "ceil", go_ceil)},
      {"copysign", binary(files, "copysign", go_copysign)},
      {"fabs", unary(files, "fabs", go_fabs)},
      {"floor", rounding(files, "floor", go_floor)},
      {"mod", binary(files, "round", go_mod)},  // ytt names this builtin "round"
      {"remainder", binary(files, "remainder", go_remainder)},
      {"round", unary(files, "round", go_round)},
      {"sqrt", unary(files, "sqrt", go_sqrt)},
      {"degrees", unary(files, "degrees", degrees)},
      {"radians", unary(files, "radians", radians)},
      {"e", sl::Value::from_float(std::numbers::e)},
      {"pi", sl::Value::from_float(std::numbers::pi)},
  };
  members.emplace_back("pow", refused(files, "pow", 2, exact_pow));
  members.emplace_back("exp", refused(files, "exp", 1, exact_exp));
  members.emplace_back("log", refused(files, "log", 0));
  for (const char* name : {"atan2", "hypot"}) members.emplace_back(name, refused(files, name, 2));
  for (const char* name : {"acos", "asin", "atan", "cos", "sin", "tan", "acosh", "asinh", "atanh",
                           "cosh", "sinh", "tanh", "gamma"}) {
    members.emplace_back(name, refused(files, name, 1));
  }
  return sl::make_struct("module", "math", std::move(members));
}

}  // namespace hintkit::ytt
