// `@ytt:version`: require_at_least(v) checks a semver against the version hintkit answers for
// (ytt 0.48.0), as hashicorp/go-version's ">= v" constraint does: numeric segments first, then
// a release is newer than any of its pre-releases; build metadata does not count.
#include <algorithm>

#include "formats/formats.h"
#include "ytt/yttlibrary/yttlibrary.h"

namespace hintkit::ytt {

namespace {

constexpr std::string_view kYttVersion = "0.48.0";

// ytt's SemverRegex (pkg/yttlibrary/version.go), in RE2 syntax.
constexpr std::string_view kSemver =
    R"(^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*))"
    R"((?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?)"
    R"((?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$)";

struct Version {
  std::vector<std::string> numbers;  // decimal digits, no leading zeros (checked by the regex)
  std::string pre;
};

Version split(std::string_view v) {
  Version out;
  size_t plus = v.find('+');
  if (plus != std::string_view::npos) v = v.substr(0, plus);
  size_t dash = v.find('-');
  if (dash != std::string_view::npos) {
    out.pre = std::string(v.substr(dash + 1));
    v = v.substr(0, dash);
  }
  size_t start = 0;
  while (true) {
    size_t dot = v.find('.', start);
    out.numbers.emplace_back(v.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return out;
}

int compare_numbers(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  return a.compare(b) < 0 ? -1 : a == b ? 0 : 1;
}

// go-version's comparison of pre-release strings: dot-separated parts, numeric parts by
// value and before alphanumeric ones, a shorter list first when all else is equal.
int compare_pre(const std::string& a, const std::string& b) {
  if (a == b) return 0;
  if (a.empty()) return 1;  // a release is newer than its pre-releases
  if (b.empty()) return -1;
  auto parts = [](const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
      size_t dot = s.find('.', start);
      out.push_back(s.substr(start, dot == std::string::npos ? dot : dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    return out;
  };
  auto numeric = [](const std::string& s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  auto pa = parts(a), pb = parts(b);
  for (size_t i = 0; i < std::max(pa.size(), pb.size()); ++i) {
    if (i >= pa.size()) return -1;
    if (i >= pb.size()) return 1;
    bool na = numeric(pa[i]), nb = numeric(pb[i]);
    if (na && nb) {
      if (int c = compare_numbers(pa[i], pb[i])) return c;
    } else if (na != nb) {
      return na ? -1 : 1;
    } else if (pa[i] != pb[i]) {
      return pa[i] < pb[i] ? -1 : 1;
    }
  }
  return 0;
}

int compare(const Version& a, const Version& b) {
  for (size_t i = 0; i < 3; ++i) {
    if (int c = compare_numbers(a.numbers[i], b.numbers[i])) return c;
  }
  return compare_pre(a.pre, b.pre);
}

}  // namespace

sl::Value version_module() {
  auto require =
      sl::make_builtin("version.require_at_least", [](const sl::Call& c) -> sl::Result<sl::Value> {
        if (c.args.size() != 1) return ytt_fail(c, "expected exactly one argument");
        std::string_view want;
        if (auto e = want_string(c, c.args[0], want)) return *e;
        static const formats::Regex semver(kSemver);
        if (!semver.search(want)) {
          return ytt_fail(c, "version string '" + std::string(want) + "' must be a valid semver");
        }
        if (compare(split(kYttVersion), split(want)) < 0) {
          return ytt_fail(c, "ytt version '" + std::string(kYttVersion) +
                                 "' does not meet the minimum required version '" +
                                 std::string(want) + "'");
        }
        return sl::Value::none();
      });
  return sl::make_struct("module", "version", {{"require_at_least", require}});
}

}  // namespace hintkit::ytt
