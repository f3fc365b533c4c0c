// ytt's strict YAML (`ytt --strict`, its vendored go-yaml's strictScalarResolve): a plain,
// untagged scalar must read the same under YAML 1.1 (go-yaml's resolve, which the loader
// already applied) and under a conservative reading that knows only decimal ints and floats,
// `true`, `false` and the empty null; the conservative reading also refuses unquoted strings
// with white space, a colon or `---`. Quoted, block and tagged scalars are not checked.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "gocompat/gocompat.h"
#include "yaml/internal.h"

namespace hintkit::yaml::internal {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// `^-?(0|[1-9][0-9]*)` from `s[i]`: the index after it, or npos.
size_t decimal_integer(std::string_view s, size_t i) {
  if (i < s.size() && s[i] == '-') ++i;
  if (i >= s.size() || !is_digit(s[i])) return std::string_view::npos;
  if (s[i] == '0') return i + 1;
  while (i < s.size() && is_digit(s[i])) ++i;
  return i;
}

bool strict_int(std::string_view s) { return decimal_integer(s, 0) == s.size(); }

// `^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`
bool strict_float(std::string_view s) {
  size_t i = decimal_integer(s, 0);
  if (i == std::string_view::npos) return false;
  if (i < s.size() && s[i] == '.') {
    size_t j = i + 1;
    while (j < s.size() && is_digit(s[j])) ++j;
    if (j == i + 1) return false;
    i = j;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
    size_t digits = j;
    while (j < s.size() && is_digit(s[j])) ++j;
    if (j == digits) return false;
    i = j;
  }
  return i == s.size();
}

// Go's unicode.IsSpace over the UTF-8 text.
bool has_space(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const gocompat::Rune r = gocompat::decode_rune(s, i);
    if (gocompat::is_space(r.cp)) return true;
    i += r.width;
  }
  return false;
}

std::string_view native_tag(const Node& n) {
  switch (n.kind) {
    case Kind::kNull:
      return "!!null";
    case Kind::kBool:
      return "!!bool";
    case Kind::kInt:
      return "!!int";
    case Kind::kFloat:
      return "!!float";
    default:
      return is_timestamp(n.text) ? "!!timestamp" : "!!str";
  }
}

// Go's strconv.ParseUint error text for a decimal that does not fit an int64.
std::string uint_error(std::string_view s) {
  const std::string quoted = "\"" + std::string(s) + "\"";
  if (s.starts_with("-")) return "strconv.ParseUint: parsing " + quoted + ": invalid syntax";
  // Digits only: it fits a uint64 unless it is longer or larger than 18446744073709551615.
  constexpr std::string_view kMax = "18446744073709551615";
  if (s.size() < kMax.size() || (s.size() == kMax.size() && s <= kMax)) return {};
  return "strconv.ParseUint: parsing " + quoted + ": value out of range";
}

// The problem with one plain scalar's text, as go-yaml words it (after "yaml: "), or "".
std::string scalar_problem(const Node& n) {
  const std::string_view in = n.text;
  std::string_view tag;
  if (in.empty()) {
    tag = "!!null";
  } else if (in == "true" || in == "false") {
    tag = "!!bool";
  } else if (strict_int(in)) {
    bool fits_int64 = false;
    {
      errno = 0;
      const std::string copy(in);
      (void)std::strtoll(copy.c_str(), nullptr, 10);
      fits_int64 = errno != ERANGE;
    }
    if (!fits_int64) {
      std::string err = uint_error(in);
      if (!err.empty()) return "Strict parsing: Parsing int '" + std::string(in) + "': " + err;
    }
    tag = "!!int";
  } else if (strict_float(in)) {
    const std::string copy(in);
    if (std::isinf(std::strtod(copy.c_str(), nullptr))) {
      return "Strict parsing: Parsing float '" + copy + "': strconv.ParseFloat: parsing \"" + copy +
             "\": value out of range";
    }
    tag = "!!float";
  } else if (has_space(in)) {
    return "Strict parsing: Strings with whitespace must be explicitly quoted: '" +
           std::string(in) + "'";
  } else if (in.find(':') != std::string_view::npos) {
    return "Strict parsing: Strings with colon must be explicitly quoted: '" + std::string(in) +
           "'";
  } else if (in.find("---") != std::string_view::npos) {
    return "Strict parsing: Strings with triple-dash must be explicitly quoted: '" +
           std::string(in) + "'";
  } else {
    tag = "!!str";
  }
  const std::string_view native = native_tag(n);
  if (tag != native) {
    return "Strict parsing: Found '" + std::string(in) + "' ambigious (could be " +
           std::string(tag) + " or " + std::string(native) + ")";
  }
  return {};
}

struct StrictWalk {
  const Node* found = nullptr;
  std::string problem;

  // Pre-order, keys before their values: the order go-yaml decodes a document in.
  bool walk(const Node& n) {
    if (n.kind == Kind::kMap) {
      for (const auto& it : n.items) {
        if (walk(it.key) || walk(it.value)) return true;
      }
      return false;
    }
    if (n.kind == Kind::kArray) {
      for (const auto& el : n.elements) {
        if (walk(el)) return true;
      }
      return false;
    }
    // `<<` is go-yaml's merge key, resolved before any scalar is.
    if (n.style != Style::kPlain || !n.tag.empty() || n.text == "<<") return false;
    problem = scalar_problem(n);
    if (problem.empty()) return false;
    found = &n;
    return true;
  }
};

}  // namespace

std::optional<StrictProblem> strict_problem(const std::vector<Document>& docs) {
  for (const auto& d : docs) {
    if (d.empty) continue;
    StrictWalk w;
    if (w.walk(d.root)) return StrictProblem{w.found->span, std::move(w.problem)};
  }
  return std::nullopt;
}

}  // namespace hintkit::yaml::internal
