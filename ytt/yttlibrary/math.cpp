// `@ytt:math` (ytt's pkg/yttlibrary/math.go), over Go's math functions: those whose results
// IEEE 754 fixes exactly (ceil, floor, round, fabs, copysign, mod, remainder, sqrt; degrees and
// radians are plain arithmetic) from the C++ library, the others (sin, exp, log, pow, gamma,
// ...) from gocompat's port of Go's math package, whose results have Go's bits on this machine.
// Like ytt, the first call warns on standard error that results are not bit-identical
// across CPU architectures.

#include <cmath>
#include <numbers>

#include "gocompat/gocompat.h"
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

// `log(x, base=e)`: starlark's argument unpacking (no ErrWrapper), then Log(x) / Log(base).
sl::Value log_builtin(Files& files) {
  return sl::make_builtin("log", [&files](const sl::Call& c) -> sl::Result<sl::Value> {
    warn_once(files);
    if (!c.kwargs.empty()) return sl::fail_error("log: unexpected keyword arguments");
    if (c.args.empty()) return sl::fail_error("log: got 0 arguments, want at least 1");
    if (c.args.size() > 2) {
      return sl::fail_error("log: got " + std::to_string(c.args.size()) +
                            " arguments, want at most 2");
    }
    double xs[2] = {0, std::numbers::e};
    for (size_t i = 0; i < c.args.size(); ++i) {
      auto x = as_float(c.args[i]);
      if (!x) return sl::fail_error("expected float value, but was " + go_type_name(c.args[i]));
      xs[i] = *x;
    }
    return sl::Value::from_float(gocompat::math::log(xs[0]) / gocompat::math::log(xs[1]));
  });
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
  namespace gm = gocompat::math;
  using Unary = double (*)(double);
  using Binary = double (*)(double, double);
  const std::pair<const char*, Binary> binaries[] = {
      {"pow", gm::pow}, {"atan2", gm::atan2}, {"hypot", gm::hypot}};
  for (const auto& [name, fn] : binaries) members.emplace_back(name, binary(files, name, fn));
  const std::pair<const char*, Unary> unaries[] = {
      {"exp", gm::exp},     {"acos", gm::acos},   {"asin", gm::asin}, {"atan", gm::atan},
      {"cos", gm::cos},     {"sin", gm::sin},     {"tan", gm::tan},   {"acosh", gm::acosh},
      {"asinh", gm::asinh}, {"atanh", gm::atanh}, {"cosh", gm::cosh}, {"sinh", gm::sinh},
      {"tanh", gm::tanh},   {"gamma", gm::gamma}};
  for (const auto& [name, fn] : unaries) members.emplace_back(name, unary(files, name, fn));
  members.emplace_back("log", log_builtin(files));
  return sl::make_struct("module", "math", std::move(members));
}

}  // namespace hintkit::ytt
