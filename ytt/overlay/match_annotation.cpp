// `#@overlay/match` and `#@overlay/match-child-defaults` (ytt's match_annotation_expects_kwarg.go,
// match_child_defaults_annotation.go and the parsing halves of map_item_match_annotation.go,
// array_item_match_annotation.go and document_match_annotation.go): which left items an item
// is after (`by=`) and how many it expects to find (`expects=`, `missing_ok=`, `when=`).
#include <algorithm>
#include <charconv>

#include "ytt/overlay/op.h"

namespace hintkit::ytt::overlay {

namespace {

std::string positions_text(const std::vector<const diag::Span*>& matches) {
  if (matches.empty()) return "";
  std::vector<std::string> lines;
  for (const auto* m : matches) lines.push_back(compact(*m));
  std::sort(lines.begin(), lines.end());
  std::string out = " (lines: ";
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? ", " : "") + lines[i];
  return out + ")";
}

}  // namespace

void Counter::check(const std::vector<const diag::Span*>& matches) {
  auto only_one = [](const char* a, const char* b) {
    throw Fail{std::string("Expected only one of keyword arguments ('") + a + "', '" + b +
               "') specified"};
  };
  if (e_.missing_ok && e_.expects) only_one("missing_ok", "expects");
  if (e_.missing_ok && e_.when) only_one("missing_ok", "when");
  if (e_.when && e_.expects) only_one("when", "expects");
  std::optional<Fail> f;
  if (e_.missing_ok) {
    if (!e_.missing_ok->is_bool()) {
      throw Fail{"Expected keyword argument 'missing_ok' to be a boolean"};
    }
    // missing_ok=True is expects=[0, 1] (whose failure is the one of 1); False is 1
    if (!(e_.missing_ok->as_bool() && matches.empty())) {
      f = check_value(sl::Value::from_int(1), "missing_ok", matches);
    }
  } else if (e_.when) {
    f = check_value(*e_.when, "when", matches);
  } else if (e_.expects) {
    f = check_value(*e_.expects, "expects", matches);
  } else {
    f = check_value(sl::Value::from_int(1), "", matches);
  }
  if (f) throw *f;
}

Fail Counter::count_fail(std::string message) const {
  return Fail{std::move(message), e_.when.has_value()};
}

std::optional<Fail> Counter::check_value(const sl::Value& v, const std::string& kwarg,
                                         const std::vector<const diag::Span*>& matches) {
  int64_t n = static_cast<int64_t>(matches.size());
  if (v.is(sl::Kind::kInt)) {
    auto want = v.to_int64();
    if (want && *want == n) return std::nullopt;
    return count_fail("Expected number of matched nodes to be " + v.int_text() + ", but was " +
                      std::to_string(n) + positions_text(matches));
  }
  if (v.is(sl::Kind::kString)) {
    std::string s(v.as_string());
    auto bad = Fail{"Expected '" + s + "' to be in format 'i+' where i is an integer"};
    if (s.empty() || s.back() != '+') return bad;
    std::string digits = s.substr(0, s.size() - 1);
    const char* b = digits.data();
    if (!digits.empty() && digits[0] == '+') ++b;  // Go's Atoi takes a sign
    int64_t at_least = 0;
    auto [p, ec] = std::from_chars(b, digits.data() + digits.size(), at_least);
    if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size()) return bad;
    if (n < at_least) {
      return count_fail("Expected number of matched nodes to be >= " + std::to_string(at_least) +
                        ", but was " + std::to_string(n) + positions_text(matches));
    }
    return std::nullopt;
  }
  if (v.is(sl::Kind::kList)) {
    std::optional<Fail> last;
    for (const auto& item : v.items()) {
      last = check_value(item, kwarg, matches);
      if (!last) return std::nullopt;
    }
    return last;
  }
  if (callable(v)) {
    std::vector<sl::Value> args = {sl::Value::from_int(n)};
    auto r = thread_.call(v, args);
    if (!r.ok()) throw Fail{r.error().message};
    if (!r->is_bool()) {
      throw Fail{"Expected keyword argument '" + kwarg +
                 "' to have a function that returns a boolean"};
    }
    if (!r->as_bool()) return count_fail("Expectation of number of matched nodes failed");
    return std::nullopt;
  }
  throw Fail{"Expected 'overlay/match' annotation keyword argument '" + kwarg +
             "' to be either int, string or function, but was " + go_type_name(v)};
}

// `#@overlay/match-child-defaults`: what the children of a node leave unsaid.
Expects child_defaults(const std::vector<Ann>& anns, const Expects& parent) {
  Expects d;
  if (const Ann* a = find_ann(anns, "overlay/match-child-defaults")) {
    for (const auto& [name, v] : a->kwargs) {
      if (name == "expects") {
        d.expects = v;
      } else if (name == "missing_ok") {
        d.missing_ok = v;
      } else if (name == "when") {
        d.when = v;
      } else {
        throw Fail{"Unknown 'overlay/match-child-defaults' annotation keyword argument '" + name +
                   "'"};
      }
    }
  }
  d.fill(parent);
  return d;
}

Match parse_match(const std::vector<Ann>& anns, const Expects& defaults, Target t, bool exact) {
  Match m;
  const Ann* a = find_ann(anns, "overlay/match");
  if (t == Target::kArrayItem && !a) {
    m.expects.expects = sl::Value::from_int(0);
    m.unannotated = true;
    return m;
  }
  size_t n = a ? a->kwargs.size() : 0;
  if (n == 0 && (t == Target::kArrayItem || (t == Target::kDocument && !exact))) {
    throw Fail{
        "Expected 'overlay/match' annotation to have at least one keyword argument (by=..., "
        "expects=...)"};
  }
  if (a) {
    for (const auto& [name, v] : a->kwargs) {
      if (name == "by") {
        m.by = v;
      } else if (name == "expects") {
        m.expects.expects = v;
      } else if (name == "missing_ok") {
        m.expects.missing_ok = v;
      } else if (name == "when") {
        m.expects.when = v;
      } else {
        throw Fail{"Unknown 'overlay/match' annotation keyword argument '" + name + "'"};
      }
    }
  }
  m.expects.fill(defaults);
  return m;
}

}  // namespace hintkit::ytt::overlay
